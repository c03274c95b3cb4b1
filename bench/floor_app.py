"""Floors for bench/catalog.py: what a detail request costs before the handler's own work.

- `bench.floor_app:app`: one Connexion FlaskApp operation that does nothing (GET /mods/{postId},
  path parameter validated from a one-operation contract, a fixed small JSON answer). The
  framework alone.
- `bench.floor_app:create_bridged` (uvicorn --factory): the same empty operation with Flask served
  through modhub's one-hop bridge (modhub/bridge.py) instead of a2wsgi's response path, as the
  stack is: the stricter floor for the stack (`--floors-only` measures it too).
- `bench.floor_app:create_stack` (uvicorn --factory): the real modhub app from the MODHUB_*
  environment, whole (edge, gateway with signature and Redis quota, validation, envelope), whose
  detail handler answers a fixed envelope without touching the database. Everything the spec
  requires of a request except the detail's own reads.
"""

import connexion

CONTRACT = {
    "openapi": "3.0.3",
    "info": {"title": "floor", "version": "1"},
    "paths": {
        "/mods/{postId}": {
            "get": {
                "operationId": "bench.floor_app.get_detail",
                "parameters": [
                    {
                        "name": "postId",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer", "format": "int64", "minimum": 1},
                    }
                ],
                "responses": {"200": {"description": "a fixed answer"}},
            }
        }
    },
}


def get_detail(postId: int):  # noqa: N803 - the contract's parameter name
    """A fixed answer naming the post."""
    return {"code": 0, "ok": True, "data": {"postId": postId}}


app = connexion.FlaskApp(__name__)
app.add_api(CONTRACT)


def create_bridged():
    """The empty operation behind modhub's one-hop bridge (one thread hand-off per answer)."""
    from modhub import bridge

    bridged = connexion.FlaskApp(__name__)
    bridged.add_api(CONTRACT)
    bridge.install(bridged)
    return bridged


def create_stack():
    """The modhub app with a detail handler that does no work (resolved at start-up)."""
    import handlers.resources
    from modhub.asgi import create
    from modhub.web import ok

    handlers.resources.get_detail = lambda post_id, **_: ok({"postId": post_id})
    return create()
