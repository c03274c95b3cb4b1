"""The contract's routes looked up by path shape (modhub.routing) choose what Starlette's Router
chooses: the same route for every contract path, and the Router's own answer for the rest."""

from __future__ import annotations

import asyncio
import re

from starlette.routing import Match, Route, Router

from modhub.routing import MAX_BUCKETS, IndexedRoutes, IndexedRouting


def _router_choice(router: Router, scope: dict):
    """The route Starlette's Router hands the request to on a full match (its loop), or None."""
    for route in router.routes:
        match, _ = route.matches(scope)
        if match is Match.FULL:
            return route
    return None


def _scope(method: str, path: str) -> dict:
    return {"type": "http", "method": method, "path": path, "root_path": "", "headers": []}


def _contract_router(app) -> Router:
    with app.test_client() as c:  # Connexion builds its middleware stack on the first request
        assert c.get("/healthz").status_code == 200
    node = app.middleware.app
    while not isinstance(node, IndexedRouting):
        node = node.app
    (mount,) = node.router.routes
    assert isinstance(mount.app, IndexedRoutes)
    return mount.app


def _samples(route: Route) -> list[str]:
    """Paths of the route's shape: parameters as numbers, words, and words with dots."""
    return [re.sub(r"{[^}]+}", value, route.path) for value in ("1", "9223372036854775807", "abc", "a.b")]


def test_every_contract_path_reaches_the_route_the_router_would_choose(app):
    indexed = _contract_router(app)
    routes = [r for r in indexed.router.routes if isinstance(r, Route)]
    assert len(routes) > 100  # the whole contract
    checked = 0
    for route in routes:
        for path in _samples(route):
            for method in sorted(route.methods or {"GET"}) + ["PATCH"]:
                scope = _scope(method, path)
                chosen = indexed.choose(scope)
                assert (chosen and chosen[0]) is _router_choice(indexed.router, scope), (method, path)
                checked += 1
    assert checked > 1000


def test_paths_outside_the_contract_go_to_the_router_default():
    seen = []

    class Endpoint:  # an ASGI app (a plain function would be taken for a request handler)
        async def __call__(self, scope, receive, send):
            seen.append(("route", scope["path"], scope.get("path_params")))

    endpoint = Endpoint()

    async def default(scope, receive, send):
        seen.append(("default", scope["path"], None))

    router = Router(
        routes=[
            Route("/mods/search", endpoint, methods=["GET"]),
            Route("/mods/{postId:int}", endpoint, methods=["GET"]),
            Route("/files/{rest:path}", endpoint, methods=["GET"]),
        ],
        default=default,
        redirect_slashes=False,
    )
    indexed = IndexedRoutes(router)

    def call(path: str, method: str = "GET") -> None:
        asyncio.run(indexed(_scope(method, path), None, None))

    call("/mods/search")
    call("/mods/12")
    call("/files/a/b/c.zip")  # a `path` parameter spans segments: tried for every shape
    call("/mods/x")  # no route's convertor takes it
    call("/nowhere/at/all")
    assert seen == [
        ("route", "/mods/search", {}),
        ("route", "/mods/12", {"postId": 12}),
        ("route", "/files/a/b/c.zip", {"rest": "a/b/c.zip"}),
        ("default", "/mods/x", None),
        ("default", "/nowhere/at/all", None),
    ]
    assert len(indexed.buckets) <= MAX_BUCKETS


def test_405_and_redirects_are_still_the_routers(app):
    with app.test_client() as c:
        wrong_method = c.delete("/openapi/v2/mods/search")
    assert wrong_method.status_code == 405


def test_shapes_kept_are_bounded():
    router = Router(routes=[Route("/a/{b}", lambda r: None)])
    indexed = IndexedRoutes(router)
    for i in range(MAX_BUCKETS + 50):
        indexed.candidates(f"/x{i}/y")
    assert len(indexed.buckets) == MAX_BUCKETS
