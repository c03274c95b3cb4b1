"""Request validators whose messages name the offending field."""

from __future__ import annotations

import json
import typing as t

from connexion.datastructures import MediaTypeDict
from connexion.json_schema import Draft4RequestValidator
from connexion.utils import is_null, is_nullable
from connexion.validators import (
    VALIDATOR_MAP,
    JSONRequestBodyValidator,
    MultiPartFormDataValidator,
    ParameterValidator,
)
from jsonschema import Draft4Validator, FormatChecker, ValidationError, validators
from starlette.datastructures import Headers
from starlette.formparsers import MultiPartParser
from werkzeug.http import parse_options_header

from modhub.core.errors import ApiError

INT64 = (-(2**63), 2**63 - 1)
_BOUNDS = {"int32": (-(2**31), 2**31 - 1), "int64": INT64}

# The contract's integer formats are bounds: checked here, once, for every parameter and body
# field, so an id beyond int64 is a 400 and never reaches a database (SQLite overflows,
# PostgreSQL answers nothing).
FORMATS = FormatChecker()
for _name, _check in Draft4Validator.FORMAT_CHECKER.checkers.items():
    FORMATS.checks(_name, _check[1])(_check[0])


def _in_bounds(fmt: str):
    low, high = _BOUNDS[fmt]

    def check(value) -> bool:
        return not isinstance(value, int) or isinstance(value, bool) or low <= value <= high

    return check


for _fmt in _BOUNDS:
    FORMATS.checks(_fmt)(_in_bounds(_fmt))


def _typed_int64(base):
    """`base` whose `type: integer` also bounds the value to int64 when no format says more."""
    check_type = base.VALIDATORS["type"]

    def type_(validator, types, instance, schema):
        yield from check_type(validator, types, instance, schema)
        if (
            "integer" in (types if isinstance(types, list) else [types])
            and isinstance(instance, int)
            and not isinstance(instance, bool)
            and not INT64[0] <= instance <= INT64[1]
        ):
            yield ValidationError(f"{instance} is beyond the 64-bit integer range")

    return validators.extend(base, {"type": type_})


