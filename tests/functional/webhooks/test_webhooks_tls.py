"""HTTPS delivery to a pinned address: TLS is verified against the URL's host name (SNI)."""

from __future__ import annotations

import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.helpers.tls import self_signed
from workers.http import Sender


class _Hook(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):  # noqa: N802 - http.server's naming
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


@pytest.fixture()
def tls_receiver(tmp_path):
    cert, key = self_signed(tmp_path, "hooks.invalid")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hook)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield server.server_port, cert
    server.shutdown()
    server.server_close()


def test_https_to_the_pinned_address_checks_the_host_name(tls_receiver):
    port, cert = tls_receiver
    sender = Sender(timeout=5)
    sender.tls = ssl.create_default_context(cafile=str(cert))
    try:
        answer = sender.post(f"https://hooks.invalid:{port}/hook", b"{}", {}, address="127.0.0.1")
        assert answer.status == 200 and answer.excerpt == "ok"
        with pytest.raises(ssl.SSLCertVerificationError):
            sender.post(f"https://other.invalid:{port}/hook", b"{}", {}, address="127.0.0.1")
    finally:
        sender.close()


def test_the_default_tls_context_checks_certificates_and_host_names():
    sender = Sender(timeout=1)
    assert sender.tls.verify_mode == ssl.CERT_REQUIRED and sender.tls.check_hostname
    assert sender.tls is sender.tls and sender.tls.cert_store_stats()["x509_ca"] > 0  # made once
