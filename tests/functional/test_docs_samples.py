"""The code samples of the docs run against a live embedded server, as a reader would run them.

A sample is a fenced block preceded by `<!-- sample: NAME -->` in a page of docs/ or in the
README. Its
placeholders (the demo credentials, the server's address, an auth code) are replaced by live
values; nothing else is changed. Every tagged sample has a test here."""

from __future__ import annotations

import datetime as dt
import json
import re
import select
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from models.identity.oauth import create_auth_code
from models.webhooks import service as webhooks
from models.webhooks.events import emit
from modhub import demo
from modhub.app import build_platform, create_app
from modhub.core.webhook_signing import encode_body, sign, signature_header
from modhub.settings import Settings, finalize
from tests.functional.identity.live import serve
from workers import embedded

pytestmark = pytest.mark.sqlite

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = re.compile(r"<!-- sample: ([\w-]+) -->\n```(\w+)\n(.*?)\n```", re.S)
TESTED = {
    "readme-sign",
    "sign-python",
    "sign-curl",
    "sign-js",
    "token-exchange",
    "webhook-verify",
    "webhook-receiver",
}
REDIRECT = "http://127.0.0.1/demo/callback"


def samples() -> dict[str, str]:
    """Every tagged sample of the docs by name."""
    found: dict[str, str] = {}
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for name, _lang, code in SAMPLE.findall(page.read_text(encoding="utf-8")):
            assert name not in found, f"sample {name} is tagged twice"
            found[name] = code
    return found


SAMPLES = samples()


@pytest.fixture(scope="module")
def live(tmp_path_factory, sqlite_template):
    """The embedded server (SQLite, in-process quotas) on a free port, with the demo app."""
    folder = tmp_path_factory.mktemp("docs-samples")
    shutil.copyfile(sqlite_template, folder / "m.db")
    settings = finalize(Settings(data_dir=folder, database_url=f"sqlite:///{folder}/m.db"))
    platform = build_platform(settings)
    creds = demo.ensure_demo_app(platform, redirect_uri=REDIRECT)
    app = create_app(settings, db=platform.db, quota=platform.quota)
    with serve(app) as base:
        yield base, creds, platform
    platform.db.engine.dispose()


def filled(name: str, base: str, creds: dict, **more: str) -> str:
    """The sample's code with the placeholders replaced by live values."""
    code = (
        SAMPLES[name]
        .replace("your-api-key", creds["apiKey"])
        .replace("your-secret-key", creds["secretKey"])
        .replace("http://127.0.0.1:8000", base)
    )
    for old, new in more.items():
        assert old in code, f"{name} has no {old!r}"
        code = code.replace(old, new)
    return code


def run(args: list[str], **kwargs) -> dict:
    """Run a sample to its end; its output is one JSON document."""
    done = subprocess.run(args, capture_output=True, text=True, timeout=30, check=False, **kwargs)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_sample_is_tested():
    assert set(SAMPLES) == TESTED


def test_the_readme_signs_in_five_lines(live):
    base, creds, _ = live
    sample = filled("readme-sign", base, creds)
    code = [line for line in sample.splitlines() if line and not line.startswith(("import", "from"))]
    assert len(code) == 5
    body = run([sys.executable, "-c", sample])
    assert body["code"] == 0 and isinstance(body["data"], list)


def test_sign_in_python(live):
    base, creds, _ = live
    body = run([sys.executable, "-c", filled("sign-python", base, creds)])
    assert body["code"] == 0 and body["ok"] is True and isinstance(body["data"], list)


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("openssl")), reason="curl, openssl")
def test_sign_with_curl(live):
    base, creds, _ = live
    body = run(["bash", "-c", filled("sign-curl", base, creds)])
    assert body["code"] == 0 and isinstance(body["data"], list)


@pytest.mark.skipif(not shutil.which("node"), reason="node is not installed")
def test_sign_in_javascript(live):
    base, creds, _ = live
    body = run(["node", "-e", filled("sign-js", base, creds)])
    assert body["code"] == 0 and isinstance(body["data"], list)


