"""Connexion's routing of the contract's operations, with the route looked up by the path's shape.

Connexion's RoutingMiddleware routes through a Starlette Router, which tries the contract's
routes one by one (143 of them: a detail path matched its 43rd regular expression). The same
Router stays here and keeps the last word; `IndexedRoutes` only narrows which routes are tried
first: those whose literal segments can equal the request path's (the path's segment count and
its first segments). The first route that fully matches among those is the one the Router would
have chosen, since a route outside them cannot match the path; a route without parameters
matches only its own path, so it is passed over by comparing the path (no regular expression).
Anything else (no full match: a 405, a trailing-slash redirect, an unknown path) goes to the
Router as before.
"""

from __future__ import annotations

from connexion.middleware.routing import RoutingMiddleware
from starlette.routing import Match, Route, Router, get_route_path
from starlette.types import Receive, Scope, Send

KEY_SEGMENTS = 4  # path segments that key a bucket (a leading '' for the root, 'openapi', 'v2', ...)
MAX_BUCKETS = 1024  # distinct path shapes kept; beyond, candidates are computed per request


def _shape(route) -> tuple[int, tuple[str | None, ...]] | None:
    """A route's segment count and its first segments (None: a parameter), or None when it may
    match paths of any shape (a Mount, a `path` convertor)."""
    if not isinstance(route, Route) or any(
        type(c).__name__ == "PathConvertor" for c in route.param_convertors.values()
    ):
        return None
    segments = route.path.split("/")
    return len(segments), tuple(None if "{" in s else s for s in segments[:KEY_SEGMENTS])


def _literal(route) -> str | None:
    """The one path a route without parameters matches (its regular expression's only match)."""
    return route.path if isinstance(route, Route) and not route.param_convertors else None


class IndexedRoutes:
    """In place of a Router (an ASGI app): the routes that can match a path's shape are tried in
    the Router's order; the Router answers whatever they do not fully match."""

    def __init__(self, router: Router):
        self.router = router
        self.shapes = [(route, _shape(route)) for route in router.routes]
        self.buckets: dict[tuple, tuple] = {}

    @property
    def default(self):
        return self.router.default

    @default.setter
    def default(self, app) -> None:  # Connexion chains a second API of the same base path here
        self.router.default = app

    def candidates(self, path: str) -> tuple[tuple[Route, str | None], ...]:
        """The routes that can match a path of this shape, in the Router's order, each with the
        one path it matches when it has no parameters."""
        segments = path.split("/")
        key = (len(segments), *segments[:KEY_SEGMENTS])
        found = self.buckets.get(key)
        if found is None:
            head = segments[:KEY_SEGMENTS]
            found = tuple(
                (route, _literal(route))
                for route, shape in self.shapes
                if shape is None
                or (
                    shape[0] == len(segments)
                    and all(s is None or s == h for s, h in zip(shape[1], head, strict=False))
                )
            )
            if len(self.buckets) < MAX_BUCKETS:
                self.buckets[key] = found
        return found

    def choose(self, scope: Scope) -> tuple[Route, Scope] | None:
        """The route the Router would hand this request to on a full match, with its child scope,
        when it is among the path's candidates; None: the Router decides."""
        path = get_route_path(scope)
        for route, literal in self.candidates(path):
            if literal is not None and literal != path:
                continue  # its one path is another: no match
            match, child_scope = route.matches(scope)
            if match is Match.FULL:
                return route, child_scope
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        chosen = self.choose(scope) if scope["type"] == "http" else None
        if chosen is None:
            await self.router(scope, receive, send)
            return
        route, child_scope = chosen
        if "router" not in scope:
            scope["router"] = self.router
        scope["route"] = route
        scope.update(child_scope)
        await route.handle(scope, receive, send)


class IndexedRouting(RoutingMiddleware):
    """Connexion's RoutingMiddleware whose APIs' routers are looked up by path shape."""

    def add_api(self, *args, **kwargs) -> None:
        super().add_api(*args, **kwargs)
        for mount in self.router.routes:
            inner = getattr(mount, "app", None)
            if isinstance(inner, Router):
                mount.app = IndexedRoutes(inner)
