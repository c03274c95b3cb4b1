"""The gateway middleware: signature, app status, IP allow-list, quota and proxy user.

It sits after Connexion's routing, so it knows the operation, and before request validation,
so an unsigned request is refused before its parameters are judged. The access level (A, K, P,
T) of each operation is read once, at start-up, from the contract: its `security` and its
`x-openapi-require-proxy` / `x-openapi-write-action` flags.
"""

from __future__ import annotations

import enum
import re
import time

from connexion.middleware.abstract import RoutedAPI, RoutedMiddleware
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from models.identity.service import get_user
from models.identity.tables import AppStatus
from models.identity.tokens import live_token_or_raise
from modhub import envelope
from modhub.addresses import client_address, ip_allowed
from modhub.core import proxy_headers
from modhub.core.errors import ApiError
from modhub.gateway_snapshots import AppDirectory, AppInfo, UserDirectory
from modhub.replay import guarded, nonce_of, nonce_ttl
from modhub.request_signing import signature_matches

_TIMESTAMP = re.compile(r"[0-9]{13}")  # fullmatch: `$` would pass a trailing line feed
_API_KEY = re.compile(r"[A-Za-z0-9]{1,64}")  # the keys' alphabet: anything else is no key at all
# Headers that decide who is calling: two copies are ambiguous (layers could read different ones).
SINGLE_HEADERS = frozenset(
    {b"x-api-key", b"x-timestamp", b"x-signature", b"x-proxy-access-token", b"x-proxy-user-id"}
)


class Access(enum.Enum):
    """The spec's access codes."""

    ANONYMOUS = "A"
    KEY = "K"
    PROXY_USER = "P"
    TOKEN = "T"


def access_of(operation: dict) -> Access:
    """The access level an operation declares in the contract."""
    if not operation.get("security", True):
        return Access.ANONYMOUS
    if operation.get("x-openapi-write-action"):
        return Access.TOKEN
    if operation.get("x-openapi-require-proxy"):
        return Access.PROXY_USER
    return Access.KEY


class Gatekeeper:
    """The checks of one request.

    They run in a worker thread when they may read the database (an application snapshot to
    load, a proxy user or token to check). A key-only operation whose application snapshot is
    cached needs no database, only the quota store's one round trip (a Redis script on
    loopback, with a 1 s socket timeout): it is checked on the event loop, which spares each
    such request two thread hand-offs (measured: +27% requests/s on a handler that reads
    nothing, bench/catalog.py's stack floor), and the round trip is awaited there
    (RedisQuota.hit_async), not waited for: the loop goes on serving the worker's other
    requests. So is a P operation without a token whose proxy user was seen live within the
    snapshot time (UserDirectory).
    """

    def __init__(self, platform):
        self.platform = platform
        self.apps = AppDirectory(platform)
        self.users = UserDirectory(platform)
        self._trusted: tuple = (None, ())

    @property
    def settings(self):
        """The platform's current settings (tests swap them per test)."""
        return self.platform.settings

    @property
    def trusted(self) -> tuple:
        """The trusted proxy networks of the current settings, parsed once per value."""
        proxies = self.settings.trusted_proxies
        if self._trusted[0] != proxies:
            self._trusted = (proxies, self.settings.trusted_networks)
        return self._trusted[1]

    def in_loop(self, access: Access, headers: dict) -> bool:
        """Whether check() will read no database: a key-only operation with a cached snapshot,
        or a P operation (no token) of such an application whose proxy user is cached live."""
        if access is Access.PROXY_USER:
            user_id = proxy_headers.user_id_or_none(headers.get("x-proxy-user-id"))
            if "x-proxy-access-token" in headers or user_id is None or not self.users.live(user_id):
                return False
        elif access is not Access.KEY:
            return False
        return self.apps.cached(headers.get("x-api-key", ""))

    def check(
        self, access: Access, method: str, path: str, headers: dict, peer: str, state: envelope.RequestState
    ) -> None:
        """Authenticate, count and resolve the proxy user, or raise the precise ApiError."""
        app, replay = self._admit(access, method, path, headers, peer)
        verdict = self.platform.quota.hit(app.id, app.per_minute, app.per_day, **replay)
        self._counted(access, app, verdict, headers, state)

    async def check_in_loop(
        self, access: Access, method: str, path: str, headers: dict, peer: str, state: envelope.RequestState
    ) -> None:
        """check() on the event loop, for a request in_loop() accepts (no database read): the
        quota's round trip is awaited, so the loop serves other requests meanwhile."""
        app, replay = self._admit(access, method, path, headers, peer)
        verdict = await self.platform.quota.hit_async(app.id, app.per_minute, app.per_day, **replay)
        self._counted(access, app, verdict, headers, state)

    def _admit(
        self, access: Access, method: str, path: str, headers: dict, peer: str
    ) -> tuple[AppInfo, dict]:
        """The signed application, allowed from this address, and the quota's replay arguments
        (the nonce of a signed write and how long it is remembered)."""
        app = self._signed_app(method, path, headers)
        if not ip_allowed(app.ip_allow, client_address(peer, headers.get("x-forwarded-for"), self.trusted)):
            raise ApiError("IP_NOT_ALLOWED")
        # A signed write is accepted once (modhub.replay), checked in the quota's round trip.
        nonce = nonce_of(headers) if guarded(write_action=access is Access.TOKEN, method=method) else None
        return app, {"nonce": nonce, "nonce_ttl": nonce_ttl(self.settings.timestamp_window_seconds)}

    def _counted(
        self, access: Access, app: AppInfo, verdict, headers: dict, state: envelope.RequestState
    ) -> None:
        state.headers.extend(verdict.headers())
        verdict.raise_if_refused()
        state.app_id = app.id
        state.catalog_generation = verdict.generation
        if access in (Access.PROXY_USER, Access.TOKEN):
            if not app.proxy_permission:
                raise ApiError("PROXY_PERMISSION_REQUIRED")
            self._proxy_user(access, app, headers, state)

    def _signed_app(self, method: str, path: str, headers: dict) -> AppInfo:
        api_key, ts, sig = (headers.get(h) for h in ("x-api-key", "x-timestamp", "x-signature"))
        if not (api_key and ts and sig):
            raise ApiError("AUTH_HEADERS_MISSING")
        if not _TIMESTAMP.fullmatch(ts):
            raise ApiError("TIMESTAMP_MALFORMED")
        app = self.apps.get(api_key) if _API_KEY.fullmatch(api_key) else None
        if app is None:
            raise ApiError("API_KEY_UNKNOWN")
        if abs(time.time() * 1000 - int(ts)) > self.settings.timestamp_window_seconds * 1000:
            raise ApiError("TIMESTAMP_OUT_OF_WINDOW")
        if not signature_matches(app.secret, method, path, ts, sig):
            raise ApiError("SIGNATURE_INVALID")
        if app.status is AppStatus.DISABLED:
            raise ApiError("APP_DISABLED")
        if app.status is not AppStatus.APPROVED:
            raise ApiError("APP_NOT_APPROVED")
        return app

    def _proxy_user(self, access: Access, app: AppInfo, headers: dict, state: envelope.RequestState) -> None:
        token = headers.get("x-proxy-access-token")
        if access is Access.TOKEN and not token:
            raise ApiError("PROXY_TOKEN_REQUIRED")
        if not token:
            user_id = proxy_headers.user_id(headers.get("x-proxy-user-id"))
            if user_id is None:
                raise ApiError("PROXY_USER_REQUIRED")
            if self.users.live(user_id):
                state.proxy_user_id = user_id
                return
        # the request's own session: the handler goes on with it (modhub.web.session)
        session = state.session = self.platform.db.session()
        if token:
            row = live_token_or_raise(session, token=token, app_id=app.id, now=self.platform.clock())
            user_id, state.token_scopes = row.user_id, tuple(row.scopes or ())
        if user_id is None or get_user(session, user_id=user_id) is None:
            raise ApiError("PROXY_USER_INVALID")
        if not token:
            self.users.remember(user_id)
        state.proxy_user_id = user_id


