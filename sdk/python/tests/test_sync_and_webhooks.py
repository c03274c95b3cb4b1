"""The sync walker (changes, tombstones, the cursor kept) and the webhook receiver helper, end to
end: a resource deleted with the operator's CLI reaches the walk as a tombstone and a local
receiver as a signed resource.deleted delivery that the helper verifies."""

from __future__ import annotations

import hashlib
import hmac
import json
import queue
import threading
import time
from wsgiref.simple_server import WSGIRequestHandler, make_server

import pytest
from modhub_client import SyncState, WebhookReceiver, WebhookRejected, webhook_signature


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def receiver_site():
    """A WSGI app on loopback that verifies deliveries with the helper (secret set later)."""
    got: queue.Queue = queue.Queue()
    state: dict = {}

    def app(environ, start_response):
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        headers = {k[5:].replace("_", "-"): v for k, v in environ.items() if k.startswith("HTTP_")}
        try:
            got.put(state["receiver"].verify(headers, body))
            start_response("204 No Content", [])
        except WebhookRejected as exc:
            got.put(exc)
            start_response("400 Bad Request", [])
        return [b""]

    httpd = make_server("127.0.0.1", 0, app, handler_class=_Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/hook", got, state
    httpd.shutdown()
    httpd.server_close()


def test_walker_yields_changes_then_a_tombstone_and_keeps_its_cursor(
    client, server, catalogue, receiver_site
):
    url, got, state = receiver_site
    state_ = SyncState()
    first = list(client.walk_sync(state_, size=50))
    changed = {c.post_id for c in first if c.kind == "changed"}
    assert changed == set(catalogue.files) and state_.cursor and not state_.has_more
    assert list(client.walk_sync(SyncState(state_.cursor))) == []  # nothing new since the cursor

    subscription = json.loads(
        server.cli("webhook", "add", "--app", str(server.app_id), "--url", url, "--event", "resource.deleted")
        .strip()
        .splitlines()[-1]
    )
    state["receiver"] = WebhookReceiver([subscription["secret"]])
    victim = max(catalogue.files)  # the tests that download use the smallest ids
    server.cli("admin", "resource", "delete", str(victim))

    later = list(client.walk_sync(state_))
    assert [(c.kind, c.post_id) for c in later if c.post_id == victim] == [("deleted", victim)]
    event = got.get(timeout=15)
    assert not isinstance(event, Exception), event
    assert event.event == "resource.deleted" and event.data["postId"] == victim and not event.duplicate


def _signed(secret: str, body: bytes, ts: int | None = None, event_id: str = "e-1") -> dict[str, str]:
    stamp = str(ts if ts is not None else int(time.time() * 1000))
    digest = hmac.new(secret.encode(), stamp.encode() + b"\n" + body, hashlib.sha256).hexdigest()
    return {
        "X-Webhook-Timestamp": stamp,
        "X-Webhook-Signature": digest,
        "X-Webhook-Id": event_id,
        "X-Webhook-Event": "resource.updated",
        "Content-Type": "application/json",
    }


BODY = json.dumps({"event": "resource.updated", "data": {"postId": 7}}).encode()


def test_webhook_helper_checks_signature_window_rotation_and_replay():
    receiver = WebhookReceiver(["new-secret", "old-secret"])
    headers = _signed("old-secret", BODY)
    stamp = headers["X-Webhook-Timestamp"]
    assert webhook_signature("old-secret", stamp, BODY) == headers["X-Webhook-Signature"]
    event = receiver.verify(headers, BODY)
    assert (event.event, event.data, event.duplicate) == ("resource.updated", {"postId": 7}, False)
    assert receiver.verify(headers, BODY).duplicate  # the same delivery id again: a replay
    rotating = _signed("new-secret", BODY, event_id="e-2")
    rotating["X-Webhook-Signature"] += "," + _signed("elsewhere", BODY)["X-Webhook-Signature"]
    asgi_headers = [(k.lower().encode(), v.encode()) for k, v in rotating.items()]  # ASGI scope form
    assert receiver.verify(asgi_headers, BODY).event_id == "e-2"
    for bad, reason in [
        (_signed("wrong", BODY, event_id="e-3"), "signature mismatch"),
        (
            _signed("new-secret", BODY, ts=int(time.time() * 1000) - 301_000, event_id="e-4"),
            "timestamp outside the tolerance window",
        ),
    ]:
        with pytest.raises(WebhookRejected, match=reason):
            receiver.verify(bad, BODY)
    with pytest.raises(WebhookRejected, match="signature mismatch"):
        receiver.verify(_signed("new-secret", BODY, event_id="e-5"), BODY + b" ")  # body changed
