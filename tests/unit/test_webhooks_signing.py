"""The consumer helper verify_signature, the SSRF rule and the retry schedule."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import random

import pytest

from modhub.core.webhook_signing import CallbackRefused, check_callback, encode_body, sign, verify_signature
from workers.outcomes import RETRY_SCHEDULE, parse_retry_after, retry_delay

SECRET = "whsec_test-secret"
NOW = 1_790_000_000.0
TS = str(int(NOW * 1000))
BODY = b'{"event":"resource.published","data":{"postId":1,"title":"T"}}'


def _spec(secret: str, ts: str, body: bytes) -> str:
    return hmac.new(secret.encode(), ts.encode() + b"\n" + body, hashlib.sha256).hexdigest()


def test_sign_is_the_spec_signature():
    assert sign(SECRET, TS, BODY) == _spec(SECRET, TS, BODY)


def test_verify_accepts_the_right_signature_and_refuses_the_rest():
    good = _spec(SECRET, TS, BODY)
    assert verify_signature(SECRET, TS, BODY, good, now=NOW)
    assert verify_signature(SECRET, TS, BODY, good.upper(), now=NOW)  # hex case does not matter
    assert not verify_signature(SECRET, TS, BODY + b" ", good, now=NOW)
    assert not verify_signature("whsec_other", TS, BODY, good, now=NOW)
    assert not verify_signature(SECRET, TS, BODY, "", now=NOW)
    assert not verify_signature(SECRET, "not-a-number", BODY, good, now=NOW)


def test_verify_refuses_stale_timestamps():
    good = _spec(SECRET, TS, BODY)
    assert verify_signature(SECRET, TS, BODY, good, now=NOW + 299)
    assert not verify_signature(SECRET, TS, BODY, good, now=NOW + 301)
    assert verify_signature(SECRET, TS, BODY, good, tolerance=600, now=NOW + 301)


def test_verify_accepts_either_value_during_a_rotation():
    header = f"{_spec('whsec_new', TS, BODY)},{_spec('whsec_old', TS, BODY)}"
    assert verify_signature("whsec_new", TS, BODY, header, now=NOW)
    assert verify_signature("whsec_old", TS, BODY, header, now=NOW)
    assert not verify_signature("whsec_third", TS, BODY, header, now=NOW)


def test_body_is_compact_utf8_json():
    assert (
        encode_body("post.deleted", {"title": "模组"})
        == '{"event":"post.deleted","data":{"title":"模组"}}'.encode()
    )


def _resolver(*addresses):
    return lambda host, port: list(addresses)


@pytest.mark.parametrize(
    "url,addresses,allow,ok",
    [
        ("https://hooks.example.com/x", ["93.184.216.34"], False, True),
        ("https://hooks.example.com/x", ["10.0.0.5"], False, False),
        ("https://hooks.example.com/x", ["127.0.0.1"], False, False),
        ("https://hooks.example.com/x", ["169.254.169.254"], False, False),
        ("https://hooks.example.com/x", ["::1"], False, False),
        ("https://hooks.example.com/x", ["::ffff:127.0.0.1"], False, False),
        ("https://hooks.example.com/x", ["93.184.216.34", "192.168.1.2"], False, False),
        ("https://hooks.example.com/x", ["10.0.0.5"], True, True),
        ("http://hooks.example.com/x", ["93.184.216.34"], False, False),
        ("http://hooks.example.com/x", ["93.184.216.34"], True, False),
        ("http://localhost:8080/x", ["127.0.0.1"], True, True),
        ("http://localhost:8080/x", ["127.0.0.1"], False, False),
        ("ftp://hooks.example.com/x", ["93.184.216.34"], True, False),
        ("https://user:pw@hooks.example.com/x", ["93.184.216.34"], False, False),
    ],
)
def test_ssrf_rule(url, addresses, allow, ok):
    if ok:
        assert check_callback(url, allow_private=allow, resolver=_resolver(*addresses)) == addresses
    else:
        with pytest.raises(CallbackRefused):
            check_callback(url, allow_private=allow, resolver=_resolver(*addresses))


def test_retry_schedule_with_jitter_then_gives_up():
    now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    rng = random.Random(5)
    for attempts, base in enumerate(RETRY_SCHEDULE, start=1):
        delay = retry_delay(attempts, None, now, rng)
        assert base * 0.9 <= delay <= base * 1.1
    assert retry_delay(len(RETRY_SCHEDULE) + 1, None, now, rng) is None
    assert [int(d.total_seconds()) for d in RETRY_SCHEDULE] == [5, 300, 1800, 7200, 18000, 36000, 36000]


def test_jitter_leaves_the_process_random_state_alone():
    # The relay runs as a thread beside other code (Hypothesis in the test process refuses a global
    # random state that moves under its strategies); its jitter draws from its own generator.
    now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    before = random.getstate()
    delays = {retry_delay(2, None, now) for _ in range(20)}
    assert random.getstate() == before
    assert len(delays) > 1
    assert all(dt.timedelta(seconds=270) <= d <= dt.timedelta(seconds=330) for d in delays)


def test_retry_after_seconds_or_date_and_capped():
    now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    assert parse_retry_after("120", now) == dt.timedelta(seconds=120)
    assert parse_retry_after("Thu, 01 Jan 2026 00:10:00 GMT", now) == dt.timedelta(minutes=10)
    assert parse_retry_after("soon", now) is None and parse_retry_after(None, now) is None
    assert retry_delay(1, "600", now) == dt.timedelta(seconds=600)
    assert retry_delay(1, str(10**7), now) == dt.timedelta(hours=24)
