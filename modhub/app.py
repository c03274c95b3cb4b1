"""The application factory: Connexion's AsyncApp wired to the contract, the gateway and the
envelope, with the Flask site pages mounted beside the API in the same ASGI app."""

from __future__ import annotations

import copy
import datetime as dt
import importlib
import json
import logging
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import connexion
import flask
import redis
import yaml
from connexion.frameworks import flask as connexion_flask
from connexion.middleware.context import ContextMiddleware
from connexion.middleware.exceptions import ExceptionMiddleware
from connexion.middleware.lifespan import LifespanMiddleware
from connexion.middleware.request_validation import RequestValidationMiddleware
from connexion.middleware.response_validation import ResponseValidationMiddleware
from connexion.middleware.routing import RoutingMiddleware
from connexion.middleware.server_error import ServerErrorMiddleware
from connexion.options import SwaggerUIOptions
from connexion.resolver import Resolution, Resolver

from models.catalog.cache import RecordCache
from models.webhooks.events import CATALOG_LISTENER
from modhub import blobs, bridge, errors_http, site, spec_check
from modhub.core.crypto import SecretBox
from modhub.core.display import Display
from modhub.core.errors import not_implemented
from modhub.core.storage import from_settings as storage_from_settings
from modhub.db import Database
from modhub.declared_errors import DeclaredErrorsMiddleware, declared_codes
from modhub.docs_ui import SigningDocsMiddleware
from modhub.edge import EdgeMiddleware, upload_paths
from modhub.envelope import JSONIFIER
from modhub.gateway import Gatekeeper, GatewayMiddleware
from modhub.guessing import CodeGuard
from modhub.prepared import CookieSessions, prepare_async_when_built
from modhub.quota import LocalQuota, RedisQuota
from modhub.settings import Settings
from modhub.site.throttle import LoginThrottle
from modhub.validation import VALIDATORS
from modhub.web import HANDLER_THREADS, Operation, install_session_lifecycle

log = logging.getLogger(__name__)
SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.yaml"
DOCS_PATH = "/openapi/v2/meta/docs"
spec_check.install()  # Connexion's check of the contract, with jsonschema_rs: 2 s less per start


@dataclass
class Contract:
    """The contract, read once: the parsed document and its served JSON and YAML forms."""

    document: dict
    yaml_bytes: bytes
    json_bytes: bytes

    @classmethod
    def load(cls, path: Path = SPEC_PATH) -> Contract:
        """Read and parse openapi.yaml (libyaml's parser when PyYAML has it: about 8 times
        faster than the pure-Python one on this 600 kB file).

        A file parsed once in this process (same path, size and modification time) is not
        parsed again: the caller gets its own deep copy of the parsed document.
        """
        stat = path.stat()
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if key not in _PARSED:
            raw = path.read_bytes()
            document = yaml.load(raw, Loader=SAFE_LOADER)
            _PARSED.clear()
            _PARSED[key] = (document, raw, json.dumps(document, ensure_ascii=False).encode())
        document, raw, json_bytes = _PARSED[key]
        return cls(copy.deepcopy(document), raw, json_bytes)


SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_PARSED: dict[tuple, tuple[dict, bytes, bytes]] = {}  # Contract.load's last parse


@dataclass
class Platform:
    """The long-lived services a request may use; built once per app."""

    settings: Settings
    db: Database
    quota: object
    secrets: SecretBox
    contract: Contract
    clock: Callable[[], dt.datetime] = field(default=lambda: _utc_now())
    storage: object = None
    display: Display = None  # time zone, CDN base, site URL: built from the settings once
    code_guard: object = None  # wrong-code counters (modhub.guessing), over quota
    records: RecordCache = None  # catalogue records kept between requests (models.catalog.cache)
    login_throttle: object = None  # the site's failed log-in counter (modhub.site), over quota
    gatekeeper: object = None  # the gateway's checks and its snapshots (modhub.gateway)

    @contextmanager
    def serving(self, *, settings: Settings, db: Database, quota) -> Iterator[Platform]:
        """Serve with other per-run parts (tests: one app, a fresh transaction per test).

        Only the parts read per request are swapped: settings fields the app reads at build
        time (body limits, site cookie, validation) must match the ones it was built with.
        """
        saved = (
            self.settings,
            self.display,
            self.db,
            self.quota,
            self.secrets,
            self.clock,
            self.login_throttle,
            self.code_guard,
            self.records,
        )
        from workers.dispatch import RQDispatcher, attach

        attach(db, RQDispatcher.from_settings(settings))
        watch_catalog(db, quota)
        self.settings, self.db, self.quota = settings, db, quota
        self.records = RecordCache(settings.record_cache_seconds)
        self.display = Display.from_settings(settings)
        self.secrets, self.clock = SecretBox(settings.encryption_key), _utc_now
        self.login_throttle = LoginThrottle.for_quota(quota)
        self.code_guard = CodeGuard.for_quota(quota)
        try:
            yield self
        finally:
            (
                self.settings,
                self.display,
                self.db,
                self.quota,
                self.secrets,
                self.clock,
                self.login_throttle,
                self.code_guard,
                self.records,
            ) = saved


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
        if settings.redis_url:
            # bounded waits: a stalled Redis fails requests with 200503 instead of holding them
            quota = RedisQuota(
                redis.Redis.from_url(settings.redis_url, socket_timeout=1, socket_connect_timeout=1)
            )
        else:
            if not settings.embedded:  # a shared database served by several processes, likely
                log.warning(
                    "MODHUB_REDIS_URL is not set: quotas are counted per process; run "
                    "with Redis to share them across processes"
                )
            # The embedded default (SQLite, one `modhub run` process) counts in process by design:
            # no warning there; `modhub run` says it in its banner.
            quota = LocalQuota()
    platform = Platform(
        settings=settings,
        db=db or Database.from_url(settings.database_url),
        quota=quota,
        secrets=SecretBox(settings.encryption_key),
        contract=contract or Contract.load(),
        storage=storage or storage_from_settings(settings),
        code_guard=CodeGuard.for_quota(quota),
        display=Display.from_settings(settings),
        records=RecordCache(settings.record_cache_seconds),
    )
    from workers.dispatch import RQDispatcher, attach  # webhooks: hand committed events to RQ

    attach(platform.db, RQDispatcher.from_settings(settings))
    watch_catalog(platform.db, quota)
    return platform


