"""Replay-safe writes: a signed write (T) is accepted once per (key, timestamp, signature)."""

from __future__ import annotations

from modhub.quota import LocalQuota
from modhub.replay import guarded


def _adjust(client, creds, user_id, token, amount, headers=None):
    path = f"/openapi/v2/proxy-user/{user_id}/wallet/POINTS/adjust"
    headers = headers or {**creds.headers("POST", path), "X-Proxy-Access-Token": token}
    response = client.post(
        path, headers=headers, json={"amount": amount, "direction": "ADD", "reason": "replay"}
    )
    return response, headers


def test_a_captured_write_is_refused_even_with_another_body(client, creds, make_user, make_token):
    user = make_user()
    token = make_token(creds.app_id, user)
    first, captured = _adjust(client, creds, user, token, 5)
    assert first.status_code == 200 and first.json()["data"]["newBalance"] == 5
    for amount in (5, 500):
        again, _ = _adjust(client, creds, user, token, amount, headers=captured)
        assert again.status_code == 401 and again.json()["code"] == 200216
        assert "new timestamp" in again.json()["msg"]
    fresh, _ = _adjust(client, creds, user, token, 1)  # a new timestamp: accepted
    assert fresh.status_code == 200 and fresh.json()["data"]["newBalance"] == 6


def test_reads_stay_replayable(client, creds):
    headers = creds.headers("GET", "/openapi/v2/games")
    assert [client.get("/openapi/v2/games", headers=headers).status_code for _ in range(3)] == [200] * 3


def test_a_refused_replay_is_not_counted(quota):
    first = quota.hit(1, 10, 100, nonce="ts:sig")
    second = quota.hit(1, 10, 100, nonce="ts:sig")
    assert (first.verdict, second.verdict) == (0, 3) and second.minute_count == 1


def test_local_quota_remembers_a_nonce_for_its_ttl():
    q = LocalQuota()
    assert q.hit(1, 10, 100, now=1000.0, nonce="a", nonce_ttl=601).verdict == 0
    assert q.hit(1, 10, 100, now=1500.0, nonce="a", nonce_ttl=601).verdict == 3
    assert q.hit(2, 10, 100, now=1500.0, nonce="a", nonce_ttl=601).verdict == 0  # other app
    assert q.hit(1, 10, 100, now=1602.0, nonce="a", nonce_ttl=601).verdict == 0  # expired


def test_a_signed_read_on_a_token_operation_stays_replayable(client, creds, make_user, make_token):
    """getProxyUserPoints is a T operation (x-openapi-write-action) but a read: the same signed
    headers are answered every time; only writes are accepted once."""
    user = make_user()
    token = make_token(creds.app_id, user)
    path = f"/openapi/v2/proxy-user/{user}/points"
    headers = {**creds.headers("GET", path), "X-Proxy-Access-Token": token}
    answers = [client.get(path, headers=headers) for _ in range(3)]
    assert [(r.status_code, r.json()["code"]) for r in answers] == [(200, 0)] * 3


def test_guarded_means_a_write_method_on_a_write_action():
    assert guarded(write_action=True, method="POST") and guarded(write_action=True, method="delete")
    assert not guarded(write_action=True, method="GET") and not guarded(write_action=True, method="HEAD")
    assert not guarded(write_action=False, method="POST")
