"""Test helpers: an independent request signer, a signing client, and contract checks."""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import json
import os
import shutil
import socket
import tempfile
import uuid
from pathlib import Path

import psycopg2
from sqlalchemy.engine import make_url

from tests.helpers.contract_checker import ContractChecker
from tests.signing import Creds, now_ms, sign, use_timestamp_lane  # noqa: F401 (the tests import them from here)


def _admin(url: str, *statements: str) -> None:
    u = make_url(url)
    conn = psycopg2.connect(host=u.host, port=u.port or 5432, user=u.username, dbname="postgres")
    conn.autocommit = True
    with conn.cursor() as cur:
        for statement in statements:
            cur.execute(statement.format(name=u.database))
    conn.close()


def recreate_database(url: str) -> None:
    """Drop and create the PostgreSQL database named by a SQLAlchemy URL (tests and benchmarks)."""
    _admin(url, 'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', 'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    """Drop the PostgreSQL database named by a SQLAlchemy URL."""
    _admin(url, 'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# This run's id: the same in every pytest-xdist worker of one run, a fresh one in a lone process.
_RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex
_TEMPLATES: set[str] = set()  # templates this process has seen ready


def migrated_template(base_url: str) -> str:
    """The name of a database migrated to every head once per test run and shared by its xdist
    workers (Alembic takes a few seconds; each worker used to run it twice): `<base>_template`,
    labelled with the run's id (COMMENT ON DATABASE). The first worker to get here migrates it
    under a file lock; the others wait on the lock and find it ready. Copies are made with
    copy_database (CREATE DATABASE ... TEMPLATE): nobody stays connected to the template."""
    from modhub.migrate import upgrade  # the app's migrations (an import the helpers above avoid)

    url = make_url(base_url)
    name = f"{url.database}_template"
    if name in _TEMPLATES:
        return name
    template_url = url.set(database=name).render_as_string(hide_password=False)
    with open(Path(tempfile.gettempdir()) / f"modhub-{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        conn = psycopg2.connect(host=url.host, port=url.port or 5432, user=url.username, dbname="postgres")
        conn.autocommit = True
        try:
            with conn.cursor() as cur:
                cur.execute(
                    "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
                    (name,),
                )
                row = cur.fetchone()
                if row is None or row[0] != _RUN_ID:
                    cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                    cur.execute(f'CREATE DATABASE "{name}"')
                    upgrade(template_url)
                    cur.execute(f"COMMENT ON DATABASE \"{name}\" IS '{_RUN_ID}'")
        finally:
            conn.close()
    _TEMPLATES.add(name)
    return name


def built_once(tmp_path_factory, name: str, build) -> Path:
    """A folder built once per test run and shared by its xdist workers (a generated client, a
    live server's address): the first worker to get here runs build(folder) under a file lock;
    the others wait on the lock and find it built. A build that raised is tried again by the
    next worker that asks (each one reports the failure)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder: each worker's basetemp is a folder in it
    folder = root / f"once-{name}"
    with open(root / f"once-{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / ".built").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            (folder / ".built").touch()
    return folder


def migrated_database(url: str, run_url: str) -> None:
    """(Re)create the database of url migrated to every head: a copy of the run's template."""
    copy_database(url, migrated_template(run_url))


def copy_database(url: str, template: str) -> None:
    """(Re)create the database named by a SQLAlchemy URL as a copy of a template database."""
    _admin(
        url,
        'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
        'CREATE DATABASE "{name}" TEMPLATE "' + template + '"',
    )


class Clock:
    """A settable clock for platform.clock: tests move time instead of sleeping."""

    def __init__(self, now: dt.datetime):
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta) -> None:
        """Move the clock forward."""
        self.now += dt.timedelta(**delta)


class SignedClient:
    """A test client that signs every request with one application's credentials."""

    def __init__(self, client, creds: Creds, contract: ContractChecker | None = None):
        self.client = client
        self.creds = creds
        self.contract = contract

    def request(self, method: str, url: str, *, headers: dict | None = None, **kwargs):
        """Send a signed request; the response is checked against the contract when known."""
        all_headers = {**self.creds.headers(method, url), **(headers or {})}
        response = self.client.request(method, url, headers=all_headers, **kwargs)
        if self.contract is not None:
            self.contract.check(method, url, response)
        return response

    def get(self, url: str, **kwargs):
        """Signed GET."""
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs):
        """Signed POST."""
        return self.request("POST", url, **kwargs)


class ExampleRecorder:
    """ASGI middleware (tests, MODHUB_RECORD_EXAMPLES=folder): writes each routed operation's
    successful JSON exchange as a line {"operationId", "pathParams", "query", "request",
    "response"}, the material of openapi/write_examples.py."""

    def __init__(self, app, *, folder: str):
        self.app = app
        self.path = Path(folder) / f"examples-{os.getpid()}.jsonl"

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sent, answer = [], {"status": 0, "type": "", "body": []}

        async def read():
            message = await receive()
            if message["type"] == "http.request":
                sent.append(message.get("body", b""))
            return message

        async def capture(message):
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["type"] = dict(message.get("headers", [])).get(b"content-type", b"").decode()
            elif message["type"] == "http.response.body":
                answer["body"].append(message.get("body", b""))
            await send(message)

        await self.app(scope, read, capture)
        operation_id = scope.get("extensions", {}).get("connexion_routing", {}).get("operation_id")
        if not operation_id or answer["status"] != 200 or "json" not in answer["type"]:
            return
        try:
            response = json.loads(b"".join(answer["body"]))
        except ValueError:
            return
        try:  # a multipart or raw upload has no JSON request to show: its answer still counts
            request = json.loads(b"".join(sent)) if b"".join(sent) else None
        except ValueError:
            request = None
        row = {
            "operationId": operation_id,
            "pathParams": scope.get("path_params", {}),
            "query": scope.get("query_string", b"").decode(errors="replace"),
            "request": request,
            "response": response,
        }
        with self.path.open("a") as out:
            out.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")


_SCHEMAS: dict[int, tuple[object, object]] = {}


def asgi_schema(app):
    """schemathesis's schema of the contract served by `app`, loaded once per app object (the
    pool's apps live for the whole run and serve the same document; loading it took a second or
    more per test)."""
    entry = _SCHEMAS.get(id(app))
    if entry is None or entry[0] is not app:
        import schemathesis  # heavy: only the schemathesis tests need it

        entry = (app, schemathesis.openapi.from_asgi("/openapi/v2/meta/openapi.json", app))
        _SCHEMAS[id(app)] = entry
    return entry[1]


_AUTH_ENFORCED: set[str] = set()  # operations whose auth enforcement ignored_auth has confirmed


def _ignored_auth_once(ctx, response, case):
    """schemathesis's ignored_auth with `st run`'s memory: once it has confirmed that an operation
    refuses a request without its credentials and with invalid ones (two or more probes), it does
    not probe that operation again in this process ("enforcement is a property of the operation,
    so one confirmation per run is enough", as its CLI keeps it in the run's context). Alone,
    case.validate_response starts each case with no memory, so every 2xx case probed again: about
    half the time of the in-process schemathesis tests."""
    from schemathesis.specs.openapi.checks import ignored_auth

    ctx.auth_enforced_operations = _AUTH_ENFORCED
    return ignored_auth(ctx, response, case)


def validate_case(case, response, excluded_checks=()) -> None:
    """case.validate_response: every built-in check but `excluded_checks`, ignored_auth as in a
    `st run` (_ignored_auth_once)."""
    from schemathesis.specs.openapi.checks import ignored_auth

    case.validate_response(
        response, excluded_checks=[*excluded_checks, ignored_auth], additional_checks=[_ignored_auth_once]
    )


@contextlib.contextmanager
def dead_redis_url(answers: str = "never answers"):
    """The URL of a loopback Redis that is dead: a port that "refuses" connections, or a
    listener that accepts them and "never answers"."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    if answers == "never answers":
        listener.listen(8)
    try:
        yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    finally:
        listener.close()


@contextlib.contextmanager
def stalled_redis_quota(timeout: float = 0.3):
    """A RedisQuota, its client built as the app builds it, over a Redis that never answers (the
    quota's timeout tests)."""
    from modhub.core.redis_store import bounded_client
    from modhub.quota import RedisQuota

    with dead_redis_url() as url:
        yield RedisQuota(bounded_client(url, timeout))
