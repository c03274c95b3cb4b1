"""Object-level authorization (OWASP API1) as a matrix (issue 31 item 2).

The operations under test come from the contract: every P and T operation and every operation
with a `{userId}` or `{draftId}` path parameter; and from the site: every console route that
names an application or a webhook subscription. Each must have a row in MATRIX (or CONSOLE), so
a new operation without one fails `test_every_owned_operation_has_a_row`.

A row either names an object that user A owns (through application 1) and the request that would
read or change it, or says why the operation reaches no one else's object (it acts on the
caller's own records, creates a new one, or reads public data). Each object row is then sent as
two intruders: user B with a valid token of their own (same application), and application 2
acting for B with its own valid token (and application 2 presenting A's token of application 1).
Each answers a 4xx, and no row of the database changed (a digest of every table).
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text

from models.base import Base
from models.catalog.tables import ResourceAuthor, ResourcePost
from models.community.tables import Notification
from models.types import utcnow
from modhub.contract import Contract
from modhub.gateway import Access, access_of
from tests.functional.site.test_console_pages import log_in, people, post, register  # noqa: F401
from tests.helpers.authoring import full_body
from tests.helpers.catalog import data
from tests.helpers.lobby import item, post_body
from tests.support import SignedClient

DOC = Contract.load().document  # the parse kept beside the YAML (modhub.contract)
OWNED = {
    o["operationId"]
    for p, path_item in DOC["paths"].items()
    for m, o in path_item.items()
    if m in ("get", "post", "put", "patch", "delete")
    and (access_of(o) in (Access.PROXY_USER, Access.TOKEN) or re.search(r"\{(userId|draftId)\}", p))
}
V2 = "/openapi/v2"
LOBBY = f"{V2}/server-post/lobby"
CONTENT = b"PK\x03\x04 lobby bytes"

# operationId -> (method, path template, JSON body or None[, SCOPED]) on A's objects ({a}: A's
# user id, {draft}, {post}, {lobby}, {res}: A's draft, published post, lobby post, reserved
# resource; SCOPED: the operation reads the ids it is given as the caller's own, so a 2xx that did
# nothing is right too), or a string: why the operation reaches nothing another user or
# application owns.
SCOPED = "scoped"
SELF = "acts on the caller's own records only (the user comes from the caller's token)"
CREATES = "creates a new object owned by the caller (who may not name another owner: test_mass_assignment)"
PUBLIC = "reads a public profile or list (K, anonymous-equivalent data)"
MATRIX: dict[str, tuple | str] = {
    "getProxyUserPoints": ("GET", V2 + "/proxy-user/{a}/points", None),
    "adjustProxyUserPoints": (
        "POST",
        V2 + "/proxy-user/{a}/points/adjust",
        {"amount": 5, "direction": "ADD", "reason": "intruder"},
    ),
    "getProxyUserWalletBalance": ("GET", V2 + "/proxy-user/{a}/wallet/POINTS/balance", None),
    "adjustProxyUserWallet": (
        "POST",
        V2 + "/proxy-user/{a}/wallet/POINTS/adjust",
        {"amount": 5, "direction": "ADD", "reason": "intruder"},
    ),
    "saveModDraft": ("POST", V2 + "/mods/draft/{draft}/save", "full_body"),
    "saveResourceDraft": ("POST", V2 + "/resource/draft/{draft}/save", "full_body"),
    "publishModDraft": ("POST", V2 + "/mods/draft/{draft}/publish", {}),
    "publishResourceDraft": ("POST", V2 + "/resource/draft/{draft}/publish", {}),
    "editMod": ("POST", V2 + "/mods/{post}/edit", "full_body"),
    "editResource": ("POST", V2 + "/resource/{post}/edit", "full_body"),
    "updateLobbyPost": ("POST", LOBBY + "/{lobby}/update", "lobby_body"),
    "closeLobbyPost": ("POST", LOBBY + "/{lobby}/close", None),
    "refreshLobbyUrls": ("POST", LOBBY + "/{lobby}/refresh-urls", None),
    "reserveLobbyResources": ("POST", LOBBY + "/{lobby}/resources/reserve-batch", "reserve_body"),
    "cancelLobbyResource": ("POST", LOBBY + "/{lobby}/resources/{res}/cancel", None),
    "uploadLobbyResource": ("POST", LOBBY + "/{lobby}/resources/{res}/upload", "upload"),
    # scoped: the ids are read as the caller's own, so A's are not found (200, nothing done)
    "markNotificationsRead": ("POST", V2 + "/community/notifications/read", "notification_ids", SCOPED),
    "unlinkUserBinding": ("POST", V2 + "/user-binding/unlink", {"externalUserId": "ext-of-a"}, SCOPED),
    "legacyGetUserProfile": SELF,
    "listNotifications": SELF,
    "countUnreadNotifications": SELF,
    "toggleCollect": SELF,
    "toggleLike": SELF,
    "toggleFollow": SELF,
    "publishComment": CREATES,
    "sendMessage": CREATES,
    "revokeAccessToken": SELF + ": it revokes the token that signs the request",
    "linkUserBinding": SELF + ": an external id bound to another user is refused (200409)",
    "exchangeSsoTicket": SELF + ": the ticket is issued to the token's user",
    "collectProviderActivityPoints": SELF,
    "placeProviderCarousel": SELF,
    "initModDraft": CREATES,
    "initResourceDraft": CREATES,
    "uploadDraftFile": CREATES,
    "publishLobbyPost": CREATES,
    "getUserProfile": PUBLIC,
    "listFollowers": PUBLIC,
    "listFollowing": PUBLIC,
    "listUserPosts": PUBLIC,
}
# Console routes naming an owned object: (method, path on A's app {app} or subscription {sub}).
CONSOLE = {
    "site.console_app": ("GET", "/console/apps/{app}"),
    "site.console_reveal": ("POST", "/console/apps/{app}/secret"),
    "site.console_rotate": ("POST", "/console/apps/{app}/rotate"),
    "site.console_edit": ("POST", "/console/apps/{app}/settings"),
    "site.console_hooks": ("GET", "/console/apps/{app}/webhooks"),
    "site.console_hook_add": ("POST", "/console/apps/{app}/webhooks"),
    "site.console_hook_change": ("POST", "/console/webhooks/{sub}/pause"),
}


def digest(db) -> dict[str, str]:
    """An md5 of every table's rows: any insert, update or delete changes one."""
    names = sorted(Base.metadata.tables)
    sql = "SELECT " + ", ".join(
        f"(SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM \"{n}\" t)" for n in names
    )
    with db.session() as session:
        return dict(zip(names, session.execute(text(sql)).one(), strict=True))


