"""Every site page, through the HTTP stack: the strict CSP and framing headers, no inline script,
style or event handler, a CSRF token in every POST form, and every POST refused without it (or
with another session's token); the admin pages refuse a user without the role."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from models.identity.tables import Application
from tests.functional.identity.test_identity_site import csrf
from tests.functional.site.test_console_pages import log_in, people, post, register  # noqa: F401

STRICT_CSP = "default-src 'self'; frame-ancestors 'none'"


@pytest.fixture()
def settings(settings):
    """Plain-HTTP site URL (session cookie sent back); loopback callbacks allowed."""
    return settings.replace(site_url="http://testserver", webhook_allow_private=True)


def _check_page(page, path: str) -> None:
    assert page.headers["content-security-policy"] == STRICT_CSP, path
    assert page.headers["x-frame-options"] == "DENY", path
    text = page.text
    assert '<link rel="stylesheet" href="/site-static/site.css">' in text, path
    assert "<style" not in text and " style=" not in text and "<script" not in text, path
    assert not re.search(r"\son[a-z]+=", text), path
    for form in re.findall(r'<form method="post".*?</form>', text, re.S):
        assert 'name="csrf_token"' in form, (path, form[:200])


def test_every_page_is_strict_and_every_form_carries_csrf(client, db, people):  # noqa: F811
    _check_page(client.get("/login"), "/login")
    _check_page(client.get("/"), "/")
    _check_page(client.get("/demo/callback?auth_code=AB12CD"), "/demo/callback")
    log_in(client, "boss")
    app_id = register(client, ip_allow="")
    hooks = f"/console/apps/{app_id}/webhooks"
    post(client, f"/admin/apps/{app_id}/approve", "/admin", proxy="yes")
    post(client, hooks, hooks, url="http://127.0.0.1:9/hook")
    from tests.helpers.catalog import Catalogue

    cat = Catalogue(db)
    cat.section()
    pages = [
        "/",
        f"/resource/{cat.post()}",
        "/pairing",
        "/console",
        f"/console/apps/{app_id}",
        hooks,
        "/admin",
        f"/openapi-authorize?app_id={app_id}&redirect_uri=https://l.example/cb",
        "/openapi-authorize?app_id=x",
        "/demo/callback?error=access_denied",
        "/nope-not-a-page",
    ]
    for path in pages:
        page = client.get(path)
        assert page.status_code in (200, 400, 404), (path, page.status_code)
        if page.headers["content-type"].startswith("text/html") and path != "/nope-not-a-page":
            _check_page(page, path)


def test_every_post_needs_this_sessions_csrf_token(client, db, people):  # noqa: F811
    log_in(client, "boss")
    app_id = register(client, ip_allow="")
    hooks = f"/console/apps/{app_id}/webhooks"
    added = post(client, hooks, hooks, url="http://127.0.0.1:9/hook")
    sub_id = int(re.search(r'id="hook-(\d+)"', added.text).group(1))
    stale = csrf(client.get("/console"))
    log_in(client, "boss")  # a new session: the old token is worthless
    posts = {
        "/console/apps": {"name": "X"},
        f"/console/apps/{app_id}/settings": {"redirect_uris": ""},
        f"/console/apps/{app_id}/rotate": {},
        f"/console/apps/{app_id}/secret": {},
        hooks: {"url": "http://127.0.0.1:9/other"},
        **{
            f"/console/webhooks/{sub_id}/{action}": {}
            for action in ("pause", "resume", "rotate", "test", "remove")
        },
        **{
            f"/admin/apps/{app_id}/{action}": {"reason": "r", "per_minute": "5"}
            for action in ("approve", "refuse", "disable", "enable", "quotas")
        },
        "/pairing": {},
        "/logout": {},
    }
    for path, form in posts.items():
        for token in (None, "", stale):
            data = form if token is None else {**form, "csrf_token": token}
            answer = client.post(path, data=data, follow_redirects=False)
            assert answer.status_code == 400, (path, token, answer.status_code)
            assert "did not come from this site" in answer.text, path
    with db.session() as session:  # nothing changed: still one PENDING app with its hook
        app = session.scalars(select(Application)).one()
        assert app.status.value == "PENDING"
    assert f'id="hook-{sub_id}"' in client.get(hooks).text


def test_admin_pages_refuse_a_user_without_the_role(client, people):  # noqa: F811
    log_in(client, "owner")
    app_id = register(client, ip_allow="")
    refused = client.get("/admin")
    assert refused.status_code == 403
    _check_page(refused, "/admin (403)")
    for action in ("approve", "refuse", "disable", "enable", "quotas"):
        answer = post(client, f"/admin/apps/{app_id}/{action}", "/console", reason="r", per_minute="5")
        assert answer.status_code == 403, action
