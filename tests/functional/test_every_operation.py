"""A request through every operationId reaches its handler (Connexion routes lazily)."""

import re

import pytest

from modhub.contract import Contract

DOC = Contract.load().document  # the parse kept beside the YAML (modhub.contract)
OPS = [
    (m.upper(), p, o)
    for p, item in DOC["paths"].items()
    for m, o in item.items()
    if m in ("get", "post", "put", "patch", "delete")
]


def _fill(path: str) -> str:
    values = {"currencyCode": "POINTS", "sectionCode": "minecraft", "code": "forge"}
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "1"), path)


@pytest.mark.parametrize("method,path,op", OPS, ids=[o["operationId"] for _, _, o in OPS])
def test_operation_is_routed_to_its_handler(signed, creds, make_user, make_token, method, path, op):
    user = make_user()
    headers = {"X-Proxy-User-Id": str(user), "X-Proxy-Access-Token": make_token(creds.app_id, user)}
    kwargs = {}
    if method == "POST":
        content = op.get("requestBody", {}).get("content", {})
        if "multipart/form-data" in content:
            kwargs["files"] = {"file": ("a.bin", b"abc")}
        elif content:
            kwargs["json"] = {}
    response = signed.client.request(
        method, _fill(path), headers={**signed.creds.headers(method, _fill(path)), **headers}, **kwargs
    )
    assert response.status_code not in (404, 405) or response.json()["code"] == 200404, response.text
    if not path.startswith("/openapi/v2/meta/") and "download-file" not in path:
        body = response.json()
        assert body["traceId"] == response.headers["X-Request-Id"]
        assert body["code"] not in (200401, 200402, 200201, 200202, 200208)
