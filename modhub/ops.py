"""Operator endpoints and per-request accounting, outside the integrators' contract.

GET /healthz: the process answers (liveness). GET /readyz: the database answers with the
schema at the code's revision, Redis answers (when configured), the file storage is reachable;
503 with the failing checks named, each check bounded by MODHUB_READY_TIMEOUT_SECONDS, and 503
("draining") from the moment the process is asked to stop. GET /metrics: Prometheus text
(modhub.metrics), optionally behind MODHUB_METRICS_TOKEN and MODHUB_METRICS_ALLOW.

These paths are answered here, before the gateway: they are not signed, not counted by quotas,
and not operations of the contract. Every other request is timed, counted (operation, status)
and, when MODHUB_ACCESS_LOG is on, logged as one access record.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hmac
import ipaddress
import json
import logging
import os
import signal
import threading
import time

from starlette.types import ASGIApp, Receive, Scope, Send

from modhub import envelope, logs, metrics
from modhub.addresses import client_address

log = logging.getLogger(__name__)
access_log = logging.getLogger("modhub.access")
INFO = "modhub.ops"  # scope key: a dict the routing tag fills (operation, request state)
DRAINING = threading.Event()  # set on SIGTERM: /readyz answers 503 from then on
_CHECKS = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="readyz")


class OpsMiddleware:
    """The outermost layer: the operator endpoints, and timing, metrics and access records."""

    def __init__(self, app: ASGIApp, *, platform):
        self.app = app
        self.platform = platform
        self.routes = {"/healthz": self._healthz, "/readyz": self._readyz, "/metrics": self._metrics}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        route = self.routes.get(scope["path"])
        if route is not None and scope["method"] in ("GET", "HEAD"):
            status, headers, body = await route(scope)
            await _answer(send, status, headers, b"" if scope["method"] == "HEAD" else body)
            return
        started = time.perf_counter()
        info: dict = {}
        scope[INFO] = info
        status = 500

        async def send_status(message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                info["elapsed"] = time.perf_counter() - started
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            elapsed = info.get("elapsed") or time.perf_counter() - started
            operation = info.get("operation") or "unrouted"
            metrics.observe_request(operation, status, elapsed)
            settings = self.platform.settings
            if settings.access_log:
                _access(scope, info, operation, status, elapsed, settings.trusted_networks)

    async def _healthz(self, _scope) -> tuple[int, dict, bytes]:
        return 200, {}, b'{"status":"ok"}'

    async def _readyz(self, _scope) -> tuple[int, dict, bytes]:
        if DRAINING.is_set():
            return 503, {}, json.dumps({"status": "draining", "failing": ["draining"], "checks": {}}).encode()
        checks = await readiness(self.platform)
        failing = sorted(name for name, result in checks.items() if result != "ok")
        body = {"status": "not ready" if failing else "ready", "failing": failing, "checks": checks}
        return (503 if failing else 200), {}, json.dumps(body).encode()

    async def _metrics(self, scope) -> tuple[int, dict, bytes]:
        settings = self.platform.settings
        if settings.metrics_allow:
            peer = (scope.get("client") or ("",))[0]
            try:
                allowed = any(ipaddress.ip_address(peer) in net for net in settings.metrics_networks)
            except ValueError:
                allowed = False
            if not allowed:
                return 403, {}, b'{"error":"this address may not read the metrics"}'
        if settings.metrics_token:
            given = dict(scope["headers"]).get(b"authorization", b"")
            if not hmac.compare_digest(given, b"Bearer " + settings.metrics_token.encode()):
                return 401, {"www-authenticate": "Bearer"}, b'{"error":"a bearer token is required"}'
        body = await asyncio.get_running_loop().run_in_executor(_CHECKS, metrics.exposition, self.platform)
        return 200, {"content-type": metrics.CONTENT_TYPE}, body


class RoutingTag:
    """Right after Connexion's routing: notes the operation and the request's state for the
    outer layer (metrics label and access record)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        info = scope.get(INFO)
        if info is not None:
            routing = scope.get("extensions", {}).get("connexion_routing", {})
            info["operation"] = routing.get("operation_id")
            info["state"] = envelope.current.get(None)
        await self.app(scope, receive, send)


def _access(scope: Scope, info: dict, operation: str, status: int, elapsed: float, trusted: tuple) -> None:
    """The request's access record for the `modhub.access` logger's handlers: its line handed
    straight to the one handler of the served set-up (modhub.logs.log_directly), else a record
    built here, without the caller lookup (a walk up the stack) and `extra` checks of Logger.info,
    whose file and line would only name this function."""
    if not access_log.isEnabledFor(logging.INFO):
        return
    state = info.get("state")
    method, path = scope["method"], scope["path"]
    trace = state.request_id if state is not None else None
    fields = {
        "method": method,
        "path": path,
        "operation": operation,
        "status": status,
        "durationMs": round(elapsed * 1000, 2),
        "appId": state.app_id if state is not None else None,
        "client": _client(scope, trusted),
    }
    if logs.log_directly(access_log, trace, f"{method} {path} {status}", fields):
        return
    record = logging.LogRecord(
        access_log.name, logging.INFO, __file__, 0, "%s %s %s", (method, path, status), None
    )
    record.__dict__.update(fields, traceId=trace)
    access_log.handle(record)