class GatewayOperation:
    """One operation's gate: anonymous operations pass straight through."""

    def __init__(self, next_app: ASGIApp, access: Access, gatekeeper: Gatekeeper):
        self.next_app = next_app
        self.access = access
        self.gatekeeper = gatekeeper

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.access is not Access.ANONYMOUS:
            _refuse_duplicates(scope["headers"])
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            peer = (scope.get("client") or ("",))[0]
            args = (
                self.access,
                scope["method"],
                scope.get("raw_path", b"").decode("latin-1").split("?", 1)[0] or scope["path"],
                headers,
                peer,
                envelope.current.get(),
            )
            try:
                if self.gatekeeper.in_loop(self.access, headers):
                    await self.gatekeeper.check_in_loop(*args)
                else:
                    await run_in_threadpool(self.gatekeeper.check, *args)
                await self.next_app(scope, receive, send)
            finally:
                session = args[-1].take_session()  # refused, or the handler never took it
                if session is not None:
                    await run_in_threadpool(session.close)
        else:
            await self.next_app(scope, receive, send)


def _refuse_duplicates(raw_headers) -> None:
    seen = set()
    for name, _ in raw_headers:
        name = name.lower()
        if name in SINGLE_HEADERS:
            if name in seen:
                raise ApiError("HEADER_AMBIGUOUS", f"{name.decode()} appears more than once")
            seen.add(name)


class GatewayAPI(RoutedAPI[GatewayOperation]):
    """Builds the gates of one API's operations at start-up."""

    def __init__(self, *args, gatekeeper: Gatekeeper, **kwargs):
        self.gatekeeper = gatekeeper
        super().__init__(*args, **kwargs)
        self.add_paths()

    def make_operation(self, operation) -> GatewayOperation:
        return GatewayOperation(self.next_app, access_of(operation._operation), self.gatekeeper)


class GatewayMiddleware(RoutedMiddleware[GatewayAPI]):
    """Connexion middleware that applies the gateway checks to every routed operation."""

    api_cls = GatewayAPI

    def __init__(self, app: ASGIApp, *, gatekeeper: Gatekeeper):
        super().__init__(app)
        self.gatekeeper = gatekeeper

    def add_api(self, specification, **kwargs) -> GatewayAPI:
        api = self.api_cls(specification, next_app=self.app, gatekeeper=self.gatekeeper, **kwargs)
        self.apis[api.base_path].append(api)
        return api