def watch_catalog(db: Database, quota) -> None:
    """After a commit that changed the catalogue, move the generation in the quota store (every
    process's cached records of the catalogue are stale from then on: models.catalog.cache)."""
    db.sessions.configure(info={**(db.sessions.kw.get("info") or {}), CATALOG_LISTENER: quota.bump_catalog})


def site_app(settings: Settings, platform: Platform) -> flask.Flask:
    """The Flask app of the site pages (console, admin, log-in, consent, docs landing, signed
    blob URLs): errors propagate to the envelope handlers as they did under Connexion's FlaskApp."""
    app = flask.Flask(__name__)
    app.json = connexion_flask.FlaskJSONProvider(app)
    app.url_map.converters["float"] = connexion_flask.NumberConverter
    app.url_map.converters["int"] = connexion_flask.IntegerConverter
    app.config["PROPAGATE_EXCEPTIONS"] = True
    app.config["TRAP_BAD_REQUEST_ERRORS"] = True
    app.config["TRAP_HTTP_EXCEPTIONS"] = True
    app.extensions["modhub"] = platform
    app.config["MAX_CONTENT_LENGTH"] = max(settings.max_body_bytes, settings.max_upload_bytes)
    install_session_lifecycle(app)
    site.install(app, settings)  # the site pages: log-in, consent, pairing, SSO landing
    app.session_interface = CookieSessions()  # a request without the cookie skips the serializer
    app.register_blueprint(blobs.bp)  # signed download URLs of the disk storage
    return app


def serve_beside(app: connexion.AsyncApp, other) -> None:
    """Hand the requests no operation claims to `other` (the site pages), not to a 404.

    The AsyncApp's router sends such a request to its own routes (`app.add_url_rule`) and then
    to each API's router, mounted at the API's base path (`/`: every path); `other` becomes the
    default of both, so the app's own routes still come first.
    """
    inner = app._middleware_app
    inner.router.default = other
    add_api = inner.add_api

    def add_api_then_default(*args, **kwargs):
        api = add_api(*args, **kwargs)
        api.router.default = other
        return api

    inner.add_api = add_api_then_default


def create_app(settings: Settings, **platform_parts) -> connexion.AsyncApp:
    """The ASGI application serving the whole contract (AsyncApp) and the site pages (Flask).

    `app.app` is the Flask app of the site pages; `app.app.extensions["modhub"]` the Platform.
    A request the contract routes to an operation is served by the AsyncApp: the handler runs in
    a bounded pool of HANDLER_THREADS threads (modhub.web.Operation) unless it answers on the
    event loop. Any other request (a site page, an unknown path) goes to Flask, through the
    one-hop WSGI bridge (modhub.bridge).
    """
    platform = build_platform(settings, **platform_parts)
    platform.gatekeeper = Gatekeeper(platform)
    middlewares = [
        ServerErrorMiddleware,
        partial(
            EdgeMiddleware,
            max_body_bytes=settings.max_body_bytes,
            max_upload_bytes=settings.max_upload_bytes,
            max_header_bytes=settings.max_header_bytes,
            uploads=upload_paths(platform.contract.document),
        ),
        ExceptionMiddleware,
        SigningDocsMiddleware,
        RoutingMiddleware,
        partial(GatewayMiddleware, gatekeeper=platform.gatekeeper),
        RequestValidationMiddleware,
        LifespanMiddleware,
        ContextMiddleware,
    ]
    # Left out of Connexion's defaults: SecurityMiddleware (the gateway checks signatures, keys
    # and tokens) and SwaggerUIMiddleware (SigningDocsMiddleware serves the docs page); response
    # validation only where it is on (tests): otherwise it is a pass-through costing a lookup.
    if settings.validate_responses:
        middlewares.insert(middlewares.index(RequestValidationMiddleware) + 1, ResponseValidationMiddleware)
    if settings.validate_responses:  # tests: a 4xx code must be one its operation declares
        middlewares.insert(
            0,
            partial(
                DeclaredErrorsMiddleware,
                declared=declared_codes(platform.contract.document),
                record_dir=os.environ.get("MODHUB_RECORD_ERROR_CODES"),
            ),
        )
    app = connexion.AsyncApp(__name__, middlewares=middlewares)
    app.app = site_app(settings, platform)
    serve_beside(app, bridge.OneHopWSGI(app.app.wsgi_app, workers=10))
    pool = ThreadPoolExecutor(HANDLER_THREADS, thread_name_prefix="modhub-handler")
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
