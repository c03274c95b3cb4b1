"""The error-code catalog and the exception every layer raises to answer with an envelope.

The catalog is the single source of codes; `openapi/openapi.yaml` documents the same table in
its `info.description` (a test keeps the two in step). Ranges follow DESIGN.md:
2001xx gateway and quota, 2002xx application auth and permission, 2003xx bad request,
2004xx not found / method, 2005xx server, 2009xx codes, tickets and pairing.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ErrorCode:
    """One catalog entry: numeric code, stable name, HTTP status and default message."""

    code: int
    name: str
    status: int
    message: str


_CATALOG = [
    ErrorCode(200101, "RATE_LIMIT_EXCEEDED", 429, "per-minute request quota exceeded"),
    ErrorCode(200102, "DAILY_LIMIT_EXCEEDED", 429, "per-day request quota exceeded"),
    ErrorCode(200103, "IP_NOT_ALLOWED", 403, "caller address is not on the application's allow-list"),
    ErrorCode(
        200104,
        "REPORT_LIMIT_EXCEEDED",
        429,
        "the application opened its daily number of new download-failure reports (Retry-After)",
    ),
    ErrorCode(200201, "AUTH_HEADERS_MISSING", 401, "X-API-Key, X-Timestamp and X-Signature are required"),
    ErrorCode(200202, "API_KEY_UNKNOWN", 401, "unknown API key"),
    ErrorCode(200203, "APP_NOT_APPROVED", 403, "application is not approved yet"),
    ErrorCode(200204, "APP_DISABLED", 403, "application is disabled"),
    ErrorCode(200205, "PROXY_PERMISSION_REQUIRED", 403, "application lacks the user:proxy permission"),
    ErrorCode(200206, "TIMESTAMP_MALFORMED", 401, "X-Timestamp must be 13-digit Unix milliseconds"),
    ErrorCode(200207, "TIMESTAMP_OUT_OF_WINDOW", 401, "X-Timestamp is more than 300 s away from server time"),
    ErrorCode(200208, "SIGNATURE_INVALID", 401, "X-Signature does not match the string-to-sign"),
    ErrorCode(200209, "PROXY_USER_REQUIRED", 401, "X-Proxy-User-Id is required on this operation"),
    ErrorCode(200210, "PROXY_TOKEN_REQUIRED", 401, "X-Proxy-Access-Token is required on this operation"),
    ErrorCode(
        200211, "PROXY_TOKEN_INVALID", 401, "proxy access token is unknown or belongs to another application"
    ),
    ErrorCode(200212, "PROXY_TOKEN_EXPIRED", 401, "proxy access token has expired"),
    ErrorCode(200213, "PROXY_TOKEN_REVOKED", 401, "proxy access token was revoked"),
    ErrorCode(200214, "SCOPE_DENIED", 403, "the proxy token does not carry the scope this operation needs"),
    ErrorCode(200215, "PROXY_USER_INVALID", 401, "X-Proxy-User-Id is not a known user id"),
    ErrorCode(
        200216, "REQUEST_REPLAYED", 401, "this signed write was already accepted; send a new timestamp"
    ),
    ErrorCode(200230, "COMMENTS_CLOSED", 403, "the record does not accept comments"),
    ErrorCode(200231, "BLOCKED_BY_RECIPIENT", 403, "the recipient has blocked this user"),
    ErrorCode(200232, "NOT_QUESTION_AUTHOR", 403, "only the question's author may accept an answer"),
    ErrorCode(200301, "PARAMETER_INVALID", 400, "a parameter or body field is invalid"),
    ErrorCode(200302, "BODY_TOO_LARGE", 413, "request body exceeds the size limit"),
    ErrorCode(200303, "UNSUPPORTED_MEDIA_TYPE", 415, "unsupported Content-Type"),
    ErrorCode(200304, "MAX_OFFSET_EXCEEDED", 400, "page too deep: use the sync endpoint to read everything"),
    ErrorCode(200305, "MALFORMED_BODY", 400, "request body is not valid JSON"),
    ErrorCode(200306, "CURSOR_INVALID", 400, "cursor is malformed"),
    ErrorCode(200307, "HEADER_AMBIGUOUS", 400, "a header that must appear once appears more than once"),
    ErrorCode(
        200308, "HEADERS_TOO_LARGE", 431, "request headers exceed the size limit (MODHUB_MAX_HEADER_BYTES)"
    ),
    ErrorCode(
        200320,
        "CLOUD_DISK_NOT_DOWNLOADABLE",
        400,
        "a CLOUD_DISK file is a cloud-disk share: read its downInfo, it cannot be downloaded here",
    ),
    ErrorCode(
        200321,
        "FILE_HAS_NO_EXTERNAL_LINK",
        400,
        "an on-site (DIRECT_UPLOAD) file has no external link: use download-auth or download-file",
    ),
    ErrorCode(200330, "SELF_FOLLOW", 400, "a user cannot follow themselves"),
    ErrorCode(200331, "SELF_MESSAGE", 400, "a user cannot message themselves"),
    ErrorCode(
        200340, "DOWNLOAD_LINK_INVALID", 403, "download link is malformed or its signature does not match"
    ),
    ErrorCode(
        200341, "DOWNLOAD_LINK_EXPIRED", 403, "download link has expired: ask download-auth for a new one"
    ),
    ErrorCode(200342, "DOWNLOAD_LINK_OTHER_APP", 403, "download link was issued to another application"),
    ErrorCode(
        200343, "ENTITLEMENT_REQUIRED", 403, "the user does not own this resource (paid or members-only)"
    ),
    ErrorCode(
        200344,
        "DOWNLOAD_USER_REQUIRED",
        403,
        "this resource is downloadable by signed-in users only: send the proxy user",
    ),
    ErrorCode(200401, "PATH_NOT_FOUND", 404, "no such path"),
    ErrorCode(200402, "METHOD_NOT_ALLOWED", 405, "method not allowed on this path"),
    ErrorCode(200404, "RECORD_NOT_FOUND", 404, "record not found"),
    ErrorCode(200409, "CONFLICT", 409, "the request conflicts with existing data"),
    ErrorCode(200420, "FILE_CONTENT_MISSING", 404, "the file's content is not stored on this platform"),
    ErrorCode(200500, "INTERNAL_ERROR", 500, "internal server error"),
    ErrorCode(200501, "NOT_IMPLEMENTED", 501, "this operation is declared but not implemented yet"),
    ErrorCode(200503, "DEPENDENCY_UNAVAILABLE", 503, "a backing service is unavailable"),
    ErrorCode(
        200600,
        "LOBBY_UPLOAD_TOKEN_INVALID",
        403,
        "the upload token is invalid, expired, already used or not for this resource",
    ),
    ErrorCode(
        200601,
        "LOBBY_HASH_MISMATCH",
        400,
        "the uploaded bytes do not have the reserved sha256; nothing was stored",
    ),
    ErrorCode(
        200602,
        "LOBBY_SIZE_MISMATCH",
        400,
        "the uploaded bytes do not have the reserved sizeBytes; nothing was stored",
    ),
    ErrorCode(200603, "LOBBY_RESOURCE_STATE", 409, "the lobby resource is not in a state that allows this"),
    ErrorCode(
        200604, "LOBBY_UPLOAD_NOT_FOUND", 400, "a USER_UPLOAD item names a sha256 this user has not uploaded"
    ),
    ErrorCode(
        200605,
        "LOBBY_COMMUNITY_FILE_INVALID",
        400,
        "a COMMUNITY item must name a listed resource and one of its files",
    ),
    ErrorCode(
        200606,
        "LOBBY_INSTALL_PATH_UNSAFE",
        400,
        "clientInstallPath must be a relative path without '..' segments",
    ),
    ErrorCode(
        200607,
        "LOBBY_UPLOAD_INCOMPLETE",
        400,
        "the upload ended before the whole file arrived; nothing was stored",
    ),
    ErrorCode(
        200701,
        "DRAFT_NOT_EDITABLE",
        409,
        "the draft is in review or already published: it cannot be saved or submitted now",
    ),
    ErrorCode(
        200702,
        "POST_VERSION_STALE",
        409,
        "the resource changed since this edit was based on it (postVersion is stale): reload and edit again",
    ),
    ErrorCode(200703, "NOT_RESOURCE_OWNER", 403, "only the resource's owner may edit it"),
    ErrorCode(200704, "RESOURCE_NOT_PUBLISHED", 409, "only a published resource can be edited"),
    ErrorCode(
        200705,
        "DRAFT_INCOMPLETE",
        400,
        "mainName, sectionCode, resourceTypeId and mainCategory are needed to submit for review",
    ),
    ErrorCode(
        200706,
        "TAXONOMY_INVALID",
        400,
        "unknown section, resource type, run platform or category, or a category of another section",
    ),
    ErrorCode(200707, "RELATION_TARGET_UNKNOWN", 400, "a relation points to a resource that is not listed"),
    ErrorCode(
        200708, "AUTHORS_INVALID", 400, "authors must be a JSON array of {userId, role} of existing users"
    ),
    ErrorCode(
        200709,
        "PRICE_INVALID",
        400,
        "a paid resource needs priceCurrencyCode (ISO 4217) and a positive priceAmount",
    ),
    ErrorCode(200710, "DRAFT_FILE_UNKNOWN", 400, "a file id is not a draft file uploaded by this user"),
    ErrorCode(200711, "REVIEW_NOT_PENDING", 409, "the draft is not waiting for review"),
    ErrorCode(200712, "REF_LINK_INVALID", 400, "refLink must be a JSON array of links"),
    ErrorCode(200800, "SELF_ANSWER", 400, "the author of a question cannot answer it"),
    ErrorCode(200801, "SELF_VOTE", 400, "a user cannot vote on their own post or answer"),
    ErrorCode(200911, "AUTH_CODE_INVALID", 400, "authCode is invalid, expired or already used"),
    ErrorCode(200912, "AUTH_CODE_USER_MISMATCH", 400, "authCode was issued to another user"),
    ErrorCode(200913, "PAIRING_CODE_INVALID", 400, "pairing code is invalid, expired or already redeemed"),
    ErrorCode(200914, "SSO_TICKET_INVALID", 400, "SSO ticket is invalid, expired or already used"),
    ErrorCode(
        200915, "CODE_GUESSING_LOCKED", 429, "too many wrong codes; retry after the cool-down (Retry-After)"
    ),
]

CATALOG: dict[str, ErrorCode] = {e.name: e for e in _CATALOG}
BY_CODE: dict[int, ErrorCode] = {e.code: e for e in _CATALOG}


class ApiError(Exception):
    """Raised anywhere in a request to answer with the envelope for a catalog code."""

    def __init__(self, name: str, message: str | None = None, *, headers: dict | None = None):
        entry = CATALOG[name]
        super().__init__(message or entry.message)
        self.entry = entry
        self.message = message or entry.message
        self.headers = headers or {}

    @property
    def code(self) -> int:
        """The numeric business code."""
        return self.entry.code

    @property
    def status(self) -> int:
        """The HTTP status that accompanies the code."""
        return self.entry.status


def not_implemented(operation_id: str) -> ApiError:
    """The honest answer of an operation whose handler is not built yet (HTTP 501)."""
    return ApiError("NOT_IMPLEMENTED", f"{operation_id} is declared in the contract but not implemented yet")
