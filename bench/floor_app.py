"""Floors for bench/catalog.py and bench/floors.py: what a detail request costs before the
handler's own work.

- `bench.floor_app:bare`: a bare Starlette app answering a fixed envelope-sized JSON (about the
  size of a detail's envelope) on the same path. The server alone: the ratios' denominator.
- `bench.floor_app:async_app`: the one empty operation below on a Connexion AsyncApp (routing,
  path parameter validated from the contract, the handler awaited on the event loop).
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

import json

import connexion
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

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


async def get_detail_async(postId: int):  # noqa: N803 - the contract's parameter name
    """get_detail, as a coroutine (the AsyncApp awaits it on the event loop, no thread)."""
    return get_detail(postId)


app = connexion.FlaskApp(__name__)
app.add_api(CONTRACT)

async_app = connexion.AsyncApp(__name__)
async_app.add_api(
    {
        **CONTRACT,
        "paths": {
            "/mods/{postId}": {
                "get": {
                    **CONTRACT["paths"]["/mods/{postId}"]["get"],
                    "operationId": "bench.floor_app.get_detail_async",
                }
            }
        },
    }
)

# A detail envelope of modhub is about 1.5 kB: the bare floor answers that many bytes.
ENVELOPE = json.dumps(
    {
        "code": 0,
        "ok": True,
        "msg": "success",
        "level": "info",
        "data": {"postId": 1, "title": "x" * 1200},
        "dataType": 1,
        "traceId": "0" * 32,
    },
    separators=(",", ":"),
).encode()


async def _fixed(_request):
    return Response(ENVELOPE, media_type="application/json")


bare = Starlette(routes=[Route("/mods/{postId:int}", _fixed)])


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
