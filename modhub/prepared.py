"""Per-request work of Connexion and Flask moved to start-up (same behaviour, less CPU per request).

- Connexion 3's AsyncOperation (the API, modhub.app) and FlaskOperation build their decorator
  chain (sync wrapper, parameter decorator with an `inspect.signature` of the handler, response
  decorator) and a URI parser on every call. None of it depends on the request:
  `prepare_async_when_built` (AsyncApp) and `prepare_operations` (FlaskApp) build the chain once
  per operation and keep its URI parser after the first request (the parser holds the
  operation's parameter definitions only).
- Connexion's RequestValidationMiddleware builds a URI parser and a parameter validator for every
  request, from the operation's definitions alone: `PreparedRequestValidation` builds them once
  per operation. An operation without a request body then only validates its parameters (the
  content type and body checks have nothing to check there); one with a body is validated
  exactly as Connexion does.
- Connexion's `pythonic_params` turns each parameter name into snake_case with a few regular
  expressions on every request: the names come from the contract (and, for a handler taking
  `**kwargs`, from the query), so the answers are kept (bounded).
- Flask opens the signed-cookie session on every request once the app has a secret key (the
  site pages need one), building an itsdangerous serializer each time: a request without the
  session cookie (every API call) gets the empty session without it.
"""

from __future__ import annotations

import functools
import logging
from copy import deepcopy

import connexion.decorators.parameter as connexion_parameters
from connexion.apps.asynchronous import AsyncOperation
from connexion.apps.flask import FlaskOperation
from connexion.context import _receive, _scope, context
from connexion.context import operation as connexion_operation
from connexion.decorators import FlaskDecorator, StarletteDecorator
from connexion.decorators.parameter import (
    CONTEXT_NAME,
    AsyncParameterDecorator,
    _get_query_defaults,
    _get_val_from_param,
    unwrap_decorators,
)
from connexion.lifecycle import ConnexionRequest
from connexion.middleware.request_validation import (
    RequestValidationAPI,
    RequestValidationMiddleware,
    RequestValidationOperation,
)
from connexion.utils import deep_merge, inspect_function_arguments, is_nullable
from flask.sessions import SecureCookieSessionInterface

log = logging.getLogger("connexion.middleware.validation")  # Connexion's own, for its one message


class PreparedOperation:
    """A FlaskOperation whose decorated handler is built once."""

    def __init__(self, operation: FlaskOperation):
        self.decorator = FlaskDecorator(
            pythonic_params=operation.pythonic_params, jsonifier=operation.jsonifier
        )
        self.decorated = self.decorator.decorate(operation._fn)
        self.uri_parser = None  # read from the operation's context on the first request
        functools.update_wrapper(self, operation._fn)

    def __call__(self, *args, **kwargs):
        parser = self.uri_parser
        if parser is None:  # this view serves one operation: its parser never changes
            parser = self.uri_parser = self.decorator.uri_parser
        return self.decorated(self.decorator.framework.get_request(uri_parser=parser))


class BodilessParameters(AsyncParameterDecorator):
    """Connexion's arguments for an operation that declares no request body: from the path and
    the query alone. Connexion would read the body and parse it as a form for a handler taking
    `**kwargs` to find nothing of the contract's there (`_get_body_argument` answers {} when no
    body is defined; a file field of such a request is not the contract's). As Connexion's
    get_arguments and prep_kwargs, with the operation's path and query definitions and its query
    defaults worked out once (it is decorated during its first request, in its context)."""

    def __call__(self, function):
        arguments, has_kwargs = inspect_function_arguments(unwrap_decorators(function))
        parameters = list(connexion_operation.parameters)
        paths = {p["name"]: p for p in parameters if p["in"] == "path"}
        queries = {p["name"]: p for p in parameters if p["in"] == "query"}
        defaults = _get_query_defaults(queries)
        plain = all(isinstance(v, str | int | float | bool | None) for v in defaults.values())
        sanitize = self.sanitize_fn
        wants_context = CONTEXT_NAME in arguments

        @functools.wraps(function)
        async def wrapper(request):
            kwargs = {}
            for name, value in request.path_params.items():
                found = paths.get(name)
                kwargs[sanitize(name)] = value if found is None else _get_val_from_param(value, found)
            if queries:  # else no query value can become an argument: the query is not parsed
                query = request.query_params
                if defaults:  # scalars need no deep copy
                    query = deep_merge(dict(defaults) if plain else deepcopy(defaults), query)
                for name, value in query.items():
                    key = sanitize(name)
                    found = queries.get(name)
                    if found is not None and (has_kwargs or key in arguments):
                        kwargs[key] = _get_val_from_param(value, found)
            for key, value in context.items():  # e.g. from a security decorator (none here)
                if has_kwargs or key in arguments:
                    kwargs[key] = value
            if wants_context:
                kwargs[CONTEXT_NAME] = context
            return await function(**kwargs)

        return wrapper


class BodilessDecorator(StarletteDecorator):
    @property
    def _parameter_decorator_cls(self):
        return BodilessParameters