def test_every_owned_operation_has_a_row(app, client):
    assert OWNED == set(MATRIX), (
        f"without a row: {sorted(OWNED - set(MATRIX))}; not owned: {sorted(set(MATRIX) - OWNED)}"
    )
    routes = {
        rule.endpoint
        for rule in app.app.url_map.iter_rules()
        if rule.rule.startswith("/console/") and rule.arguments
    }
    assert routes == set(CONSOLE), f"console routes: {sorted(routes)}"


@pytest.fixture()
def settings(settings):
    """Plain-HTTP site URL (the session cookie comes back); loopback webhook URLs allowed."""
    return settings.replace(site_url="http://testserver", webhook_allow_private=True)


def _headers(user: int, token: str) -> dict:
    return {"X-Proxy-User-Id": str(user), "X-Proxy-Access-Token": token}


@pytest.fixture()
def owned(signed, creds, db, make_user, make_token, tax):  # noqa: F811
    """User A's objects, made through the API where it has a way (else as rows)."""
    a = make_user()
    a_headers = _headers(a, make_token(creds.app_id, a))
    init = {
        "sectionCode": "minecraft",
        "resourceTypeId": tax.mod_type,
        "categoryId": str(tax.tech),
        "title": "A",
    }
    draft = data(signed.post(V2 + "/mods/draft/init", json=init, headers=a_headers))["postId"]
    with db.session() as session:
        published = ResourcePost(
            section_code="minecraft",
            main_name="A's mod",
            status="PUBLISHED",
            publish_time=utcnow(),
            main_categories=["mod-tech"],
            tags=[],
            display_images=[],
        )
        session.add(published)
        session.flush()
        session.add(ResourceAuthor(post_id=published.id, user_id=a, role="OWNER", sort_order=0))
        note = Notification(user_id=a, message_type="SYSTEM", title="for A", read_flag=False)
        session.add(note)
        session.commit()
        post_id, note_id = published.id, note.id
    lobby = data(signed.post(LOBBY + "/publish", json=post_body(), headers=a_headers))
    reserved = data(
        signed.post(
            f"{LOBBY}/{lobby}/resources/reserve-batch", json={"items": [item(CONTENT)]}, headers=a_headers
        )
    )
    res = reserved["results"][0]
    binding = {"externalUserId": "ext-of-a", "externalUsername": "a"}
    assert signed.post(V2 + "/user-binding/link", json=binding, headers=a_headers).status_code == 200
    return {
        "ids": {"a": a, "draft": draft, "post": post_id, "lobby": lobby, "res": res["reservedResourceId"]},
        "bodies": {
            "full_body": full_body(tax),
            "lobby_body": post_body(mainName="Taken"),
            "reserve_body": {"items": [item(b"other bytes", "mods/b.jar")]},
            "notification_ids": {"messageIds": [note_id]},
        },
        "upload_token": res["uploadToken"],
        "a_token": a_headers["X-Proxy-Access-Token"],
    }


