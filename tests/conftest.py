"""Fixtures: a real PostgreSQL database migrated once per run (one per xdist worker), each test
in a rolled-back transaction, a real Redis with a per-test key prefix, and the app built once per
run per distinct settings, its per-test parts swapped in through Platform.serving()."""

from __future__ import annotations

import datetime as dt
import gc
import json
import os
import resource
import shutil
import uuid
from pathlib import Path

import pytest
import redis
from argon2 import PasswordHasher
from connexion.middleware import MiddlewarePosition
from cryptography.fernet import Fernet
from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

from models.identity import accounts, applications
from models.identity.service import token_hash
from models.identity.tables import ProxyToken, User
from modhub.app import Contract, create_app
from modhub.core.crypto import SecretBox
from modhub.db import Database
from modhub.migrate import upgrade
from modhub.quota import RedisQuota
from modhub.settings import Settings, finalize
from tests.support import (
    ContractChecker,
    Creds,
    ExampleRecorder,
    SignedClient,
    migrated_database,
)

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1"... under pytest-xdist
RUN_PG_URL = os.environ.get(
    "MODHUB_TEST_DATABASE_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_test"
)
PG_URL = f"{RUN_PG_URL}_{WORKER}" if WORKER else RUN_PG_URL
REDIS_URL = os.environ.get("MODHUB_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
REDIS_PREFIX = f"modhub:test:{WORKER or 'main'}"
ENCRYPTION_KEY = Fernet.generate_key().decode()  # one per run: part of the app's build

# Passwords: the same argon2id hashing and verification, at the lowest cost parameters (the
# default costs 64 MiB and 0.1 to 1.3 s per hash or log-in on this shared 2-core machine). A hash
# carries its parameters, so verification is unchanged; the server processes started by the
# tests keep the default.
accounts._HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
PRODUCTION_DUMMY_HASH = accounts._DUMMY_HASH  # checked by tests/unit/test_identity_units.py
accounts._DUMMY_HASH = accounts._HASHER.hash(uuid.uuid4().hex)


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: three workers per two cores. Some long tests wait (on a worker process, a
    private PostgreSQL or Redis, a production-timed sweep, Chromium), so a few more workers than
    cores keep the cores busy meanwhile; but each worker costs its own collection, app builds and
    database, and the run is CPU-bound (2 cores, longest first, one run each: 6 workers 4m53s and
    CPU user+sys 453 s, 4 workers 4m10s and 399 s, 3 workers 4m00s and 372 s).
    PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if "not slow" in (config.getoption("markexpr", "") or ""):
        return cores  # the quick loop computes more than it waits: one worker per core
    return max(cores * 3 // 2, 1)


# One Hypothesis folder for every process of the run, the `st` processes included (they run in
# folders of their own): Hypothesis keeps its Unicode tables there, which take 1.8 s of CPU to
# compute when missing. The controller computes them while the workers collect.
HYPOTHESIS_FOLDER = Path(__file__).resolve().parents[1] / ".hypothesis"
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(HYPOTHESIS_FOLDER))


@pytest.hookimpl(trylast=True)  # after Hypothesis's own: its start-up is over
def pytest_sessionstart(session):
    if not WORKER:
        from hypothesis import strategies

        strategies.characters(codec="utf-8").validate()  # reads the tables, or writes them once


# The run's order: longest first, so that no long test is the run's tail (longest processing time
# first), with the tests that mostly wait spread out (below). tests/durations.json holds, for every
# test that took more than a second, its measured wall seconds and CPU seconds (setup, call and
# teardown; the CPU of the worker and of the processes it started and reaped); the others follow,
# slow ones first, each group in collection order. pytest-xdist's `load` scheduling hands out items
# in this order; with `--maxschedchunk 1` (setup.cfg) each worker holds the test it runs and one
# more. Refresh the file after tests were added or changed a lot (only the order depends on it):
#     MODHUB_RECORD_DURATIONS=1 .venv/bin/pytest
DURATIONS = Path(__file__).with_name("durations.json")
WAITER = 10.0  # a test that waits this many seconds more than it computes, and computes under a
# fifth of its time (a fault test's pauses; the CPU of the shared `st` server and of Chromium is not
# counted in a test's, so a browser or `st` test is not taken for one)


def pytest_collection_modifyitems(items):
    """A test that drives Chromium (the `browser` fixture) is `slow`, as setup.cfg's marker says,
    wherever it is written. Then the run's order (DURATIONS)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
    measured = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    items[:] = run_order(items, measured, workers)


def run_order(items: list, measured: dict, workers: int) -> list:
    """Longest first; but a test that mostly waits (WAITER) starts only once the previous one has
    ended, counted on a clock that advances by each placed test's wall time over `workers`: two
    waiting tests side by side left both cores idle for half a minute. Meanwhile the other
    workers take the tests that compute."""

    def wall(item) -> float:
        return measured.get(item.nodeid, (0.0, 0.0))[0]

    def waits(item) -> bool:
        took, cpu = measured.get(item.nodeid, (0.0, 0.0))
        return took - cpu >= WAITER and cpu < took / 5

    ranked = sorted(items, key=lambda item: (-wall(item), 0 if item.get_closest_marker("slow") else 1))
    order, held, clock, waiter_ends = [], [], 0.0, 0.0
    for item in ranked:
        if waits(item):
            held.append(item)  # the waiters queue, in rank order
        else:
            order.append(item)
            clock += wall(item) / workers
        while held and clock >= waiter_ends:  # the previous waiter has ended: the next one starts
            order.append(held.pop(0))
            waiter_ends = clock + wall(order[-1])
            clock += wall(order[-1]) / workers
    return order + held


_took: dict[str, list[float]] = {}


def _cpu() -> float:
    own, reaped = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime


if os.environ.get("MODHUB_RECORD_DURATIONS"):  # each phase's CPU, carried to the controller

    def _phase_cpu(item):
        start = _cpu()
        yield
        item.user_properties.append(("cpu", _cpu() - start))

    pytest_runtest_setup = pytest.hookimpl(hookwrapper=True)(_phase_cpu)
    pytest_runtest_call = pytest.hookimpl(hookwrapper=True)(_phase_cpu)
    pytest_runtest_teardown = pytest.hookimpl(hookwrapper=True)(_phase_cpu)


def pytest_runtest_logreport(report):
    if os.environ.get("MODHUB_RECORD_DURATIONS") and not WORKER:  # the controller: every report
        took = _took.setdefault(report.nodeid, [0.0, 0.0])
        took[0] += report.duration
        if report.when == "teardown":  # it carries the CPU of the three phases
            took[1] = sum(value for name, value in report.user_properties if name == "cpu")


def pytest_sessionfinish(session):
    if _took:
        lines = [
            f"{json.dumps(k)}: [{wall:.1f}, {cpu:.1f}]"
            for k, (wall, cpu) in sorted(_took.items(), key=lambda kv: -kv[1][0])
            if wall > 1
        ]
        DURATIONS.write_text("{\n" + ",\n".join(lines) + "\n}\n")  # one test per line


@pytest.fixture(scope="session")
def pg_engine():
    """The test database, created afresh as a copy of the run's migrated template (one Alembic
    upgrade per run, shared by the xdist workers: tests.support.migrated_template)."""
    migrated_database(PG_URL, RUN_PG_URL)
    engine = create_engine(PG_URL)
    yield engine
    engine.dispose()


@pytest.fixture()
def db(pg_engine):
    """A Database whose sessions live inside one transaction rolled back after the test."""
    conn = pg_engine.connect()
    outer = conn.begin()
    sessions = sessionmaker(bind=conn, expire_on_commit=False, join_transaction_mode="create_savepoint")
    yield Database(pg_engine, sessions)
    outer.rollback()
    conn.close()


@pytest.fixture(scope="session")
def redis_client():
    """The machine's Redis."""
    client = redis.Redis.from_url(REDIS_URL)
    client.ping()
    yield client
    client.close()