def _client(scope: Scope, trusted: tuple) -> str | None:
    """The caller's address as the gateway sees it (X-Forwarded-For from trusted proxies only)."""
    peer = (scope.get("client") or ("",))[0]
    if not trusted:
        return peer or None
    forwarded = next((v for k, v in scope["headers"] if k == b"x-forwarded-for"), None)
    try:
        return client_address(peer, forwarded.decode("latin-1") if forwarded else None, trusted)
    except Exception:  # noqa: BLE001 - an access record never fails a request
        return peer or None


async def _answer(send: Send, status: int, headers: dict, body: bytes) -> None:
    raw = [(b"content-type", b"application/json"), (b"cache-control", b"no-store")]
    raw = [(k, v) for k, v in raw if k.decode() not in headers]
    raw += [(k.encode(), v.encode()) for k, v in headers.items()]
    raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


async def readiness(platform) -> dict[str, str]:
    """Each dependency's check run at once, each bounded: name -> "ok" or a short reason."""
    timeout = platform.settings.ready_timeout_seconds
    checks = {"database": _check_database, "storage": _check_storage}
    if platform.settings.redis_url:
        checks["redis"] = _check_redis
    loop = asyncio.get_running_loop()

    async def bounded(name, fn):
        try:
            return name, await asyncio.wait_for(loop.run_in_executor(_CHECKS, fn, platform), timeout)
        except TimeoutError:
            return name, f"no answer within {timeout:g} s"
        except Exception as exc:  # noqa: BLE001 - the reason is the answer
            first = (str(exc).strip().splitlines() or [""])[0][:200]
            return name, f"{type(exc).__name__}: {first}"

    results = dict(await asyncio.gather(*(bounded(n, f) for n, f in checks.items())))
    database = results["database"]
    if isinstance(database, tuple):  # (ok, schema result)
        results["database"], results["schema"] = database
    elif "schema" not in results:
        results["schema"] = "not checked: the database did not answer"
    return results


def _check_database(platform) -> tuple[str, str]:
    from modhub.migrate import schema_state

    with platform.db.session() as session:
        state = schema_state(session.connection())
    return "ok", ("ok" if state.status == "current" else state.describe())


def _check_redis(platform) -> str:
    client = getattr(platform.quota, "client", None)
    if client is None:
        return "ok"
    client.ping()
    return "ok"


def _check_storage(platform) -> str:
    storage = platform.storage
    if getattr(storage, "kind", "") == "s3":
        storage.client.head_bucket(Bucket=storage.bucket)
        return "ok"
    root = getattr(storage, "root", None)
    if root is not None:
        root.mkdir(parents=True, exist_ok=True)
        if not os.access(root, os.W_OK):
            return f"{root} is not writable"
    return "ok"


def install_drain(settings) -> None:
    """On SIGTERM: turn not-ready at once, keep serving MODHUB_SHUTDOWN_DRAIN_SECONDS, then let
    uvicorn stop (it finishes in-flight requests); the process exits within
    MODHUB_SHUTDOWN_GRACE_SECONDS whatever a request is waiting on.

    Called from the app's start-up inside a uvicorn server process (main thread only), after
    uvicorn installed its own handler, which it wraps.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    uvicorn_handler = signal.getsignal(signal.SIGTERM)
    if not callable(uvicorn_handler):
        return

    def on_term(sig, frame) -> None:
        if DRAINING.is_set():
            return
        DRAINING.set()
        log.info(
            "SIGTERM: not ready; closing in %g s, exiting within %g s",
            settings.shutdown_drain_seconds,
            settings.shutdown_grace_seconds,
        )
        watchdog = threading.Timer(settings.shutdown_grace_seconds + 0.5, _hard_exit)
        watchdog.daemon = True
        watchdog.start()
        if settings.shutdown_drain_seconds > 0:
            closer = threading.Timer(settings.shutdown_drain_seconds, uvicorn_handler, (sig, frame))
            closer.daemon = True
            closer.start()
        else:
            uvicorn_handler(sig, frame)

    signal.signal(signal.SIGTERM, on_term)


def _hard_exit() -> None:
    """The grace period is over and something still holds the process: leave now."""
    log.error("shutdown grace period exceeded: exiting with requests still in flight")
    metrics.process_exited()
    logging.shutdown()
    os._exit(1)
