"""The deployment kit's proxies run as they are shipped (deploy/proxy/haproxy.cfg with Debian's
HAProxy, deploy/proxy/nginx.conf with Debian's nginx): only certificate paths, listening
addresses and the API host's address are replaced by this machine's. Through each, in front of a
live server: JSON and YAML arrive gzip-compressed to a client that accepts gzip (the same bytes
once decompressed) and as they are to one that does not; a signed read keeps its weak ETag and
revalidation answers 304; the site's HTML pages are never compressed (BREACH), its stylesheet is;
a PNG passes as it is. HAProxy sends plain HTTP to HTTPS; nginx keeps /metrics for the monitoring network.
An upload and a download of 8 MiB cross each whole, and nginx streams both: neither body is
buffered to a temporary file (its warnings are logged)."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from models.catalog.tables import RunPlatform
from models.identity import applications
from models.identity.tables import User
from tests.helpers.catalog import Catalogue
from tests.helpers.files import _free_port
from tests.helpers.identity import add_proxy_token
from tests.helpers.tls import self_signed
from tests.signing import Creds

pytestmark = pytest.mark.slow

KIT = Path(__file__).resolve().parents[3] / "deploy" / "proxy"


def _replaced(text: str, replaced: dict[str, str], name: str) -> str:
    for old, new in replaced.items():
        assert old in text, f"the kit's {name} no longer has {old!r}: update this test"
        text = text.replace(old, new)
    return text


def _haproxy(tmp: Path, api: str, cert: Path, key: Path) -> tuple[list[str], list[str], dict]:
    """(check command, run command, addresses) of the kit's HAProxy configuration."""
    pem = tmp / "modhub.pem"
    pem.write_bytes(cert.read_bytes() + key.read_bytes())
    tls, plain = _free_port(), _free_port()
    text = _replaced(
        (KIT / "haproxy.cfg").read_text(),
        {
            "bind :443 ssl crt /etc/haproxy/certs/modhub.pem": f"bind 127.0.0.1:{tls} ssl crt {pem}",
            "bind :80\n": f"bind 127.0.0.1:{plain}\n",
            "10.0.0.11:8000": api,
            "10.0.0.12:8000": api,
        },
        "haproxy.cfg",
    )
    config = tmp / "haproxy.cfg"
    config.write_text(text)
    run = ["haproxy", "-f", str(config)]
    return [*run, "-c", "-q"], run, {"tls": tls, "plain": plain}


def _nginx(tmp: Path, api: str, cert: Path, key: Path) -> tuple[list[str], list[str], dict]:
    """(check command, run command, addresses) of the kit's nginx server, included by a minimal
    main configuration as /etc/nginx/nginx.conf includes conf.d/*.conf."""
    tls = _free_port()
    site = _replaced(
        (KIT / "nginx.conf").read_text(),
        {
            "listen 443 ssl http2;": f"listen 127.0.0.1:{tls} ssl http2;",
            "/etc/ssl/modhub/fullchain.pem": str(cert),
            "/etc/ssl/modhub/privkey.pem": str(key),
            "server 127.0.0.1:8000;": f"server {api};",
        },
        "nginx.conf",
    )
    (tmp / "modhub.conf").write_text(site)
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = "".join(f"    {kind}_temp_path {tmp / kind};\n" for kind in kinds)
    main = tmp / "nginx-main.conf"
    main.write_text(
        f"daemon off;\nuser root;\npid {tmp / 'nginx.pid'};\nerror_log stderr warn;\nevents {{}}\n"
        f"http {{\n    access_log off;\n{temp}    include {tmp / 'modhub.conf'};\n}}\n"
    )
    run = ["nginx", "-p", str(tmp), "-e", "stderr", "-c", str(main)]
    return [*run, "-t", "-q"], run, {"tls": tls, "plain": None}


PROXIES = {"haproxy": _haproxy, "nginx": _nginx}


