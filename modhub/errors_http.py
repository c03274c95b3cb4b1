"""Every failure answers with the envelope: Connexion problems, HTTP errors, crashes and ApiError.

Handlers are installed on the Connexion app (so errors raised in middleware are covered) and on
the inner Flask app (unknown paths and wrong methods end there, and 405 must keep `Allow`).
"""

from __future__ import annotations

import json
import logging
import re

import flask
import sqlalchemy.exc
import werkzeug.exceptions
from connexion.exceptions import ProblemException
from connexion.lifecycle import ConnexionResponse
from starlette.exceptions import HTTPException

from modhub import envelope, metrics
from modhub.core.errors import ApiError
from modhub.core.storage import ContentMismatch, ObjectMissing, StorageError

log = logging.getLogger("modhub.errors")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def printable(text: str) -> str:
    """Text from a request made safe for one log line: control characters escaped (no forged lines)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class PrintableArgs(logging.Filter):
    """Escapes control characters in a record's string arguments. Connexion logs an unknown query
    parameter's name as sent (at ERROR, for every request with one): `?a%0Aforged=1` would start
    a forged line. Such a name is the client's business: the record also goes down to DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the arguments in place; never drops the record."""
        if isinstance(record.args, tuple):
            record.args = tuple(printable(a) if isinstance(a, str) else a for a in record.args)
        if record.levelno >= logging.ERROR and "not defined in specification" in str(record.msg):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


# Loggers that put request text (parameter names) into their records.
REQUEST_TEXT_LOGGERS = ("connexion.decorators.parameter",)


# HTTP status of an exception that is not an ApiError -> catalog entry.
_BY_STATUS = {
    400: "PARAMETER_INVALID",
    401: "AUTH_HEADERS_MISSING",
    404: "PATH_NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    413: "BODY_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    501: "NOT_IMPLEMENTED",
}


def as_api_error(status: int, detail: str | None, headers: dict | None = None) -> ApiError:
    """Translate a framework HTTP error into its catalog code, keeping a useful message."""
    name = _BY_STATUS.get(status, "INTERNAL_ERROR" if status >= 500 else "PARAMETER_INVALID")
    if name == "PARAMETER_INVALID" and detail and "not valid JSON" in detail:
        name = "MALFORMED_BODY"
    message = detail if detail and status < 500 else None
    return ApiError(name, message, headers=headers)


def _response(exc: ApiError) -> ConnexionResponse:
    return ConnexionResponse(
        status_code=exc.status,
        body=envelope.error_bytes(exc),
        content_type="application/json",
        headers=dict(exc.headers),
    )


async def on_api_error(_request, exc: ApiError) -> ConnexionResponse:
    """An ApiError raised anywhere."""
    if exc.code in (200101, 200102):
        metrics.quota_refused(exc.code)
    if exc.status >= 500 and exc.code != 200501:  # an honest gap is not a server fault
        log.error("traceId=%s code=%s %s", envelope.trace_id(), exc.code, printable(exc.message))
    return _response(exc)


async def on_problem(_request, exc: ProblemException) -> ConnexionResponse:
    """Connexion's validation and routing problems, translated (problem+json never leaks)."""
    return _response(as_api_error(exc.status, _problem_detail(exc), exc.headers))


async def on_http_exception(_request, exc: HTTPException) -> ConnexionResponse:
    """Starlette HTTP exceptions."""
    return _response(as_api_error(exc.status_code, exc.detail, dict(exc.headers or {})))


def database_unavailable(exc: BaseException) -> bool:
    """Whether an exception means the database cannot be reached (not a bug in a query)."""
    if isinstance(
        exc, (sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError, sqlalchemy.exc.TimeoutError)
    ):
        return True
    return isinstance(exc, sqlalchemy.exc.DBAPIError) and exc.connection_invalidated


def storage_unavailable(exc: BaseException) -> bool:
    """Whether an exception means the file storage cannot be reached (S3 down, a timeout)."""
    if isinstance(exc, StorageError) and not isinstance(exc, (ObjectMissing, ContentMismatch)):
        return True
    return type(exc).__module__.startswith(("botocore.", "urllib3.", "boto3."))


async def on_crash(_request, exc: Exception) -> ConnexionResponse:
    """Anything unexpected: logged with its traceId, answered without internals.

    The one place a database outage becomes 503 / 200503: one warning line, no traceback.
    """
    if database_unavailable(exc):
        first = str(getattr(exc, "orig", exc)).strip().splitlines()[:1]
        log.warning(
            "traceId=%s database unavailable: %s %r",
            envelope.trace_id(),
            type(exc).__name__,
            first[0] if first else "",
        )
        return _response(ApiError("DEPENDENCY_UNAVAILABLE", "the database is unavailable"))
    if storage_unavailable(exc):
        log.warning("traceId=%s file storage unavailable: %s", envelope.trace_id(), type(exc).__name__)
        return _response(ApiError("DEPENDENCY_UNAVAILABLE", "the file storage is unavailable"))
    if isinstance(exc, sqlalchemy.exc.DataError) or isinstance(exc, OverflowError):
        # the last net under validation: a value the column cannot hold is the caller's error
        log.warning(
            "traceId=%s value refused by the database: %s",
            envelope.trace_id(),
            type(getattr(exc, "orig", exc)).__name__,
        )
        return _response(ApiError("PARAMETER_INVALID", "a value is out of range for its field"))
    log.error("traceId=%s unhandled %s", envelope.trace_id(), type(exc).__name__, exc_info=exc)
    return _response(ApiError("INTERNAL_ERROR"))


def _problem_detail(exc: ProblemException) -> str | None:
    detail = exc.detail
    if isinstance(detail, (list, dict)):
        detail = json.dumps(detail)
    return detail or exc.title


def _flask_http_error(exc: werkzeug.exceptions.HTTPException):
    headers = {}
    if isinstance(exc, werkzeug.exceptions.MethodNotAllowed) and exc.valid_methods:
        headers["Allow"] = ", ".join(sorted(exc.valid_methods))
    # werkzeug's descriptions address a person at a browser ("check your spelling"): a routing
    # refusal gets the catalog's plain message
    plain = isinstance(exc, (werkzeug.exceptions.NotFound, werkzeug.exceptions.MethodNotAllowed))
    err = as_api_error(exc.code or 500, None if plain else exc.description, headers)
    return flask.Response(
        envelope.error_bytes(err), status=err.status, headers=err.headers, mimetype="application/json"
    )


def install(app) -> None:
    """Register the envelope handlers on the Connexion app and its Flask app."""
    app.add_error_handler(ApiError, on_api_error)
    app.add_error_handler(ProblemException, on_problem)
    app.add_error_handler(HTTPException, on_http_exception)
    app.add_error_handler(Exception, on_crash)
    app.app.register_error_handler(werkzeug.exceptions.HTTPException, _flask_http_error)
    for name in REQUEST_TEXT_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, PrintableArgs) for f in logger.filters):
            logger.addFilter(PrintableArgs())
