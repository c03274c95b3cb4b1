"""The application factory: Connexion's AsyncApp wired to the contract, the gateway and the
envelope, with the Flask site pages mounted beside the API in the same ASGI app."""

from __future__ import annotations

import datetime as dt
import importlib
import logging
import os
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from functools import partial

import connexion
from connexion.middleware.context import ContextMiddleware
from connexion.middleware.exceptions import ExceptionMiddleware
from connexion.middleware.lifespan import LifespanMiddleware
from connexion.middleware.response_validation import ResponseValidationMiddleware
from connexion.middleware.server_error import ServerErrorMiddleware
from connexion.options import SwaggerUIOptions
from connexion.resolver import Resolution, Resolver

from models import record_cache
from models.downloads.counting import LocalCounter, RedisCounter, counter_over
from models.record_cache import RecordCache, RedisGeneration
from modhub import bridge, errors_http, metrics, spec_check
from modhub.contract import Contract
from modhub.core.crypto import SecretBox
from modhub.core.display import Display
from modhub.core.errors import not_implemented
from modhub.core.redis_store import RedisStore
from modhub.core.storage import from_settings as storage_from_settings
from modhub.db import Database
from modhub.declared_errors import DeclaredErrorsMiddleware, declared_codes
from modhub.docs_ui import SigningDocsMiddleware
from modhub.edge import EdgeMiddleware, upload_paths
from modhub.envelope import JSONIFIER
from modhub.gateway import Gatekeeper, GatewayMiddleware
from modhub.guessing import CodeGuard
from modhub.ops import OpsMiddleware, RoutingTag, install_drain
from modhub.prepared import PreparedRequestValidation, prepare_async_when_built
from modhub.quota import LocalQuota, RedisQuota, quota_over, store_of
from modhub.routing import IndexedRouting
from modhub.settings import Settings
from modhub.site.throttle import LoginThrottle
from modhub.site_mount import serve_beside, site_app
from modhub.validation import VALIDATORS
from modhub.web import Operation

log = logging.getLogger(__name__)
DOCS_PATH = "/openapi/v2/meta/docs"
spec_check.install()  # Connexion's check of the contract, with jsonschema_rs: 2 s less per start


_LOCAL: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # in-process download counters


@dataclass
class Platform:
    """The long-lived services a request may use; built once per app."""

    settings: Settings
    db: Database
    quota: RedisQuota | LocalQuota
    secrets: SecretBox
    contract: Contract
    clock: Callable[[], dt.datetime] = field(default=lambda: _utc_now())
    storage: object = None
    redis: RedisStore | None = None  # the platform's Redis (modhub.core.redis_store); None: embedded
    # built by wire() (from the settings, the database and the quota store), never passed in:
    display: Display = field(init=False)  # time zone, CDN base, site URL: built from the settings once
    code_guard: CodeGuard = field(init=False)  # wrong-code counters (modhub.guessing)
    records: RecordCache = field(init=False)  # catalogue records kept between requests (models.record_cache)
    download_counter: RedisCounter | LocalCounter = field(init=False)  # models.downloads.counting
    login_throttle: LoginThrottle = field(init=False)  # the site's failed log-in counter (modhub.site)
    gatekeeper: object = None  # the gateway's checks and its snapshots (modhub.gateway)
    handlers: ThreadPoolExecutor | None = None  # the threads of the handlers (create_app)

    def wire(self) -> Platform:
        """(Re)build the parts that follow the settings, the database and the quota store, and
        point the database's sessions at the catalogue generation (models.record_cache)."""
        from workers.dispatch import RQDispatcher, attach  # webhooks: hand committed events to RQ

        attach(self.db, RQDispatcher.from_settings(self.settings))
        self.redis = store_of(self.quota)
        shared = RedisGeneration(self.redis.client, self.redis.prefix) if self.redis else None
        record_cache.watch(self.db.sessions, shared)  # else: the generation in the database
        self.records = RecordCache(self.settings.record_cache_seconds, in_database=self.redis is None)
        self.display = Display.from_settings(self.settings)
        self.login_throttle = LoginThrottle.for_redis(self.redis)
        self.code_guard = CodeGuard.for_redis(self.redis)
        # in process: one counter per quota store, so that platforms sharing it share counts
        self.download_counter = (
            counter_over(self.redis) if self.redis else _LOCAL.setdefault(self.quota, LocalCounter())
        )
        return self

    @contextmanager
    def serving(self, *, settings: Settings, db: Database, quota) -> Iterator[Platform]:
        """Serve with other per-run parts (tests: one app, a fresh transaction per test).

        Only the parts read per request are swapped: settings fields the app reads at build
        time (body limits, site cookie, validation) must match the ones it was built with.
        """
        names = (
            "settings display db quota secrets clock login_throttle code_guard records redis download_counter"
        ).split()
        saved = [getattr(self, name) for name in names]
        self.settings, self.db, self.quota = settings, db, quota
        self.secrets, self.clock = SecretBox(settings.encryption_key), _utc_now
        self.wire()
        try:
            yield self
        finally:
            for name, value in zip(names, saved, strict=True):
                setattr(self, name, value)


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def handler_function(target: str) -> Callable | None:
    """The function an `x-handler` names, or None when its module or function is not built yet."""
    module_name, _, name = target.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):  # the handler module itself is absent
            return None
        raise  # a built module whose own import fails is a bug, not a planned operation
    function = getattr(module, name, None)
    return function if callable(function) else None


def planned(operation_id: str) -> Callable:
    """The answer of an operation whose handler is not built yet: 501 / 200501 naming it."""

    def answer(**_):
        raise not_implemented(operation_id)

    answer.__name__ = f"planned_{operation_id}"
    return answer