@pytest.fixture(params=sorted(PROXIES))
def proxy(request, site, tmp_path) -> Iterator[dict]:
    """A kit proxy in front of a live server: its name, https and plain bases, certificate, platform."""
    name = request.param
    if shutil.which(name) is None:
        pytest.skip(f"Debian's {name} is not installed")
    base, platform = site
    cert, key = self_signed(tmp_path, "localhost")
    check, run, ports = PROXIES[name](tmp_path, base.removeprefix("http://"), cert, key)
    checked = subprocess.run(check, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    log = tmp_path / f"{name}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(run, stdout=out, stderr=subprocess.STDOUT)
    https = f"https://localhost:{ports['tls']}"
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
        plain = ports["plain"] and f"http://127.0.0.1:{ports['plain']}"
        yield dict(name=name, https=https, plain=plain, cert=cert, direct=base, platform=platform, log=log)
    finally:
        proc.terminate()
        proc.wait(10)


def _wire(url: str, cert, headers: dict) -> tuple[requests.Response, bytes]:
    """The response and its body as it crossed the wire (not decompressed)."""
    r = requests.get(url, headers=headers, verify=cert, timeout=30, stream=True)
    return r, r.raw.read(decode_content=False)


def test_the_kits_proxies_compress_json_and_yaml_keep_etags_and_leave_html_alone(proxy):
    https, cert, platform = proxy["https"], proxy["cert"], proxy["platform"]
    gz, identity = {"Accept-Encoding": "gzip"}, {"Accept-Encoding": "identity"}

    for path in ("/openapi/v2/meta/openapi.json", "/openapi/v2/meta/openapi.yaml"):
        original = requests.get(proxy["direct"] + path, timeout=30).content
        r, sent = _wire(https + path, cert, gz)
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip", r.headers
        assert "accept-encoding" in r.headers["vary"].lower()
        assert gzip.decompress(sent) == original
        assert len(sent) < 0.4 * len(original), (path, len(sent), len(original))
        plain, sent = _wire(https + path, cert, identity)
        assert "content-encoding" not in plain.headers and sent == original

    with platform.db.session() as session, session.begin():
        made = applications.create(session, platform.secrets, name=f"Behind {proxy['name']}", approve=True)
        for n in range(12):  # a list past nginx's gzip_min_length (1,024 bytes)
            session.add(RunPlatform(code=f"loader-{n}", name=f"Loader {n}", description="A mod loader. " * 4))
    creds = Creds(made.app_id, made.api_key, made.secret_key)
    path = "/openapi/v2/mod-loaders"
    direct = requests.get(proxy["direct"] + path, headers=creds.headers("GET", path), timeout=10)
    assert int(direct.headers["content-length"]) > 1024
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
    assert "content-encoding" not in page.headers and b"<html" in sent

    style, sent = _wire(f"{https}/site-static/site.css", cert, gz)
    assert style.headers["content-encoding"] == "gzip" and gzip.decompress(sent).strip()

    icon, sent = _wire(f"{https}/openapi/v2/meta/docs/favicon-32x32.png", cert, gz)
    assert icon.status_code == 200 and "content-encoding" not in icon.headers
    assert sent.startswith(b"\x89PNG")

    if proxy["plain"]:  # HAProxy: plain HTTP is sent to HTTPS
        moved = requests.get(f"{proxy['plain']}/openapi/v2/games", allow_redirects=False, timeout=10)
        assert moved.status_code == 308 and moved.headers["location"].startswith("https://")
    if proxy["name"] == "nginx":  # /metrics for the monitoring network (10.0.0.0/8) only
        assert requests.get(f"{https}/metrics", verify=cert, timeout=10).status_code == 403
        assert requests.get(proxy["direct"] + "/metrics", timeout=10).status_code == 200


def _author(platform) -> tuple[Creds, dict]:
    """An application with the user:proxy permission, and a user's proxy headers for it."""
    with platform.db.session() as session, session.begin():
        made = applications.create(
            session, platform.secrets, name="Streams", approve=True, permissions=["user:proxy"]
        )
        user = User(username=f"author-{uuid.uuid4().hex[:8]}")
        session.add(user)
        session.flush()
        user_id = user.id
        text = add_proxy_token(session, made.app_id, user_id, hours=24 * 365)
    creds = Creds(made.app_id, made.api_key, made.secret_key)
    return creds, {"X-Proxy-User-Id": str(user_id), "X-Proxy-Access-Token": text}


def test_the_kits_proxies_stream_uploads_and_downloads_whole(proxy):
    https, cert, platform = proxy["https"], proxy["cert"], proxy["platform"]
    content = os.urandom(8 * 1024 * 1024)  # past nginx's buffers (client_body_buffer_size 16k)
    digest = hashlib.sha256(content).hexdigest()
    creds, user = _author(platform)

    cat = Catalogue(platform.db)
    cat.section()
    cat.platform()
    post = cat.post()
    fid = cat.stored_file(platform.storage, post, content, file_name="big-1.0.jar")
    path = f"/openapi/v2/mods/{post}/files/{fid}/download-file"
    got = requests.get(https + path, headers=creds.headers("GET", path), verify=cert, timeout=60)
    assert got.status_code == 200, got.text[:500]
    assert len(got.content) == len(content) and hashlib.sha256(got.content).hexdigest() == digest

    path = "/openapi/v2/draft-files"
    up = requests.post(
        https + path,
        files={"file": ("big.bin", content, "application/octet-stream")},
        headers={**creds.headers("POST", path), **user},
        verify=cert,
        timeout=60,
    )
    assert up.status_code == 200 and up.json()["code"] == 0, up.text[:500]
    assert up.json()["data"]["size"] == len(content) and up.json()["data"]["sha256"] == digest

    if proxy["name"] == "nginx":  # proxy_request_buffering off, proxy_buffering off
        log = proxy["log"].read_text(errors="replace")
        assert "buffered to a temporary file" not in log, log
