"""Hostile header bytes over the whole contract (issue 31 item 1).

Every operation of openapi/openapi.yaml (each method, each alias path) is sent with hostile bytes
in every header the server reads, one header at a time, the rest of the request valid (signed, a
real proxy user and token, real ids, the contract's example body). The requests are raw ASGI
scopes with bytes headers, so bytes that requests and httpx refuse (NUL, 0xB9, 0xFF 0xFE) reach
the server unchanged. Each answer: no 5xx; a 4xx carries an envelope code its operation declares;
a hostile identity header (the signature headers, and the proxy headers its access level needs) is
refused, and an operation's batch of those changed no row of any table; nor did its batch of the
other headers when all of them were refused. The site pages get hostile cookies the same way.

Values are sampled per (operation, header) with a fixed seed: the same requests every run
(MODHUB_FUZZ_SEED=N draws another sample, to explore by hand).
"""

from __future__ import annotations

import json
import os
import random
import re

import pytest
from sqlalchemy import text

from models.base import Base
from modhub.contract import Contract
from modhub.declared_errors import declared_codes
from modhub.gateway import Access, access_of

DOC = Contract.load().document  # the parse kept beside the YAML (modhub.contract)
OPS = [
    (m.upper(), p, o)
    for p, item in DOC["paths"].items()
    for m, o in item.items()
    if m in ("get", "post", "put", "patch", "delete")
]
DECLARED = declared_codes(DOC)

HOSTILE = [
    b"\xb9",  # "¹" in Latin-1: str.isdigit() says True, int() refuses it
    b"\xff\xfe",
    b"\x00",
    b"1\x00",
    "¹²".encode(),  # superscript digits, UTF-8
    b"1" * 40,
    b"-1",
    b"  7  ",
    b"0",
    b"\xc3\x28",  # invalid UTF-8
    b"\t",
    b"1\n",
    b"x" * 8000,  # long, under the header limit
    b"y" * 40_000,  # over the header limit (431)
    b'W/"',
    b"*",
    b"bytes=-",
    b"bytes=99999999999999999999999-",
    b"bytes=\xb9-\xb9",
    b"a/b/c; ;=",
]
# The headers the server reads (the gateway, validation, handlers, downloads, the edge).
HEADERS = [
    b"x-proxy-user-id",
    b"x-proxy-access-token",
    b"x-api-key",
    b"x-timestamp",
    b"x-signature",
    b"if-none-match",
    b"if-range",
    b"range",
    b"idempotency-key",
    b"content-type",
    b"accept",
    b"x-forwarded-for",
]
PER_HEADER = 2  # hostile values per (operation, header)
# Headers that decide who calls: a hostile value in one must be refused, whatever else is valid.
IDENTITY = {
    Access.KEY: {b"x-api-key", b"x-timestamp", b"x-signature"},
    Access.PROXY_USER: {b"x-api-key", b"x-timestamp", b"x-signature", b"x-proxy-user-id"},
    Access.TOKEN: {b"x-api-key", b"x-timestamp", b"x-signature", b"x-proxy-access-token"},
}
# The operations that read the proxy user in models/downloads: X-Proxy-User-Id was parsed there with
# str.isdigit() (a 500 for "\xb9"); since issue 28 item 5 they use the gateway's one parser.
DOWNLOAD_OPS = {
    "authorizeResourceDownload",
    "downloadModFile",
    "downloadResourceFile",
    "getModInstallInfo",
    "getResourceInstallInfo",
    "legacyDownloadAuth",  # the v1 download-auth
}
SITE_PAGES = ["/", "/login", "/pairing", "/console", "/admin", "/moderation", "/openapi-authorize"]
COOKIES = [b"session=\xb9", b"session=\x00", b"session=" + b"A" * 5000, b"\xff\xfe=1", b"session"]


async def asgi_request(app, method: str, path: str, headers: list, body: bytes = b"") -> dict:
    """One request as a raw ASGI scope: the header bytes reach the app as they are."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 50000),
        "root_path": "",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": headers,
    }
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive():
        return pending.pop() if pending else {"type": "http.disconnect"}

    out = {"status": 0, "body": b""}

    async def send(message):
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
        elif message["type"] == "http.response.body":
            out["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return out


def example_body(op: dict) -> tuple[bytes, bytes]:
    """(content type, body) of the operation's contract example; empty when it takes none."""
    content = op.get("requestBody", {}).get("content", {})
    if "application/json" in content:
        return b"application/json", json.dumps(content["application/json"]["example"]).encode()
    if "multipart/form-data" in content:
        body = (
            b'--B\r\nContent-Disposition: form-data; name="file"; filename="a.jar"\r\n'
            b"Content-Type: application/java-archive\r\n\r\nPK\x03\x04abc\r\n--B--\r\n"
        )
        return b"multipart/form-data; boundary=B", body
    return b"", b""


