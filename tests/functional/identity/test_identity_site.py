"""The site pages through the HTTP stack: log-in, consent, pairing page, SSO landing, CSRF."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from models.identity import accounts
from tests.helpers.identity import code_of
from tests.support import SignedClient

REDIRECT = "https://launcher.example/cb?keep=1"
PASSWORD = "s3cret-pass"


@pytest.fixture()
def settings(settings):
    """Plain-HTTP site URL, so the test client sends the session cookie back."""
    return settings.replace(site_url="http://testserver")


@pytest.fixture()
def oauth_app(make_app):
    return make_app(
        name="Launcher <b>X</b>", permissions=["user:proxy"], redirect_uris=[REDIRECT], scopes=["post:write"]
    )


@pytest.fixture()
def member(make_user):
    return make_user(
        username="steve", login_name="steve_login", password_hash=accounts.hash_password(PASSWORD)
    )


def csrf(response) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', response.text).group(1)


def log_in(client, login="steve", password=PASSWORD, next_=None):
    page = client.get("/login")
    form = {"csrf_token": csrf(page), "login": login, "password": password}
    if next_:
        form["next"] = next_
    return client.post("/login", data=form, follow_redirects=False)


def authorize_url(app_id, redirect_uri=REDIRECT, state="xyz"):
    from urllib.parse import urlencode

    return "/openapi-authorize?" + urlencode({"app_id": app_id, "redirect_uri": redirect_uri, "state": state})


def test_login_with_username_or_login_name(client, member):
    response = log_in(client)
    assert response.status_code == 302 and response.headers["location"] == "/"
    assert "Logged in as <strong>steve</strong>" in client.get("/").text
    client.cookies.clear()
    assert log_in(client, login="steve_login").status_code == 302


def test_wrong_password_or_unknown_login(client, member):
    for login, password in [("steve", "nope"), ("nobody", PASSWORD)]:
        response = log_in(client, login, password)
        assert response.status_code == 401 and "Wrong login or password" in response.text
    assert "not logged in" in client.get("/").text


def test_posts_need_the_csrf_token(client, member):
    client.get("/login")
    response = client.post("/login", data={"login": "steve", "password": PASSWORD, "csrf_token": "forged"})
    assert response.status_code == 400 and "did not come from this site" in response.text
    assert "not logged in" in client.get("/").text


def test_login_never_redirects_off_site(client, member):
    for target in ["https://evil.example/", "//evil.example/", "/\\evil.example"]:
        client.cookies.clear()
        assert log_in(client, next_=target).headers["location"] == "/"


def test_consent_flow_issues_a_code_the_api_accepts(client, checker, oauth_app, member):
    first = client.get(authorize_url(oauth_app.app_id), follow_redirects=False)
    assert first.status_code == 302 and first.headers["location"].startswith("/login?next=")
    back = log_in(client, next_=parse_qs(urlsplit(first.headers["location"]).query)["next"][0])
    page = client.get(back.headers["location"])
    assert page.status_code == 200 and "Launcher &lt;b&gt;X&lt;/b&gt;" in page.text
    assert page.headers["X-Frame-Options"] == "DENY"
    response = client.post(
        "/openapi-authorize",
        follow_redirects=False,
        data={
            "csrf_token": csrf(page),
            "app_id": oauth_app.app_id,
            "redirect_uri": REDIRECT,
            "state": "xyz",
            "decision": "allow",
        },
    )
    target = urlsplit(response.headers["location"])
    query = parse_qs(target.query)
    assert f"{target.scheme}://{target.netloc}{target.path}" == "https://launcher.example/cb"
    assert query["keep"] == ["1"] and query["state"] == ["xyz"]
    assert re.fullmatch(r"[A-Z0-9]{6}", query["auth_code"][0])
    assert query["user_id"] == [str(member)]  # extension: the consenting user, for a third-party back end
    api = SignedClient(client, oauth_app, checker)
    token = api.post("/openapi/v2/oauth/token", json={"authCode": query["auth_code"][0]})
    assert token.json()["data"]["userId"] == str(member) and token.json()["data"]["scopes"] == ["post:write"]


def test_deny_redirects_with_access_denied(client, oauth_app, member):
    log_in(client)
    page = client.get(authorize_url(oauth_app.app_id))
    response = client.post(
        "/openapi-authorize",
        follow_redirects=False,
        data={
            "csrf_token": csrf(page),
            "app_id": oauth_app.app_id,
            "redirect_uri": REDIRECT,
            "decision": "deny",
        },
    )
    query = parse_qs(urlsplit(response.headers["location"]).query)
    assert query["error"] == ["access_denied"] and "auth_code" not in query


def test_consent_page_refuses_bad_requests(client, oauth_app, make_app, member):
    log_in(client)
    plain = make_app(permissions=[], redirect_uris=[REDIRECT])
    cases = [
        (authorize_url(oauth_app.app_id, "https://evil.example/cb"), 400),
        (authorize_url(999999999), 404),
        (authorize_url(plain.app_id), 403),
        ("/openapi-authorize?app_id=abc&redirect_uri=x", 400),
        ("/openapi-authorize", 400),
    ]
    for url, status in cases:
        response = client.get(url, follow_redirects=False)
        assert response.status_code == status, url
        assert "location" not in response.headers and "Something went wrong" in response.text


def test_pairing_page_makes_a_code_the_api_redeems(client, checker, creds, member):
    assert client.get("/pairing", follow_redirects=False).status_code == 302
    log_in(client)
    page = client.get("/pairing")
    made = client.post("/pairing", data={"csrf_token": csrf(page)})
    code = re.search(r'id="code">([A-Z0-9]{8})<', made.text).group(1)
    redeemed = SignedClient(client, creds, checker).post(
        "/openapi/v2/pairing/redeem", json={"pairingCode": code}
    )
    assert redeemed.json()["data"]["userId"] == str(member)


def test_sso_ticket_logs_in_once(client, checker, creds, member, make_token):
    api = SignedClient(client, creds, checker)
    ticket = api.post(
        "/openapi/v2/sso/exchange", headers={"X-Proxy-Access-Token": make_token(creds.app_id, member)}
    ).json()["data"]["ticket"]
    landing = client.get(f"/pairing?sso_ticket={ticket}&x=1", follow_redirects=False)
    assert landing.status_code == 302 and landing.headers["location"] == "/pairing?x=1"
    assert "Logged in as <strong>steve</strong>" in client.get("/pairing").text
    client.cookies.clear()
    again = client.get(f"/?sso_ticket={ticket}")
    assert again.status_code == 400 and 'id="error-code">200914<' in again.text


def test_logout(client, member):
    log_in(client)
    home = client.get("/")
    client.post("/logout", data={"csrf_token": csrf(home)})
    assert "not logged in" in client.get("/").text


def test_unknown_site_paths_keep_the_envelope_404(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404 and code_of(response) == 200401


def test_five_failed_logins_lock_the_login_name(client, member, make_user):
    make_user(username="alex", password_hash=accounts.hash_password(PASSWORD))
    for _ in range(5):
        assert log_in(client, password="guess").status_code == 401
    locked = log_in(client)
    assert locked.status_code == 429 and "Too many failed log-ins" in locked.text
    assert log_in(client, login="STEVE ", password="guess").status_code == 429
    assert log_in(client, login="alex").status_code == 302


def test_consent_posted_after_logout_returns_to_the_consent_page(client, oauth_app, member):
    log_in(client)
    page = client.get(authorize_url(oauth_app.app_id))
    token = csrf(page)
    client.post("/logout", data={"csrf_token": token})
    response = client.post(
        "/openapi-authorize",
        follow_redirects=False,
        data={
            "csrf_token": csrf(client.get("/login")),
            "app_id": oauth_app.app_id,
            "redirect_uri": REDIRECT,
            "state": "s",
            "decision": "allow",
        },
    )
    back = parse_qs(urlsplit(response.headers["location"]).query)["next"][0]
    assert urlsplit(back).path == "/openapi-authorize"
    assert parse_qs(urlsplit(back).query) == {
        "app_id": [str(oauth_app.app_id)],
        "redirect_uri": [REDIRECT],
        "state": ["s"],
    }