class PreparedAsyncOperation:
    """An AsyncOperation whose decorated handler is built once, on its first request, when the
    operation's definition is known (without the body's reading when it declares none)."""

    def __init__(self, operation: AsyncOperation):
        self.operation_id = operation.operation_id
        self.function = operation._fn
        self.options = {"pythonic_params": operation.pythonic_params, "jsonifier": operation.jsonifier}
        self.decorator: StarletteDecorator | None = None
        self.uri_parser = None

    async def __call__(self, scope, receive, send) -> None:
        decorator = self.decorator
        if decorator is None:  # this object serves one operation: none of this changes
            kind = StarletteDecorator if connexion_operation.is_request_body_defined else BodilessDecorator
            decorator = kind(**self.options)
            self.decorated = decorator.decorate(self.function)
            self.uri_parser = decorator.uri_parser
            self.decorator = decorator
        context_scope = _scope.get()
        request = context_scope.pop(VALIDATED, None)  # validated and parsed: no body to read
        if request is None:
            request = decorator.framework.get_request(
                uri_parser=self.uri_parser, scope=context_scope, receive=_receive.get()
            )
        try:
            response = await self.decorated(request)
            await response(scope, receive, send)
        finally:  # the temporary files of a parsed multipart form (Connexion leaves them open)
            await request._starlette_request.close()


VALIDATED = "modhub.validated_request"  # scope key: the request whose parameters were validated


MEDIA_TYPES_KEPT = 32  # per operation: what a media type means for its body, kept (bounded)


class PreparedValidationOperation(RequestValidationOperation):
    """Connexion's RequestValidationOperation, with what does not depend on the request worked
    out once: the parameter validator (and its URI parser) per operation, and per media type
    whether the operation accepts it and the body's schema and validator class."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        operation = self._operation
        self.parameters = self._validator_map["parameter"](
            operation.parameters,
            uri_parser=operation._uri_parser_class(operation.parameters, operation.body_definition()),
            strict_validation=self.strict_validation,
            security_query_params=self.security_query_params,
        )
        self.bodies: dict[str, tuple | None] = {}

    def _body_of(self, mime_type: str) -> tuple | None:
        """(schema, validator class, required, nullable) of a body of this media type; None when
        there is nothing to validate. Raises Connexion's 415 for a media type not accepted."""
        if mime_type in self.bodies:
            return self.bodies[mime_type]
        self.validate_mime_type(mime_type)
        operation = self._operation
        schema = operation.body_schema(mime_type)
        body = None
        if schema:
            try:
                cls = self._validator_map["body"][mime_type]
            except KeyError:
                log.info("Skipping validation. No validator registered for content type: %s.", mime_type)
            else:
                nullable = is_nullable(operation.body_definition(mime_type))
                body = (schema, cls, operation.request_body.get("required", False), nullable)
        if len(self.bodies) < MEDIA_TYPES_KEPT:
            self.bodies[mime_type] = body
        return body

    async def __call__(self, scope, receive, send):
        if not self._operation.is_request_body_defined:  # no body: the parameters alone
            request = ConnexionRequest(scope, uri_parser=self.parameters.uri_parser)
            self.parameters.validate_request(request)
            scope[VALIDATED] = request  # its parsed path and query, for the handler's arguments
            await self.next_app(scope, receive, send)
            return
        # as RequestValidationOperation.__call__, with the per-request lookups kept
        self.parameters.validate(scope)
        mime_type, encoding = self.extract_content_type(scope["headers"])
        body = self._body_of(mime_type)
        if body is not None:
            schema, cls, required, nullable = body
            validator = cls(
                schema=schema,
                required=required,
                nullable=nullable,
                encoding=encoding,
                strict_validation=self.strict_validation,
                uri_parser=self.parameters.uri_parser,
            )
            receive, scope = await validator.wrap_receive(receive, scope=scope)
        await self.next_app(scope, receive, send)


class PreparedValidationAPI(RequestValidationAPI):
    def make_operation(self, operation) -> RequestValidationOperation:
        return PreparedValidationOperation(
            self.next_app,
            operation=operation,
            strict_validation=self.strict_validation,
            validator_map=self.validator_map,
        )


class PreparedRequestValidation(RequestValidationMiddleware):
    """Connexion's request validation with each operation's parameter validator built once."""

    api_cls = PreparedValidationAPI


def prepare_async_when_built(app) -> None:
    """Prepare the operations of a Connexion AsyncApp as soon as it registers them (when its
    middleware stack is built: on the first request or at lifespan start-up)."""
    inner = app._middleware_app
    add_api = inner.add_api

    def add_api_then_prepare(*args, **kwargs):
        api = add_api(*args, **kwargs)
        for operation_id, operation in list(api.operations.items()):
            if isinstance(operation, AsyncOperation):
                api.operations[operation_id] = PreparedAsyncOperation(operation)
        return api

    inner.add_api = add_api_then_prepare


def prepare_operations(flask_app) -> int:
    """Replace the contract's view functions by prepared ones; how many were replaced."""
    count = 0
    for endpoint, view in list(flask_app.view_functions.items()):
        if isinstance(view, FlaskOperation):
            flask_app.view_functions[endpoint] = PreparedOperation(view)
            count += 1
    return count


def prepare_when_built(app) -> None:
    """Prepare the operations of a Connexion FlaskApp as soon as it registers them.

    Connexion registers the contract's operations on the Flask app when it builds its middleware
    stack (on the first request or at lifespan start-up, so that middlewares can still be added
    after create_app), by calling the Flask side's add_api: that call is followed here.
    """
    flask_side = app.middleware.app
    add_api = flask_side.add_api

    def add_api_then_prepare(*args, **kwargs):
        api = add_api(*args, **kwargs)
        prepare_operations(flask_side.app)
        return api

    flask_side.add_api = add_api_then_prepare


# Read by each parameter decorator when it is built (FlaskDecorator.decorate), so set at import.
connexion_parameters.pythonic = functools.lru_cache(maxsize=4096)(connexion_parameters.pythonic)


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, opened without a serializer when there is no cookie."""

    def open_session(self, app, request):
        """The empty session for a request without the cookie, else Flask's own answer."""
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)
