"""/healthz, /readyz and /metrics through the whole ASGI stack (issue 30, items 1 and 2): outside
the contract (not signed, no quota headers), readiness naming each failing check, metrics in
the Prometheus text format."""

from __future__ import annotations

import json
import time

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from modhub import ops
from modhub.core.redis_store import bounded_client
from modhub.quota import RedisQuota
from tests.support import dead_redis_url


def _samples(body: str) -> dict:
    out = {}
    for family in text_string_to_metric_families(body):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_healthz_answers_without_signature_or_quota(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    assert "x-ratelimit-remaining" not in {k.lower() for k in r.headers}
    assert client.head("/healthz").status_code == 200


def test_readyz_checks_database_schema_redis_and_storage(client):
    r = client.get("/readyz")
    body = r.json()
    assert r.status_code == 200, body
    assert body == {
        "status": "ready",
        "failing": [],
        "checks": {"database": "ok", "schema": "ok", "redis": "ok", "storage": "ok"},
    }


@pytest.mark.parametrize(
    ("revision", "word"), [("0012_search", "behind"), ("9999_from_the_future", "ahead of this code")]
)
def test_readyz_names_a_schema_behind_or_ahead(client, db, revision, word):
    with db.session() as s, s.begin():
        s.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    r = client.get("/readyz")
    assert r.status_code == 503 and r.json()["failing"] == ["schema"]
    assert word in r.json()["checks"]["schema"]


@pytest.mark.parametrize("answers", ["refuses", "never answers"])
def test_readyz_names_redis_when_it_does_not_answer_and_stays_fast(client, platform, settings, db, answers):
    # The client is built as the app builds it (one attempt, no retry, no jittered back-off):
    # the check's thread ends within the Redis timeout, not seconds after the answer.
    with dead_redis_url(answers) as url:
        dead = RedisQuota(bounded_client(url, 0.5))
        with platform.serving(settings=settings.replace(ready_timeout_seconds=1.0), db=db, quota=dead):
            started = time.monotonic()
            r = client.get("/readyz")
            elapsed = time.monotonic() - started
    assert r.status_code == 503 and r.json()["failing"] == ["redis"], r.json()
    assert r.json()["checks"]["database"] == "ok" and elapsed < 1.5


def test_readyz_is_503_while_draining(client):
    ops.DRAINING.set()
    try:
        r = client.get("/readyz")
    finally:
        ops.DRAINING.clear()
    assert r.status_code == 503 and r.json()["status"] == "draining"
    assert client.get("/healthz").status_code == 200  # still alive: in-flight work finishes


def test_metrics_count_requests_by_operation_and_status(client, signed):
    before = _samples(client.get("/metrics").text)
    key = ("modhub_http_requests_total", (("operation", "listFeaturedMods"), ("status", "200")))
    for _ in range(3):
        assert signed.get("/openapi/v2/mods/featured").status_code == 200
    r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain; version=0.0.4")
    after = _samples(r.text)
    assert after[key] - before.get(key, 0) == 3
    hist = ("modhub_http_request_duration_seconds_count", (("operation", "listFeaturedMods"),))
    assert after[hist] - before.get(hist, 0) == 3
    info = [k for k in after if k[0] == "modhub_build_info"]
    assert info and dict(info[0][1])["version"]
    assert ("modhub_webhook_queue_depth", ()) in after
    assert not any(k[1] and dict(k[1]).get("operation") in ("healthz", "metrics") for k in after)


def test_metrics_count_quota_refusals(client, make_app, creds, signed, checker):
    from tests.support import SignedClient

    tight = make_app(per_minute=1)
    one = SignedClient(client, tight, checker)
    before = _samples(client.get("/metrics").text).get(
        ("modhub_quota_refusals_total", (("window", "minute"),)), 0
    )
    one.get("/openapi/v2/mods/featured")
    refused = one.get("/openapi/v2/mods/featured")
    assert refused.status_code == 429
    after = _samples(client.get("/metrics").text)[("modhub_quota_refusals_total", (("window", "minute"),))]
    assert after - before == 1


def test_metrics_token_and_address_list(client, platform, settings, db, quota):
    with platform.serving(settings=settings.replace(metrics_token="s3cret-token"), db=db, quota=quota):
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
        ok = client.get("/metrics", headers={"Authorization": "Bearer s3cret-token"})
        assert ok.status_code == 200 and "modhub_build_info" in ok.text
    with platform.serving(settings=settings.replace(metrics_allow=("10.9.9.0/24",)), db=db, quota=quota):
        r = client.get("/metrics")  # the test client's address is not in the list
        assert r.status_code == 403 and json.loads(r.content)["error"]
