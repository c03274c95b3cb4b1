"""A real webhook receiver on loopback for the tests, and a signature check written independently
of modhub.core.webhook_signing (straight from the service spec)."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def spec_signature(secret: str, timestamp: str, body: bytes) -> str:
    """Hex HMAC-SHA256 with the secret over `timestamp + LF + raw body` (service spec, Events)."""
    return hmac.new(secret.encode(), timestamp.encode() + b"\n" + body, hashlib.sha256).hexdigest()


@dataclass
class Received:
    """One request as the receiver saw it."""

    headers: dict
    body: bytes
    at: float

    @property
    def json(self) -> dict:
        """The parsed body."""
        return json.loads(self.body)

    def signed_by(self, secret: str) -> bool:
        """True when one X-Webhook-Signature value is the spec's signature with this secret."""
        values = self.headers["x-webhook-signature"].split(",")
        want = spec_signature(secret, self.headers["x-webhook-timestamp"], self.body)
        return any(hmac.compare_digest(want, v) for v in values)


@dataclass
class Reply:
    """What to answer to one request: status, headers, a delay, or hang until released."""

    status: int = 200
    headers: dict = field(default_factory=dict)
    delay: float = 0.0
    hang: threading.Event | None = None


class Receiver:
    """A threaded HTTP server on 127.0.0.1 (random free port) recording every request."""

    def __init__(self):
        self.received: list[Received] = []
        self.replies: list[Reply] = []
        self.cond = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):  # noqa: N802 - http.server's naming
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                reply = receiver._record(
                    Received({k.lower(): v for k, v in self.headers.items()}, body, time.time())
                )
                if reply.hang is not None:
                    reply.hang.wait(30)
                if reply.delay:
                    time.sleep(reply.delay)  # the receiver being slow is what is under test
                payload = b"ok" if reply.status < 300 else b"receiver says no"
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass  # the sender gave up (timeout) or died: nothing to answer

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        # a short poll: shutdown() waits up to one poll interval (0.5 s by default, per test)
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def _record(self, item: Received) -> Reply:
        with self.cond:
            self.received.append(item)
            reply = self.replies.pop(0) if self.replies else Reply()
            self.cond.notify_all()
        return reply

    def wait_for(self, count: int, timeout: float = 20) -> list[Received]:
        """Wait (bounded) until `count` requests arrived; return them all."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while len(self.received) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"receiver got {len(self.received)} of {count} requests within {timeout} s"
                    )
                self.cond.wait(left)
            return list(self.received)

    def start(self) -> Receiver:
        """Serve in a background thread."""
        self.thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.server.shutdown()
        self.server.server_close()
