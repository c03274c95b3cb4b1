"""Developer console and admin pages through the HTTP stack: ownership, roles, CSRF, audit."""

from __future__ import annotations

import re

import pytest

from models.console import service
from models.identity import accounts
from tests.functional.identity.test_identity_site import csrf
from tests.support import Creds, SignedClient

PASSWORD = "console-pass-1"


@pytest.fixture()
def settings(settings):
    """Plain-HTTP site URL, so the test client sends the session cookie back."""
    return settings.replace(site_url="http://testserver")


@pytest.fixture()
def people(make_user, db):
    """An owner, another user and an admin: {name: id}."""
    ids = {
        name: make_user(
            username=name, login_name=f"{name}_login", password_hash=accounts.hash_password(PASSWORD)
        )
        for name in ("owner", "other", "boss")
    }
    with db.session() as session:
        service.set_role(session, user_id=ids["boss"], role="admin")
        session.commit()
    return ids


def log_in(client, name):
    client.cookies.clear()
    page = client.get("/login")
    done = client.post(
        "/login", data={"csrf_token": csrf(page), "login": name, "password": PASSWORD}, follow_redirects=False
    )
    assert done.status_code == 302


def post(client, path, page_path, **form):
    return client.post(path, data={"csrf_token": csrf(client.get(page_path)), **form}, follow_redirects=False)


def register(client, **extra) -> int:
    form = {
        "name": "Launcher",
        "description": "A launcher",
        "redirect_uris": "https://l.example/cb",
        "ip_allow": "127.0.0.1\n10.0.0.*",
        "wanted": "user:proxy",
        **extra,
    }
    done = post(client, "/console/apps", "/console", **form)
    assert done.status_code == 302, done.text
    return int(re.search(r"/console/apps/(\d+)$", done.headers["location"]).group(1))


def test_register_approve_secret_once_rotate_and_sign(client, app, people):
    log_in(client, "owner")
    app_id = register(client, ip_allow="")  # the test client's peer is not an IP address
    page = client.get(f"/console/apps/{app_id}")
    assert 'id="status">PENDING<' in page.text and 'id="secret-later"' in page.text
    assert post(client, f"/console/apps/{app_id}/secret", f"/console/apps/{app_id}").status_code == 409

    log_in(client, "boss")
    admin_page = client.get("/admin")
    assert f'id="pending-{app_id}"' in admin_page.text
    assert (
        post(
            client, f"/admin/apps/{app_id}/approve", "/admin", proxy="yes", per_minute="7", per_day="70"
        ).status_code
        == 302
    )
    assert re.search(r'class="audit-action">approve<', client.get("/admin").text)

    log_in(client, "owner")
    page = client.get(f"/console/apps/{app_id}")
    assert 'id="status">APPROVED<' in page.text and "0 used of 7" in page.text
    api_key = re.search(r'id="api-key">([^<]+)<', page.text).group(1)
    shown = post(client, f"/console/apps/{app_id}/secret", f"/console/apps/{app_id}")
    secret = re.search(r'id="secret">([^<]+)<', shown.text).group(1)
    assert "user:proxy" in shown.text and 'id="rotate"' in shown.text
    again = post(client, f"/console/apps/{app_id}/secret", f"/console/apps/{app_id}")
    assert (
        again.status_code == 409
        and secret not in again.text
        and secret not in client.get(f"/console/apps/{app_id}").text
    )

    signed = SignedClient(client, Creds(app_id, api_key, secret))
    assert signed.get("/openapi/v2/games").json()["code"] == 0
    assert "1 used of 7" in client.get(f"/console/apps/{app_id}").text

    rotated = post(client, f"/console/apps/{app_id}/rotate", f"/console/apps/{app_id}")
    new_secret = re.search(r'id="secret">([^<]+)<', rotated.text).group(1)
    assert new_secret != secret and 'id="old-secret-ended"' in rotated.text
    assert signed.get("/openapi/v2/games").json()["code"] == 200208
    assert (
        SignedClient(client, Creds(app_id, api_key, new_secret)).get("/openapi/v2/games").json()["code"] == 0
    )


def test_settings_edit_validates_and_only_the_owner_sees_the_app(client, people):
    log_in(client, "owner")
    app_id = register(client)
    bad = post(
        client,
        f"/console/apps/{app_id}/settings",
        f"/console/apps/{app_id}",
        redirect_uris="javascript:alert(1)",
        ip_allow="",
    )
    assert bad.status_code == 400 and "absolute http(s) URL" in bad.text
    assert (
        post(
            client,
            f"/console/apps/{app_id}/settings",
            f"/console/apps/{app_id}",
            redirect_uris="https://new.example/cb",
            ip_allow="192.168.1.0/24",
        ).status_code
        == 302
    )
    page = client.get(f"/console/apps/{app_id}").text
    assert "https://new.example/cb" in page and "192.168.1.0/24" in page
    assert post(client, "/console/apps", "/console", name="X", ip_allow="not-an-ip").status_code == 400

    log_in(client, "other")
    assert client.get(f"/console/apps/{app_id}").status_code == 404
    assert (
        post(
            client, f"/console/apps/{app_id}/settings", "/console", redirect_uris="https://evil.example/cb"
        ).status_code
        == 404
    )


def test_admin_pages_need_the_role_and_csrf(client, people):
    assert client.get("/console", follow_redirects=False).status_code == 302
    assert client.get("/admin", follow_redirects=False).status_code == 302
    log_in(client, "owner")
    app_id = register(client)
    assert client.get("/admin").status_code == 403
    assert post(client, f"/admin/apps/{app_id}/approve", "/console", proxy="yes").status_code == 403
    assert client.post("/console/apps", data={"name": "No token"}).status_code == 400

    log_in(client, "boss")
    assert client.post(f"/admin/apps/{app_id}/approve", data={"proxy": "yes"}).status_code == 400
    assert post(client, f"/admin/apps/{app_id}/refuse", "/admin", reason="").status_code == 400
    assert post(client, f"/admin/apps/{app_id}/refuse", "/admin", reason="no website").status_code == 302
    assert post(client, f"/admin/apps/{app_id}/approve", "/admin").status_code == 409
    assert post(client, f"/admin/apps/{app_id}/enable", "/admin").status_code == 302
    assert (
        post(client, f"/admin/apps/{app_id}/quotas", "/admin", per_minute="5", per_day="").status_code == 302
    )
    assert post(client, f"/admin/apps/{app_id}/quotas", "/admin", per_minute="-1").status_code == 400
    assert post(client, f"/admin/apps/{app_id}/disable", "/admin").status_code == 302
    audit = client.get("/admin").text
    assert re.findall(r'class="audit-action">(\w+)<', audit) == ["disable", "quotas", "enable", "refuse"]

    log_in(client, "owner")
    page = client.get(f"/console/apps/{app_id}").text
    assert 'id="refusal">Refused: no website<' in page and 'id="status">DISABLED<' in page