@pytest.fixture()
def intruders(signed, client, checker, creds, make_app, make_user, make_token, owned):
    """(name, signed client, headers): user B on application 1; application 2 acting for B; and
    application 2 presenting A's token of application 1."""
    b = make_user()
    other_app = make_app(permissions=["user:proxy"], name="other app")
    signed2 = SignedClient(client, other_app, checker)
    a = owned["ids"]["a"]
    return [
        ("another user", signed, _headers(b, make_token(creds.app_id, b))),
        ("another application", signed2, _headers(b, make_token(other_app.app_id, b))),
        ("another application with A's token", signed2, _headers(a, owned["a_token"])),
    ]


def test_no_one_else_reaches_an_owned_object(signed, db, owned, intruders):
    objects = {op: row for op, row in MATRIX.items() if isinstance(row, tuple)}
    refused = []
    for op_id, (method, template, body, *scoped) in objects.items():
        path = template.format(**owned["ids"])
        for who, client, headers in intruders:
            kwargs = {}
            if body == "upload":
                headers = {**headers, "X-Upload-Token": owned["upload_token"]}
                kwargs["files"] = {"file": ("f.bin", CONTENT, "application/octet-stream")}
            elif isinstance(body, str):
                kwargs["json"] = owned["bodies"][body]
            elif body is not None:
                kwargs["json"] = body
            before = digest(db)
            answer = client.request(method, path, headers=headers, **kwargs)
            changed = sorted(name for name, value in digest(db).items() if value != before[name])
            if scoped and answer.status_code == 200:
                pass  # nothing of A's was found among the caller's own (unchanged: checked below)
            elif not 400 <= answer.status_code < 500:
                refused.append((op_id, who, answer.status_code, answer.text[:160]))
            if changed:
                refused.append((op_id, who, "changed", changed))
    assert not refused, "\n".join(map(repr, refused))
    assert len(objects) * len(intruders) >= 50
    # the control: the owner's own request goes through, and the digest sees it
    method, template, body = MATRIX["adjustProxyUserPoints"]
    before, a = digest(db), owned["ids"]["a"]
    mine = signed.request(method, template.format(a=a), json=body, headers=_headers(a, owned["a_token"]))
    assert mine.status_code == 200 and digest(db) != before


def test_no_other_developer_reaches_an_owned_console_page(client, db, people):  # noqa: F811
    log_in(client, "owner")
    app_id = register(client)
    hooks = f"/console/apps/{app_id}/webhooks"
    added = post(client, hooks, hooks, url="http://127.0.0.1:9/hook", events="resource.published")
    sub_id = int(re.search(r'id="hook-(\d+)"', added.text).group(1))
    log_in(client, "other")
    failures = []
    for endpoint, (method, template) in CONSOLE.items():
        path = template.format(app=app_id, sub=sub_id)
        before = digest(db)
        if method == "GET":
            answer = client.get(path, follow_redirects=False)
        else:  # with a valid CSRF token of the intruder's own session
            answer = post(
                client,
                path,
                "/console",
                name="taken",
                url="http://127.0.0.1:9/x",
                events="resource.published",
            )
        if not 400 <= answer.status_code < 500:
            failures.append((endpoint, answer.status_code))
        if digest(db) != before:
            failures.append((endpoint, "changed"))
    assert not failures, failures
