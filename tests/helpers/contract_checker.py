"""The contract checker of the functional tests: every response a test's signed client gets is
validated against the served contract with openapi-core, and any status or header the operation
does not declare fails the test (tests/support.py's SignedClient, tests/conftest.py's fixtures).

openapi-core reads the document anew on every check (a response's check took 5.4 ms here, two
thirds of it in reading the document rather than the response); the patches below make each
reading of the document happen once, while every response is still deserialized, cast and
validated in full."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from jsonschema_path import SchemaPath
from openapi_core import OpenAPI
from openapi_core.configurations import Config
from openapi_core.datatypes import RequestParameters
from openapi_core.deserializing.styles.factories import StyleDeserializersFactory
from openapi_core.validation import validators as openapi_validators
from openapi_core.validation.response.validators import V30ResponseValidator
from openapi_core.validation.schemas.factories import SchemaValidatorsFactory
from pathable.accessors import LookupAccessor, SubscriptableAccessor
from werkzeug.datastructures import Headers, ImmutableMultiDict


class _Req:
    def __init__(self, method: str, url: str, template: str | None):
        parts = urlsplit(url)
        self.host_url = "http://testserver"
        self.path = parts.path
        self.path_pattern = template  # the operation's path, as the checker's routes matched it
        self.full_url_pattern = "http://testserver" + parts.path
        self.method = method.lower()
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(), header=Headers(), cookie=ImmutableMultiDict()
        )
        self.content_type = "application/json"
        self.body = None


class _Resp:
    def __init__(self, response):
        self.status_code = response.status_code
        self.headers = Headers(list(response.headers.items()))
        self.content_type = response.headers.get("content-type", "")
        self.data = response.content


# Headers of the HTTP transport itself, which no operation declares.
TRANSPORT_HEADERS = frozenset(
    {"content-length", "content-type", "date", "server", "connection", "keep-alive", "transfer-encoding"}
)


class UndeclaredInContract(AssertionError):
    """A response carried a header or a status its operation does not declare."""


def _one_format_checker() -> None:
    """openapi-core deep-copies its format checker for every schema validator it builds, that is
    several times per response checked (a fifth of a response check's time): with no format added,
    each factory gives its one copy instead (nothing changes it afterwards)."""
    original = SchemaValidatorsFactory.get_format_checker

    def get_format_checker(self, format_validators=None, extra_format_validators=None):
        if format_validators is not None or extra_format_validators is not None:
            return original(self, format_validators, extra_format_validators)
        if "_modhub_checker" not in self.__dict__:
            self._modhub_checker = original(self)
        return self._modhub_checker

    SchemaValidatorsFactory.get_format_checker = get_format_checker


_one_format_checker()


def _declared_headers_read_once() -> None:
    """openapi-core checks every header a response declares (present or not: about eight a
    response) by reading its declaration anew each time: its style and explode, then a
    deserializer built for its schema, half of a header's check. Both depend on the declaration
    alone (the document, and the header's path in it): made once per declared header, while each
    value is still deserialized, cast and validated on every check."""
    styles: dict = {}
    deserializers: dict = {}
    style_and_explode = openapi_validators.get_style_and_explode
    create = StyleDeserializersFactory.create

    def get_style_and_explode(param_or_header, default_location="header"):
        key = (id(param_or_header.accessor), param_or_header.parts, default_location)
        if key not in styles:  # the accessor is kept too: its id is not reused meanwhile
            styles[key] = (param_or_header.accessor, style_and_explode(param_or_header, default_location))
        return styles[key][1]

    def create_once(self, spec, schema, style, explode, name):
        key = (id(self), id(schema.accessor), schema.parts, style, explode, name)
        if key not in deserializers:
            deserializers[key] = (self, schema.accessor, create(self, spec, schema, style, explode, name))
        return deserializers[key][2]

    openapi_validators.get_style_and_explode = get_style_and_explode
    StyleDeserializersFactory.create = create_once


_declared_headers_read_once()


def _documents_nodes_read_directly() -> None:
    """The document's paths step through its dicts and lists: pathable asks `isinstance(node,
    Subscriptable)` at every step, a runtime Protocol check (a quarter of a check's time on
    Python 3.11). A parsed document's own dicts and lists are subscriptable: they are read
    directly; any other node still goes through the check."""
    original = SubscriptableAccessor._get_subnode.__func__

    def _get_subnode(cls, node, part):
        if type(node) is dict or type(node) is list:
            try:
                return node[part]
            except (KeyError, IndexError, TypeError) as exc:
                raise KeyError(part) from exc
        return original(cls, node, part)

    LookupAccessor._get_subnode = classmethod(_get_subnode)


_documents_nodes_read_directly()


class _OperationsFoundOnce(V30ResponseValidator):
    """openapi-core finds a response's operation by matching its path against every path of the
    document (a third of a check's time). The checker passes the path's template (`path_pattern`,
    its own route match): the finder's answer for a (method, template) is kept. A response's
    check uses only the operation found."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.found: dict = {}

    def _find_path(self, request):
        key = (request.method, request.path_pattern or request.path)
        if key not in self.found:
            self.found[key] = super()._find_path(request)
        return self.found[key]


# Paths of the document resolved ($ref included) at most once: openapi-core keeps none by default.
_RESOLVED_PATHS_KEPT = 100_000


class ContractChecker:
    """Validates responses against openapi/openapi.yaml with openapi-core, and fails on any
    header or status the operation's responses do not declare (openapi-core checks only what is
    declared): a status must be listed by the operation itself (`default` stands for 5xx only),
    a header must be declared by the response of that status, transport headers aside. Every
    (operationId, status, header) seen is recorded in `seen`."""

    def __init__(self, document: dict):
        self.openapi = OpenAPI(
            SchemaPath.from_dict(document, resolved_cache_maxsize=_RESOLVED_PATHS_KEPT),
            Config(response_validator_cls=_OperationsFoundOnce),
        )
        self.document = document
        self.routes = [
            (re.compile("^" + re.sub(r"\\{[^/]+?\\}", "[^/]+", re.escape(path)) + "$"), path, item)
            for path, item in document["paths"].items()
        ]
        self.seen: set[tuple[str, int, str]] = set()
        self.found: dict[tuple[str, str], tuple | None] = {}  # _route's answers by (method, path)

    def check(self, method: str, url: str, response) -> None:
        """Raise when the response does not conform to the contract."""
        self.openapi.validate_response(_Req(method, url, self.template(method, url)), _Resp(response))
        problems = self.undeclared(method, url, response.status_code, response.headers.keys())
        if problems:
            raise UndeclaredInContract(f"{method} {url}: " + "; ".join(problems))

    def watching(self, request):
        """Wrap a test client's request method: every answer of a contract operation is checked
        for undeclared headers and statuses (its body is checked where a test asks: check())."""

        def checked(method, url, *args, **kwargs):
            response = request(method, url, *args, **kwargs)
            if self.operation(method, str(url)) is not None:
                problems = self.undeclared(method, str(url), response.status_code, response.headers.keys())
                if problems:
                    raise UndeclaredInContract(f"{method} {url}: " + "; ".join(problems))
            return response

        return checked

    def operation(self, method: str, url: str) -> dict | None:
        """The operation serving a request (paths matched in document order, as the router does)."""
        route = self._route(method, url)
        return None if route is None else route[2][method.lower()]

    def template(self, method: str, url: str) -> str | None:
        """The path (template) of the operation serving a request, as `operation` finds it."""
        route = self._route(method, url)
        return None if route is None else route[1]

    def _route(self, method: str, url: str):
        """The (pattern, path, item) serving a request: a check asks twice (its template, then what
        it declares), so each (method, path) is matched against the paths once."""
        key = (method.lower(), urlsplit(url).path)
        if key not in self.found:
            self.found[key] = next(
                (route for route in self.routes if route[0].match(key[1]) and key[0] in route[2]), None
            )
        return self.found[key]

    def undeclared(self, method: str, url: str, status: int, headers) -> list[str]:
        """What the answer carries that its operation does not declare (empty when all is)."""
        op = self.operation(method, url)
        if op is None:
            return [f"no operation serves {method} {urlsplit(url).path}"]
        responses = op["responses"]
        declared = responses.get(str(status)) or responses.get(f"{status // 100}XX")
        if declared is None and status >= 500:
            declared = responses.get("default")
        if declared is None:
            return [f"status {status} is not declared by {op['operationId']}"]
        if "$ref" in declared:
            declared = self.document["components"]["responses"][declared["$ref"].rsplit("/", 1)[-1]]
        names = {n.lower() for n in declared.get("headers") or {}}
        problems = []
        for header in {h.lower() for h in headers}:
            self.seen.add((op["operationId"], status, header))
            if header not in names and header not in TRANSPORT_HEADERS:
                problems.append(f"header {header} is not declared by {op['operationId']} {status}")
        return sorted(problems)
