"""The deployment kit's HAProxy configuration, run as it is shipped (deploy/proxy/haproxy.cfg): only
its certificate path, its two bind addresses and its API hosts' addresses are replaced by this
machine's. Through it: plain HTTP is sent to HTTPS; JSON and YAML arrive gzip-compressed to a client
that accepts gzip, the same bytes once decompressed, their weak ETags kept so that revalidation
still answers 304; the site's HTML pages are never compressed (BREACH); a PNG passes as it is."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import requests

from models.identity import applications
from tests.helpers.files import _free_port
from tests.helpers.tls import self_signed
from tests.signing import Creds

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("haproxy") is None, reason="Debian's haproxy is not installed"),
]

KIT = Path(__file__).resolve().parents[3] / "deploy" / "proxy" / "haproxy.cfg"


def _kit_config(tmp_path: Path, api: str) -> tuple[str, int, int]:
    """The kit's configuration with this machine's certificate, ports and API host."""
    cert, key = self_signed(tmp_path, "localhost")
    pem = tmp_path / "modhub.pem"
    pem.write_bytes(cert.read_bytes() + key.read_bytes())
    tls, plain = _free_port(), _free_port()
    text = KIT.read_text()
    replaced = {
        "bind :443 ssl crt /etc/haproxy/certs/modhub.pem": f"bind 127.0.0.1:{tls} ssl crt {pem}",
        "bind :80\n": f"bind 127.0.0.1:{plain}\n",
        "10.0.0.11:8000": api,
        "10.0.0.12:8000": api,
    }
    for old, new in replaced.items():
        assert old in text, f"the kit's haproxy.cfg no longer has {old!r}: update this test"
        text = text.replace(old, new)
    config = tmp_path / "haproxy.cfg"
    config.write_text(text)
    return str(config), tls, plain


@pytest.fixture()
def proxy(site, tmp_path):
    """HAProxy on the kit's configuration in front of a live server: (https base, http base,
    certificate, platform)."""
    base, platform = site
    config, tls, plain = _kit_config(tmp_path, base.removeprefix("http://"))
    check = subprocess.run(["haproxy", "-c", "-q", "-f", config], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    log = tmp_path / "haproxy.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(["haproxy", "-f", config], stdout=out, stderr=subprocess.STDOUT)
    https, cert = f"https://localhost:{tls}", tmp_path / "cert.pem"
    try:
        end = time.monotonic() + 20
        while True:
            assert proc.poll() is None, log.read_text(errors="replace")
            try:
                if requests.get(f"{https}/healthz", verify=cert, timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                if time.monotonic() > end:
                    raise
            time.sleep(0.1)
        yield https, f"http://127.0.0.1:{plain}", cert, platform
    finally:
        proc.terminate()
        proc.wait(10)


def _wire(url: str, cert, headers: dict | None = None) -> tuple[requests.Response, bytes]:
    """The response and its body as it crossed the wire (not decompressed)."""
    r = requests.get(url, headers=headers or {}, verify=cert, timeout=30, stream=True)
    return r, r.raw.read(decode_content=False)


def test_the_kits_proxy_compresses_json_and_yaml_keeps_etags_and_leaves_html_alone(proxy, site):
    https, http, cert, platform = proxy
    direct = site[0]
    gz = {"Accept-Encoding": "gzip"}

    moved = requests.get(f"{http}/openapi/v2/games", allow_redirects=False, timeout=10)
    assert moved.status_code == 308 and moved.headers["location"].startswith("https://")

    for path in ("/openapi/v2/meta/openapi.json", "/openapi/v2/meta/openapi.yaml"):
        original = requests.get(direct + path, timeout=30).content
        r, sent = _wire(https + path, cert, gz)
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip", r.headers
        assert "accept-encoding" in r.headers["vary"].lower()
        assert gzip.decompress(sent) == original
        assert len(sent) < 0.4 * len(original), (path, len(sent), len(original))
        plain, sent = _wire(https + path, cert, {"Accept-Encoding": "identity"})  # no gzip asked
        assert "content-encoding" not in plain.headers and sent == original

    with platform.db.session() as session, session.begin():
        made = applications.create(session, platform.secrets, name="Behind the kit", approve=True)
    creds = Creds(made.app_id, made.api_key, made.secret_key)
    path = "/openapi/v2/games"
    r, sent = _wire(https + path, cert, {**gz, **creds.headers("GET", path)})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert r.headers["etag"].startswith('W/"')  # weak: the compressed answer keeps it
    assert json.loads(gzip.decompress(sent))["code"] == 0
    again = requests.get(
        https + path,
        headers={**gz, **creds.headers("GET", path), "If-None-Match": r.headers["etag"]},
        verify=cert,
        timeout=10,
    )
    assert again.status_code == 304 and again.headers["etag"] == r.headers["etag"]

    page, sent = _wire(f"{https}/login", cert, gz)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "content-encoding" not in page.headers and re.search(rb"<html", sent)

    icon, sent = _wire(f"{https}/openapi/v2/meta/docs/favicon-32x32.png", cert, gz)
    assert icon.status_code == 200 and "content-encoding" not in icon.headers
    assert sent.startswith(b"\x89PNG")