@pytest.fixture()
def quota(redis_client):
    """Redis quota counters under a key prefix of this test's own."""
    prefix = f"{REDIS_PREFIX}:{uuid.uuid4().hex}"
    yield RedisQuota(redis_client, prefix=prefix)
    for key in redis_client.scan_iter(f"{prefix}:*", count=1000):
        redis_client.delete(key)


@pytest.fixture(scope="session")
def contract():
    """The contract, parsed once."""
    return Contract.load()


@pytest.fixture(scope="session")
def checker(contract):
    """openapi-core validation of responses against the contract."""
    return ContractChecker(contract.document)


@pytest.fixture()
def settings(tmp_path):
    """Test settings: PostgreSQL, Redis, a fresh key, response validation on, no app cache."""
    return Settings(
        data_dir=tmp_path,
        database_url=PG_URL,
        redis_url=REDIS_URL,
        encryption_key=ENCRYPTION_KEY,
        validate_responses=True,
        app_cache_seconds=0,
        site_url="https://modhub.example",
        webhook_queue=f"webhooks-test-{uuid.uuid4().hex[:12]}",
    )


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> Path:
    """An SQLite database migrated to head once per run (Alembic takes about half a second)."""
    path = tmp_path_factory.mktemp("sqlite-template") / "m.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture()
