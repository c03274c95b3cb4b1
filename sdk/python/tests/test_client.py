"""Signing, errors, retries, pages and the ETag cache against the live server."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time

import httpx
import pytest
from modhub_client import AuthError, Client, InvalidRequest, NotFound, ProxyUser, RateLimited, RetryPolicy
from modhub_client._core import Call, Core
from modhub_client.signing import MonotonicClock, sign, string_to_sign


def test_signature_is_the_contracts_string_to_sign():
    expected = base64.b64encode(
        hmac.new(b"s3cret", b"GET\n/openapi/v2/mods/search\n1700000000000", hashlib.sha256).digest()
    ).decode()
    assert (
        string_to_sign("get", "/openapi/v2/mods/search", "1700000000000")
        == "GET\n/openapi/v2/mods/search\n1700000000000"
    )
    assert sign("s3cret", "get", "/openapi/v2/mods/search", "1700000000000") == expected


def test_timestamps_are_strictly_increasing_milliseconds():
    clock = MonotonicClock()
    stamps = [int(clock()) for _ in range(2000)]
    assert all(b > a for a, b in zip(stamps, stamps[1:], strict=False))
    assert len(str(stamps[0])) == 13 and abs(stamps[0] - time.time() * 1000) < 5000


def test_signed_round_trip_with_a_query_string(client):
    seen: list[httpx.Request] = []
    client.http.event_hooks["request"].append(seen.append)
    page = client.search("craft", page_size=5, sectionCode="minecraft")
    assert page["pageSize"] == 5 and isinstance(page["list"], list)
    request = seen[-1]
    assert request.url.query  # the query is sent, and not signed
    ts = request.headers["X-Timestamp"]
    assert request.headers["X-Signature"] == sign(
        client.core.credentials.secret_key, "GET", "/openapi/v2/mods/search", ts
    )


def test_a_wrong_secret_is_an_auth_error_with_code_msg_trace_id_and_status(server):
    with Client(server.base_url, server.api_key, "not-the-secret") as bad:
        with pytest.raises(AuthError) as caught:
            bad.search()
    error = caught.value
    assert (error.status, error.code) == (401, 200208)
    assert error.msg and error.trace_id and error.trace_id in str(error)


def test_an_unknown_record_is_not_found(client):
    with pytest.raises(NotFound) as caught:
        client.get_mod(9_000_000_000)
    assert (caught.value.status, caught.value.code) == (404, 200404)


def test_proxy_user_headers_on_a_p_operation(client, catalogue):
    path = "/openapi/v2/community/notifications/unread-count"
    with pytest.raises(AuthError) as caught:
        client.request("GET", path)
    assert caught.value.code == 200209  # X-Proxy-User-Id is required here
    author = client.get_mod(next(iter(catalogue.files)))["authors"][0]["userId"]
    assert client.request("GET", path, proxy_user=ProxyUser(author)) is not None


def test_quota_exhaustion_raises_rate_limited_without_waiting_past_the_limit(server):
    app = server.create_app("sdk quota test", "--per-minute", "2")
    with Client(
        server.base_url,
        app["apiKey"],
        app["secretKey"],
        retry=RetryPolicy(attempts=3, backoff=0.01, max_wait=0.5),
    ) as limited:
        with pytest.raises(RateLimited) as caught:
            for _ in range(5):  # 2 a minute: the third call, or the fifth when a minute began between
                started = time.monotonic()
                limited.search(page_size=1)
    assert (caught.value.status, caught.value.code) == (429, 200101)
    assert caught.value.retry_after and caught.value.retry_after > 0
    assert time.monotonic() - started < 1  # Retry-After (to the next minute) exceeds max_wait


def test_retry_policy_honours_retry_after_and_spares_unkeyed_writes():
    core = Core("http://x", "k", "s", retry=RetryPolicy(attempts=3, backoff=0.5, max_wait=10))
    busy = httpx.Response(503, headers={"Retry-After": "2"})
    assert core.delay(Call("GET", "/a"), 0, busy) == 2.0
    assert core.delay(Call("GET", "/a"), 1, httpx.Response(429)) == 1.0  # backoff 0.5 * 2
    assert core.delay(Call("GET", "/a"), 2, busy) is None  # attempts used up
    assert core.delay(Call("POST", "/w"), 0, busy) is None  # a write without Idempotency-Key
    assert core.delay(Call("POST", "/w", headers={"Idempotency-Key": "k1"}), 0, busy) == 2.0
    assert core.delay(Call("POST", "/batch", safe=True), 0, busy) == 2.0
    assert core.delay(Call("GET", "/a"), 0, httpx.Response(429, headers={"Retry-After": "60"})) is None


def test_page_iterator_walks_every_search_result(client):
    first = client.search(page_size=7)
    ids = [mod["postId"] for mod in client.iter_search(page_size=7)]
    assert len(ids) == first["total"] == len(set(ids)) and first["total"] > 7


def test_comment_iterator(client, catalogue):
    post = next(p for p in catalogue.files if (client.get_mod(p).get("commentCount") or 0) > 2)
    count = client.get_mod(post)["commentCount"]
    comments = list(client.iter_comments(post, page_size=2))
    assert len({c["commentId"] if "commentId" in c else c.get("id") for c in comments}) == len(comments) > 2
    assert len(comments) <= count


def test_etag_cache_answers_304_from_the_cache(server, catalogue):
    statuses: list[int] = []
    with server.client(etag_cache=True) as cached:
        cached.http.event_hooks["response"].append(lambda r: statuses.append(r.status_code))
        post = next(iter(catalogue.files))
        first = cached.get_mod(post)
        again = cached.get_mod(post)
    assert statuses == [200, 304] and again == first


def test_the_signed_path_is_the_path_on_the_wire(client):
    seen: list[httpx.Request] = []
    client.http.event_hooks["request"].append(seen.append)
    with pytest.raises(InvalidRequest) as caught:  # past the signature check: validation refuses it
        client.request("GET", "/openapi/v2/games/no such game é")
    assert caught.value.code == 200301  # not 200208: the signature covered the percent-encoded path
    assert seen[-1].url.raw_path == b"/openapi/v2/games/no%20such%20game%20%C3%A9"