def test_token_exchange(live):
    base, creds, platform = live
    with platform.db.session() as session, session.begin():
        code = create_auth_code(
            session,
            app_id=creds["appId"],
            user_id=creds["demoUserId"],
            redirect_uri=REDIRECT,
            now=dt.datetime.now(dt.UTC),
        )
    sample = filled(
        "token-exchange",
        base,
        creds,
        **{'AUTH_CODE = "the-auth-code"': f'AUTH_CODE = "{code}"'},
    )
    token = run([sys.executable, "-c", sample])
    assert str(token["userId"]) == str(creds["demoUserId"]) and token["accessToken"]
    # the code is spent: the same sample again is refused with 200911
    again = subprocess.run(
        [sys.executable, "-c", sample], capture_output=True, text=True, timeout=30, check=False
    )
    assert again.returncode != 0 and "HTTP Error 400" in again.stderr


def test_webhook_verification_accepts_what_the_server_signs():
    namespace: dict = {}
    exec(SAMPLES["webhook-verify"], namespace)  # noqa: S102 - the docs' own sample
    verify = namespace["verify_signature"]
    body = encode_body("resource.published", {"postId": 1, "title": "Trees"})
    ts = str(int(time.time() * 1000))
    assert verify("whsec_new", ts, body, sign("whsec_new", ts, body))
    assert verify("whsec_old", ts, body, signature_header(["whsec_new", "whsec_old"], ts, body))
    assert not verify("whsec_new", ts, body + b" ", sign("whsec_new", ts, body))
    assert not verify("whsec_other", ts, body, sign("whsec_new", ts, body))
    stale = str(int(time.time() * 1000) - 301_000)
    assert not verify("whsec_new", stale, body, sign("whsec_new", stale, body))
    assert not verify("whsec_new", "not-a-time", body, sign("whsec_new", "not-a-time", body))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(url: str, body: bytes, headers: dict) -> int:
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as err:
        return err.code


def _line(proc, timeout: float) -> str:
    """The next line the process prints, waiting at most `timeout` seconds."""
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, "the receiver printed nothing"
    return proc.stdout.readline().strip()


def test_webhook_receiver_gets_a_live_delivery(tmp_path, sqlite_template):
    """The receiver sample, with the standalone check sample in place of the modhub import,
    receives a real delivery from the embedded server's relay, acknowledges a repeat of the same
    X-Webhook-Id without processing it twice, and refuses a wrong signature."""
    shutil.copyfile(sqlite_template, tmp_path / "m.db")
    settings = finalize(
        Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/m.db", webhook_allow_private=True)
    )
    platform = build_platform(settings)
    port = _free_port()
    with platform.db.session() as session, session.begin():
        app_id = demo.ensure_demo_app(platform)["appId"]
        _, secret = webhooks.create(
            session, platform.secrets, app_id=app_id, url=f"http://127.0.0.1:{port}/", allow_private=True
        )
    code = (
        SAMPLES["webhook-receiver"]
        .replace(
            "from modhub.core.webhook_signing import verify_signature  # or the function above",
            SAMPLES["webhook-verify"],
        )
        .replace('"whsec_..."', f'"{secret}"')
        .replace('("0.0.0.0", 8080)', f'("127.0.0.1", {port})')
    )
    assert "modhub" not in code.split("SECRET =")[0]  # the standalone check is the one running
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    relay = embedded.start(platform)
    try:
        deadline = time.monotonic() + 10
        while True:  # waiting for the receiver process to listen
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
                time.sleep(0.02)
        with platform.db.session() as session, session.begin():
            event_id = emit(
                session, kind="resource.published", data={"postId": 7, "title": "Better Trees"}
            ).event_id
        assert _line(proc, 10) == "resource.published 7 Better Trees"  # delivered by the relay
        # a retry of the same event (what a redelivery sends): acknowledged, not processed again
        body = encode_body("resource.published", {"postId": 7, "title": "Better Trees"})
        ts = str(int(time.time() * 1000))
        headers = {
            "Content-Type": "application/json",
            "X-Webhook-Event": "resource.published",
            "X-Webhook-Id": event_id,
            "X-Webhook-Timestamp": ts,
            "X-Webhook-Signature": signature_header([secret], ts, body),
        }
        url = f"http://127.0.0.1:{port}/"
        assert _post(url, body, headers) == 204
        assert _post(url, body, {**headers, "X-Webhook-Signature": "0" * 64}) == 401
        stale = str(int(time.time() * 1000) - 600_000)
        replayed = {**headers, "X-Webhook-Timestamp": stale, "X-Webhook-Signature": sign(secret, stale, body)}
        assert _post(url, body, replayed) == 401
    finally:
        relay.stop()
        platform.db.engine.dispose()
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert out.strip() == ""  # the repeated id was not processed a second time
