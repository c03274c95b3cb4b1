"""modhub-client: the typed Python client of the modhub Open API (version follows the contract)."""

from __future__ import annotations

__version__ = "1.0.0"

from modhub_client._core import EtagCache, RetryPolicy  # noqa: E402
from modhub_client.aio import AsyncClient  # noqa: E402
from modhub_client.client import Client  # noqa: E402
from modhub_client.downloads import Downloaded, expected_hashes, hash_file, verify_file  # noqa: E402
from modhub_client.errors import (  # noqa: E402
    ApiError,
    AuthError,
    Conflict,
    HashMismatch,
    InvalidRequest,
    ModhubError,
    NotFound,
    PermissionDenied,
    RateLimited,
    ServerError,
    SignatureInvalid,
    VerificationError,
    WebhookRejected,
)
from modhub_client.keys import KeySet  # noqa: E402
from modhub_client.oauth import authorize_url, parse_redirect  # noqa: E402
from modhub_client.signing import Credentials, ProxyUser, sign, string_to_sign  # noqa: E402
from modhub_client.sync import Change, SyncState  # noqa: E402
from modhub_client.webhooks import ReplayCache, WebhookEvent, WebhookReceiver, webhook_signature  # noqa: E402

__all__ = [
    "ApiError",
    "AsyncClient",
    "AuthError",
    "Change",
    "Client",
    "Conflict",
    "Credentials",
    "Downloaded",
    "EtagCache",
    "HashMismatch",
    "InvalidRequest",
    "KeySet",
    "ModhubError",
    "NotFound",
    "PermissionDenied",
    "ProxyUser",
    "RateLimited",
    "ReplayCache",
    "RetryPolicy",
    "ServerError",
    "SignatureInvalid",
    "SyncState",
    "VerificationError",
    "WebhookEvent",
    "WebhookReceiver",
    "WebhookRejected",
    "__version__",
    "authorize_url",
    "expected_hashes",
    "hash_file",
    "parse_redirect",
    "sign",
    "string_to_sign",
    "verify_file",
    "webhook_signature",
]
