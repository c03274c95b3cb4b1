"""The application factory: Connexion (Flask) wired to the contract, the gateway and the envelope."""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import connexion
import redis
import yaml
from connexion.middleware.context import ContextMiddleware
from connexion.middleware.exceptions import ExceptionMiddleware
from connexion.middleware.lifespan import LifespanMiddleware
from connexion.middleware.request_validation import RequestValidationMiddleware
from connexion.middleware.response_validation import ResponseValidationMiddleware
from connexion.middleware.routing import RoutingMiddleware
from connexion.middleware.server_error import ServerErrorMiddleware
from connexion.options import SwaggerUIOptions
from connexion.resolver import Resolution, Resolver
from connexion.utils import get_function_from_name

from modhub import errors_http, site
from modhub.crypto import SecretBox
from modhub.db import Database
from modhub.docs_ui import SigningDocsMiddleware
from modhub.edge import EdgeMiddleware, upload_paths
from modhub.gateway import Gatekeeper, GatewayMiddleware
from modhub.quota import LocalQuota, RedisQuota
from modhub.settings import Settings
from modhub.validation import JSONIFIER, VALIDATORS
from modhub.web import install_session_lifecycle

log = logging.getLogger(__name__)
SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.yaml"
DOCS_PATH = "/openapi/v2/meta/docs"


@dataclass
class Contract:
    """The contract, read once: the parsed document and its served JSON and YAML forms."""

    document: dict
    yaml_bytes: bytes
    json_bytes: bytes

    @classmethod
    def load(cls, path: Path = SPEC_PATH) -> Contract:
        """Read and parse openapi.yaml."""
        raw = path.read_bytes()
        document = yaml.safe_load(raw)
        return cls(document, raw, json.dumps(document, ensure_ascii=False).encode())


@dataclass
class Platform:
    """The long-lived services a request may use; built once per app."""

    settings: Settings
    db: Database
    quota: object
    secrets: SecretBox
    contract: Contract
    clock: Callable[[], dt.datetime] = field(
        default=lambda: dt.datetime.now(dt.UTC))


class HandlerResolver(Resolver):
    """Resolves an operation to the function named by its `x-handler`, keeping its operationId.

    Alias paths have distinct operationIds (Connexion keys its state by them) and share one
    function.
    """

    def resolve(self, operation):
        target = operation._operation.get("x-handler") or operation.operation_id
        return Resolution(self.resolve_function_from_operation_id(target), operation.operation_id)


def build_platform(settings: Settings, *, db: Database | None = None, quota=None,
                   contract: Contract | None = None) -> Platform:
    """Connect the database and the quota store named by the settings."""
    if quota is None:
        if settings.redis_url:
            # bounded waits: a stalled Redis fails requests with 200503 instead of holding them
            quota = RedisQuota(redis.Redis.from_url(settings.redis_url, socket_timeout=1,
                                                    socket_connect_timeout=1))
        else:
            log.warning("MODHUB_REDIS_URL is not set: quotas are counted per process "
                        "(embedded mode); run with Redis to share them across processes")
            quota = LocalQuota()
    platform = Platform(settings=settings, db=db or Database.from_url(settings.database_url),
                        quota=quota, secrets=SecretBox(settings.encryption_key),
                        contract=contract or Contract.load())
    from workers.relay import RQDispatcher, attach  # webhooks: hand committed events to RQ
    attach(platform.db, RQDispatcher.from_settings(settings))
    return platform


def create_app(settings: Settings, **platform_parts) -> connexion.FlaskApp:
    """The ASGI application serving the whole contract."""
    platform = build_platform(settings, **platform_parts)
    middlewares = [
        ServerErrorMiddleware,
        partial(EdgeMiddleware, max_body_bytes=settings.max_body_bytes,
                max_upload_bytes=settings.max_upload_bytes,
                uploads=upload_paths(platform.contract.document)),
        ExceptionMiddleware,
        SigningDocsMiddleware,
        RoutingMiddleware,
        partial(GatewayMiddleware, gatekeeper=Gatekeeper(platform)),
        RequestValidationMiddleware,
        ResponseValidationMiddleware,
        LifespanMiddleware,
        ContextMiddleware,
    ]
    app = connexion.FlaskApp(__name__, middlewares=middlewares)
    app.add_api(
        platform.contract.document,
        resolver=HandlerResolver(get_function_from_name),
        pythonic_params=True,
        jsonifier=JSONIFIER,
        validator_map=VALIDATORS,
        validate_responses=settings.validate_responses,
        swagger_ui_options=SwaggerUIOptions(
            serve_spec=False, swagger_ui_path=DOCS_PATH,
            swagger_ui_config={"url": "/openapi/v2/meta/openapi.json"}),
    )
    errors_http.install(app)
    app.app.extensions["modhub"] = platform
    app.app.config["MAX_CONTENT_LENGTH"] = max(settings.max_body_bytes, settings.max_upload_bytes)
    install_session_lifecycle(app.app)
    site.install(app.app, settings)  # the site pages: log-in, consent, pairing, SSO landing
    return app
