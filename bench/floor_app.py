"""Framework floor for bench/catalog.py: one Connexion FlaskApp operation that does nothing.

GET /mods/{postId} with the path parameter validated from a one-operation contract and a fixed
small JSON answer: no gateway, no database, no envelope work. Served by uvicorn like the real
app, it shows what Connexion + Flask cost per request before any of modhub's own work.
"""

import connexion

CONTRACT = {
    "openapi": "3.0.3",
    "info": {"title": "floor", "version": "1"},
    "paths": {"/mods/{postId}": {"get": {
        "operationId": "bench.floor_app.get_detail",
        "parameters": [{"name": "postId", "in": "path", "required": True,
                        "schema": {"type": "integer", "format": "int64", "minimum": 1}}],
        "responses": {"200": {"description": "a fixed answer"}}}}},
}


def get_detail(postId: int):  # noqa: N803 - the contract's parameter name
    """A fixed answer naming the post."""
    return {"code": 0, "ok": True, "data": {"postId": postId}}


app = connexion.FlaskApp(__name__)
app.add_api(CONTRACT)