def row_counts(db) -> dict[str, int]:
    """Rows of every table, in one statement."""
    names = sorted(Base.metadata.tables)
    sql = "SELECT " + ", ".join(f'(SELECT count(*) FROM "{n}")' for n in names)
    with db.session() as session:
        return dict(zip(names, session.execute(text(sql)).one(), strict=True))


def _fill(path: str, ids: dict) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 1)), path)


def _envelope_code(body: bytes) -> int | None:
    try:
        return json.loads(body)["code"]
    except (ValueError, KeyError, TypeError):
        return None


@pytest.fixture()
def world(cat, stored, creds, make_user, make_token, platform):
    """Real ids for the path parameters: a listed post with a stored file, a user and a token;
    the test client's address is a trusted proxy, so X-Forwarded-For is read."""
    platform.settings = platform.settings.replace(trusted_proxies=("127.0.0.1/32",))
    cat.section()
    cat.platform()
    post = cat.post()
    file_id = stored(post, b"PK\x03\x04 fuzz")
    user = make_user()
    ids = {"postId": post, "resourceId": post, "fileId": file_id, "userId": user}
    ids |= {"currencyCode": "POINTS", "sectionCode": "minecraft", "code": "forge"}
    return {"ids": ids, "user": user, "token": make_token(creds.app_id, user)}


def test_hostile_headers_over_the_contract(app, client, creds, db, world, request):
    rng = random.Random(int(os.environ.get("MODHUB_FUZZ_SEED", "31")))
    failures, sent = [], 0
    for method, path, op in OPS:
        url = _fill(path, world["ids"])
        op_id, access = op["operationId"], access_of(op)
        content_type, body = example_body(op)
        identity = IDENTITY.get(access, set())
        # the headers that decide who calls first: all of them must be refused, so that batch
        # must leave every table as it was; then the others (a batch all refused, likewise)
        for batch in ([h for h in HEADERS if h in identity], [h for h in HEADERS if h not in identity]):
            before, answers = row_counts(db), []
            for name in batch:
                values = rng.sample(HOSTILE, PER_HEADER)
                if name == b"x-proxy-user-id" and b"\xb9" not in values:
                    values.append(b"\xb9")  # the byte of issue 31's six 500s, on every operation
                for value in values:
                    headers = {k.lower().encode(): v.encode() for k, v in creds.headers(method, url).items()}
                    headers[b"x-proxy-user-id"] = str(world["user"]).encode()
                    if access is Access.TOKEN or name == b"x-proxy-access-token":
                        headers[b"x-proxy-access-token"] = world["token"].encode()
                    if content_type:
                        headers[b"content-type"] = content_type
                    headers[name] = value
                    answer = client.portal.call(asgi_request, app, method, url, list(headers.items()), body)
                    sent += 1
                    status, code = answer["status"], _envelope_code(answer["body"])
                    where = (op_id, name.decode(), value[:12], status, answer["body"][:120])
                    if status >= 500:
                        failures.append(("5xx", *where))
                    elif 400 <= status < 500 and code is not None and code not in DECLARED[op_id]:
                        failures.append(("undeclared code", *where))
                    elif status < 400 and name in identity:
                        failures.append(("hostile identity accepted", *where))
                    answers.append(status)
            if answers and all(status >= 400 for status in answers) and row_counts(db) != before:
                failures.append(("rows written by refused requests", op_id, batch))
    for page in SITE_PAGES:
        for cookie in COOKIES:
            answer = client.portal.call(asgi_request, app, "GET", page, [(b"cookie", cookie)])
            sent += 1
            if answer["status"] >= 500:
                failures.append(("5xx", page, cookie[:12], answer["status"]))
    request.node.user_properties.append(("requests", sent))
    print(f"\n{sent} hostile requests over {len(OPS)} operations and {len(SITE_PAGES)} site pages")
    assert not failures, "\n".join(map(repr, failures))
    assert sent > len(OPS) * len(HEADERS)


@pytest.mark.parametrize("op_id", sorted(DOWNLOAD_OPS))
def test_superscript_proxy_user_on_downloads(app, client, creds, world, op_id):
    method, path, op = next(o for o in OPS if o[2]["operationId"] == op_id)
    url = _fill(path, world["ids"])
    headers = {k.lower().encode(): v.encode() for k, v in creds.headers(method, url).items()}
    headers[b"x-proxy-user-id"] = b"\xb9"
    answer = client.portal.call(asgi_request, app, method, url, list(headers.items()))
    assert answer["status"] == 401 and _envelope_code(answer["body"]) == 200215, answer