class HandlerResolver(Resolver):
    """Resolves an operation to the function named by its `x-handler`, keeping its operationId.

    Alias paths have distinct operationIds (Connexion keys its state by them) and share one
    function. An operation whose function does not exist yet (`x-modhub-status: planned`)
    answers 501 / 200501 naming its own operationId. `wrap(function)`, when given, is what
    Connexion calls instead (the app: modhub.web.Operation, the handler in its thread pool).
    """

    def __init__(self, wrap: Callable[[Callable], Callable] | None = None):
        super().__init__()
        self.wrap = wrap

    def resolve(self, operation):
        target = operation._operation.get("x-handler") or operation.operation_id
        function = handler_function(target) or planned(operation.operation_id)
        if self.wrap is not None:
            function = self.wrap(function)
        return Resolution(function, operation.operation_id)


def build_platform(
    settings: Settings,
    *,
    db: Database | None = None,
    quota=None,
    contract: Contract | None = None,
    storage=None,
) -> Platform:
    """Connect the database and the quota store named by the settings."""
    if quota is None:
        if not settings.redis_url and not settings.embedded:  # a shared database, several processes
            log.warning(
                "MODHUB_REDIS_URL is not set: quotas are counted per process; run "
                "with Redis to share them across processes"
            )
        # The embedded default (SQLite, one `modhub run` process) counts in process by design:
        # no warning there; `modhub run` says it in its banner.
        store = (
            RedisStore.from_url(settings.redis_url, timeout=settings.redis_timeout_seconds)
            if settings.redis_url
            else None
        )
        quota = quota_over(store)
    return Platform(
        settings=settings,
        db=db or Database.from_settings(settings),
        quota=quota,
        secrets=SecretBox(settings.encryption_key),
        contract=(contract or Contract.load()).in_time_zone(settings.time_zone),
        storage=storage or storage_from_settings(settings),
    ).wire()


@asynccontextmanager
async def lifespan(platform: Platform, _app) -> AsyncIterator[None]:
    """A served process: SIGTERM turns it not-ready first (modhub.ops.install_drain); its live
    metrics leave with it."""
    install_drain(platform.settings)
    yield
    metrics.process_exited()


def create_app(settings: Settings, **platform_parts) -> connexion.AsyncApp:
    """The ASGI application serving the whole contract (AsyncApp) and the site pages (Flask).

    `app.app` is the Flask app of the site pages; `app.app.extensions["modhub"]` the Platform.
    A request the contract routes to an operation is served by the AsyncApp: the handler runs in
    a bounded pool of settings.handler_threads threads (modhub.web.Operation) unless it answers on the
    event loop. Any other request (a site page, an unknown path) goes to Flask, through the
    one-hop WSGI bridge (modhub.bridge).
    """
    platform = build_platform(settings, **platform_parts)
    platform.gatekeeper = Gatekeeper(platform)
    middlewares = [
        partial(OpsMiddleware, platform=platform),  # /healthz, /readyz, /metrics; timing, access log
        ServerErrorMiddleware,
        partial(
            EdgeMiddleware,
            max_body_bytes=settings.max_body_bytes,
            max_upload_bytes=settings.max_upload_bytes,
            max_header_bytes=settings.max_header_bytes,
            uploads=upload_paths(platform.contract.document),
            time_zone=settings.time_zone,
            slashed=("/", DOCS_PATH + "/"),  # the site's home and the docs page
        ),
        ExceptionMiddleware,
        partial(SigningDocsMiddleware, path=DOCS_PATH),
        IndexedRouting,
        RoutingTag,
        partial(GatewayMiddleware, gatekeeper=platform.gatekeeper),
        PreparedRequestValidation,
        LifespanMiddleware,
        ContextMiddleware,
    ]
    # Left out of Connexion's defaults: SecurityMiddleware (the gateway checks signatures, keys
    # and tokens) and SwaggerUIMiddleware (SigningDocsMiddleware serves the docs page); response
    # validation only where it is on (tests): otherwise it is a pass-through costing a lookup.
    if settings.validate_responses:
        middlewares.insert(middlewares.index(PreparedRequestValidation) + 1, ResponseValidationMiddleware)
    if settings.validate_responses:  # tests: a 4xx code must be one its operation declares
        middlewares.insert(
            0,
            partial(
                DeclaredErrorsMiddleware,
                declared=declared_codes(platform.contract.document),
                record_dir=os.environ.get("MODHUB_RECORD_ERROR_CODES"),
            ),
        )
    app = connexion.AsyncApp(__name__, middlewares=middlewares, lifespan=partial(lifespan, platform))
    app.app = site_app(settings, platform)
    serve_beside(app, bridge.OneHopWSGI(app.app.wsgi_app, workers=10))
    pool = platform.handlers = ThreadPoolExecutor(
        settings.handler_threads, thread_name_prefix="modhub-handler"
    )
    app.add_api(
        platform.contract.document,
        resolver=HandlerResolver(lambda function: Operation(function, platform, pool)),
        pythonic_params=True,
        jsonifier=JSONIFIER,
        validator_map=VALIDATORS,
        validate_responses=settings.validate_responses,
        swagger_ui_options=SwaggerUIOptions(
            serve_spec=False,
            swagger_ui_path=DOCS_PATH,
            swagger_ui_config={"url": "/openapi/v2/meta/openapi.json"},
        ),
    )
    prepare_async_when_built(app)  # Connexion's per-request decorator building, done once
    errors_http.install(app)
    return app