def embedded_settings(tmp_path, sqlite_template):
    """The embedded default: SQLite in a temporary data folder, migrated (a copy of the run's
    migrated template), no Redis."""
    shutil.copyfile(sqlite_template, tmp_path / "m.db")
    return finalize(Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/m.db"))


def freeze_heap() -> None:
    """What the run built to last (modules, the parsed contract, an app) leaves the collector's
    full passes, which otherwise walk all of it again every few tests (gc.freeze)."""
    gc.collect()
    gc.freeze()


def pytest_collection_finish(session):
    gc.set_threshold(10_000, 10, 10)
    freeze_heap()


class AppPool:
    """Apps built once per run, one per distinct build-time settings (building one resolves
    and validates the whole contract: about half a second)."""

    def __init__(self, contract: Contract):
        self.contract = contract
        self.apps: dict[str, object] = {}

    def get(self, settings: Settings, db, quota):
        """The app built for settings like these (per-test fields aside)."""
        key = repr(settings.replace(data_dir=Path("."), webhook_queue=""))
        if key not in self.apps:
            app = create_app(settings, db=db, quota=quota, contract=self.contract)
            if os.environ.get("MODHUB_RECORD_EXAMPLES"):  # material for openapi/write_examples.py
                app.add_middleware(
                    ExampleRecorder,
                    position=MiddlewarePosition.BEFORE_EXCEPTION,
                    folder=os.environ["MODHUB_RECORD_EXAMPLES"],
                )
            self.apps[key] = app
            freeze_heap()
        return self.apps[key]


@pytest.fixture(scope="session")
def app_pool(contract):
    """The run's apps."""
    return AppPool(contract)


@pytest.fixture()
def app(settings, db, quota, app_pool):
    """The full application over the test database and Redis, with this test's parts."""
    app = app_pool.get(settings, db, quota)
    with app.app.extensions["modhub"].serving(settings=settings, db=db, quota=quota):
        yield app


@pytest.fixture()
def platform(app):
    """The app's Platform."""
    return app.app.extensions["modhub"]


@pytest.fixture()
def client(app, checker):
    """An unsigned HTTP client through the whole ASGI stack; an answer of a contract operation
    carrying a header or status the contract does not declare fails the test."""
    with app.test_client() as c:
        c.request = checker.watching(c.request)
        yield c


@pytest.fixture()
def make_app(db, settings):
    """Factory: register an application and return its credentials."""
    box = SecretBox(settings.encryption_key)

    def make(**kwargs) -> Creds:
        kwargs.setdefault("name", "test app")
        kwargs.setdefault("approve", True)
        with db.session() as session:
            creds = applications.create(session, box, **kwargs)
            session.commit()
        return Creds(creds.app_id, creds.api_key, creds.secret_key)

    return make


@pytest.fixture()
def creds(make_app):
    """An approved application with the user:proxy permission."""
    return make_app(permissions=["user:proxy"])


@pytest.fixture()
def signed(client, creds, checker):
    """A client signing with `creds`, checking every response against the contract."""
    return SignedClient(client, creds, checker)


@pytest.fixture()
def make_user(db):
    """Factory: a platform user."""

    def make(**kwargs) -> int:
        kwargs.setdefault("username", f"user-{uuid.uuid4().hex[:12]}")
        with db.session() as session:
            user = User(**kwargs)
            session.add(user)
            session.commit()
            return user.id

    return make


@pytest.fixture()
def make_token(db):
    """Factory: a stored proxy token for (app, user); returns the token text."""

    def make(app_id: int, user_id: int, *, hours: float = 24, revoked: bool = False) -> str:
        text = uuid.uuid4().hex + uuid.uuid4().hex
        now = dt.datetime.now(dt.UTC)
        with db.session() as session:
            session.add(
                ProxyToken(
                    token_hash=token_hash(text),
                    app_id=app_id,
                    user_id=user_id,
                    scopes=[],
                    expires_at=now + dt.timedelta(hours=hours),
                    revoked_at=now if revoked else None,
                )
            )
            session.commit()
        return text

    return make