_PLAIN_INTEGER_KEYS = frozenset(
    {"type", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
    # annotations: they validate nothing
    | {"description", "title", "example", "examples", "default", "deprecated"}
)


def _plain_integer(schema) -> t.Callable[[t.Any], bool] | None:
    """For an items schema that is a bounded integer and nothing else ({type: integer, format:
    int64, minimum: 1}), a predicate that holds only of values the schema accepts; else None."""
    if not isinstance(schema, dict) or schema.get("type") != "integer":
        return None
    if any(key not in _PLAIN_INTEGER_KEYS and not key.startswith("x-") for key in schema):
        return None
    if schema.get("format", "int64") not in _BOUNDS:
        return None
    low, high = _BOUNDS[schema.get("format", "int64")]
    if "minimum" in schema:
        low = max(low, schema["minimum"] + (1 if schema.get("exclusiveMinimum") else 0))
    if "maximum" in schema:
        high = min(high, schema["maximum"] - (1 if schema.get("exclusiveMaximum") else 0))
    if not (isinstance(low, int) and isinstance(high, int)):
        return None
    return lambda value: type(value) is int and low <= value <= high


def _kept(table: dict, key: t.Hashable, schema, build: t.Callable[[t.Any], t.Any]) -> t.Any:
    """build(schema), worked out on first use and kept under key (holding the schema's identity:
    the contract's schemas live as long as the app). Bounded: one app has a few hundred; many apps
    (tests) start over."""
    entry = table.get(key)
    if entry is None or entry[0] is not schema:
        if len(table) >= 4096:
            table.clear()
        entry = table[key] = (schema, build(schema))
    return entry[1]


_PLAIN: dict[int, tuple[t.Any, t.Callable[[t.Any], bool] | None]] = {}


def _plain_check(schema) -> t.Callable[[t.Any], bool] | None:
    """_plain_integer of a contract schema, kept."""
    return _kept(_PLAIN, id(schema), schema, _plain_integer)


def _with_plain_items(base):
    """`base` whose `items` keyword passes a list of plain integers (a batch's ids) in one loop:
    a list where any value fails the predicate is validated item by item as before, so every
    error is jsonschema's own."""
    check_items = base.VALIDATORS["items"]

    def items(validator, items_schema, instance, schema):
        if isinstance(instance, list):
            check = _plain_check(items_schema)
            if check is not None and all(map(check, instance)):
                return
        yield from check_items(validator, items_schema, instance, schema)

    return validators.extend(base, {"items": items})


ParameterSchemaValidator = _typed_int64(Draft4Validator)
BodySchemaValidator = _with_plain_items(_typed_int64(Draft4RequestValidator))

_VALIDATORS: dict[tuple[type, int], tuple[dict, Draft4Validator]] = {}


def _kept_validator(cls, schema: dict) -> Draft4Validator:
    """The validator of a schema, built on first use and kept."""
    return _kept(_VALIDATORS, (cls, id(schema)), schema, lambda s: cls(s, format_checker=FORMATS))


def _schema_validator(schema: dict) -> Draft4Validator:
    """The kept validator of a parameter schema."""
    return _kept_validator(ParameterSchemaValidator, schema)


class NamedParameterValidator(ParameterValidator):
    """Parameter validation whose message starts with the parameter's name. An operation that
    declares query parameters refuses any other one (200301): a misspelled filter is an error,
    never silently ignored (the contract's rule, "Query parameters")."""

    def __init__(self, parameters, uri_parser, strict_validation=False, security_query_params=None):
        parameters = list(parameters)
        strict = strict_validation or any(p.get("in") == "query" for p in parameters)
        super().__init__(parameters, uri_parser, strict, security_query_params)

    @staticmethod
    def validate_parameter(parameter_type, value, param, param_name=None):
        name = param.get("name", param_name)
        if value is None:
            if param.get("required"):
                return f"{parameter_type} parameter '{name}' is required"
            return None
        if is_nullable(param) and is_null(value):
            return None
        schema = param.get("schema", param)
        plain = _plain_check(schema)
        if plain is not None and plain(value):  # a bounded integer (an id) within its bounds
            return None
        if any("\x00" in str(v) for v in (value if isinstance(value, list) else [value])):
            # PostgreSQL text cannot hold NUL: refuse it here rather than fail in the database.
            return f"{parameter_type} parameter '{name}' must not contain NUL characters"
        if _bad_value(value):
            return f"{parameter_type} parameter '{name}' is out of range or not valid UTF-8"
        try:
            _schema_validator(schema).validate(value)
        except ValidationError as exc:
            return f"{parameter_type} parameter '{name}': {exc.message}"
        return None


_BODY_ABSENT = "modhub.body_absent"


class EnvelopeJSONBodyValidator(JSONRequestBodyValidator):
    """JSON body validation: malformed JSON gets its own code; messages carry the field path."""

    async def wrap_receive(self, receive, *, scope):
        """Note a body left out before Connexion stands a JSON null in for it."""
        if not int(Headers(scope=scope).get("content-length", 0) or 0):
            scope[_BODY_ABSENT] = True
        return await super().wrap_receive(receive, scope=scope)

    async def _parse(self, stream: t.AsyncGenerator[bytes, None], scope) -> t.Any:
        raw = b"".join([chunk async for chunk in stream])
        if not raw:
            return None
        if raw.strip() == b"null" and not scope.get(_BODY_ABSENT) and not self._nullable:
            # a body sent as JSON null is not a body left out: the schema says object
            raise ApiError("PARAMETER_INVALID", "request body must be a JSON object, not null")
        try:
            body = json.loads(raw.decode(self._encoding))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ApiError("MALFORMED_BODY", f"request body is not valid JSON: {exc}") from exc
        except RecursionError as exc:
            raise ApiError("MALFORMED_BODY", "request body is nested too deeply") from exc
        except ValueError as exc:  # a number beyond Python's digit limit
            raise ApiError("MALFORMED_BODY", f"request body is not valid JSON: {exc}") from exc
        if b"\\u0000" in raw and _has_nul(body):
            # PostgreSQL text cannot hold NUL: refuse it here rather than fail in the database.
            raise ApiError("PARAMETER_INVALID", "request body must not contain NUL characters")
        if (b"\\u" in raw or b"\\U" in raw) and _bad_value(body, ints=False):
            # a lone UTF-16 surrogate cannot be stored (the driver cannot encode it)
            raise ApiError("PARAMETER_INVALID", "request body holds a lone UTF-16 surrogate")
        return body

    @property
    def _validator(self):
        return _kept_validator(BodySchemaValidator, self._schema)

    def _validate(self, body: t.Any) -> dict | None:
        if body is None and not self._required:
            return None  # an optional body left out (Connexion would call that empty: a 400)
        if not self._nullable and body is None:
            raise ApiError("PARAMETER_INVALID", "request body is required")
        try:
            return self._validator.validate(body)
        except ValidationError as exc:
            where = ".".join(str(p) for p in exc.absolute_path)
            raise ApiError("PARAMETER_INVALID", f"body{'.' + where if where else ''}: {exc.message}") from exc


STREAMED_MULTIPART = "application/x-modhub-streamed-multipart"


class ClosingMultiPartValidator(MultiPartFormDataValidator):
    """Connexion's multipart validation, closing the temporary files it parsed (it leaves them open).

    The handler reads the upload again from the request, so the validator's copies are only needed
    while validating.

    A schema marked `x-modhub-streamed: true` is not parsed here at all (Connexion would hold
    every message of the body in memory to replay it): the body passes through untouched, with
    its Content-Type renamed to STREAMED_MULTIPART (boundary kept) so that neither Connexion nor
    Werkzeug parses the form before the handler, which streams the parts itself.
    """

    async def wrap_receive(self, receive, *, scope):
        if not self._schema.get("x-modhub-streamed"):
            return await super().wrap_receive(receive, scope=scope)
        _, options = parse_options_header(Headers(scope=scope).get("content-type", ""))
        boundary = options.get("boundary", "")
        if not boundary or len(boundary) > 200:
            raise ApiError("PARAMETER_INVALID", "multipart/form-data needs a boundary")
        headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-type"]
        headers.append((b"content-type", f'{STREAMED_MULTIPART}; boundary="{boundary}"'.encode()))
        return receive, {**scope, "headers": headers}

    async def _parse(self, stream, scope) -> dict:
        forms = []

        class Recording(MultiPartParser):
            async def parse(self):
                form = await super().parse()
                forms.append(form)
                return form

        # The parent reads _form_parser_cls before its first await, so this per-call value
        # cannot leak into a concurrent request on the same event loop.
        self._parser_cls = Recording
        try:
            return await super()._parse(stream, scope)
        finally:
            for form in forms:
                await form.close()

    @property
    def _form_parser_cls(self):
        return getattr(self, "_parser_cls", MultiPartParser)


def _bad_value(value, ints: bool = True) -> bool:
    """True for a string that is not valid UTF-8 (a lone surrogate) or (ints) an integer beyond int64.

    Bodies pass ints=False: their declared integers are bounded by the schema (BodySchemaValidator),
    and a big number in a free-form field the server ignores is schema-valid.
    """
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return ints and not INT64[0] <= value <= INT64[1]
    if isinstance(value, dict):
        return any(_bad_value(k, ints) or _bad_value(v, ints) for k, v in value.items())
    if isinstance(value, list):
        return any(_bad_value(v, ints) for v in value)
    return False


def _has_nul(value) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


VALIDATORS = {
    **VALIDATOR_MAP,
    "parameter": NamedParameterValidator,
    "body": MediaTypeDict(
        {
            **VALIDATOR_MAP["body"],
            "*/*json": EnvelopeJSONBodyValidator,
            "multipart/form-data": ClosingMultiPartValidator,
        }
    ),
}
