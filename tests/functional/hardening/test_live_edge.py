"""The edge probes against a real uvicorn process on the embedded default (what QA ran)."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest

from modhub.migrate import upgrade
from modhub.settings import Settings, finalize
from tests.functional.identity.live import serve_processes


def _raw(base: str, path: str, headers: dict) -> tuple[int, dict, dict]:
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    conn.request("GET", path, headers=headers)  # sent as written: `//x` stays a path
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return (
        response.status,
        {k.lower(): v for k, v in response.getheaders()},
        (json.loads(body) if body else {}),
    )


@pytest.mark.slow  # server processes
def test_double_slash_big_headers_and_host_over_uvicorn(tmp_path):
    settings = finalize(Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/m.db"))
    upgrade(settings.database_url)
    env = {
        "MODHUB_DATA_DIR": str(tmp_path),
        "MODHUB_DATABASE_URL": settings.database_url,
        "MODHUB_ENCRYPTION_KEY": settings.encryption_key,
        "MODHUB_REDIS_URL": "",
        "MODHUB_MAX_HEADER_BYTES": "8192",
    }
    with serve_processes(1, env) as (base,):
        status, _, body = _raw(base, "//openapi/v2/mods/1", {})
        assert (status, body["code"]) == (404, 200401)
        status, _, body = _raw(base, "/openapi/v2/meta/openapi.json", {"X-Big": "a" * 9000})
        assert (status, body["code"]) == (431, 200308)
        status, headers, _ = _raw(base, "/openapi/v2/mods/1/", {"Host": "evil.example"})
        assert "evil.example" not in headers.get("location", "")
