"""Fixtures: a real PostgreSQL database migrated once per run (one per xdist worker), each test
in a rolled-back transaction, a real Redis with a per-test key prefix, and the app built once per
run per distinct settings, its per-test parts swapped in through Platform.serving()."""

from __future__ import annotations

import functools
import gc
import shutil
import uuid
from pathlib import Path

import pytest
import redis
from argon2 import PasswordHasher
from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

from models.downloads import keys
from models.identity import accounts, applications
from models.identity.tables import User
from modhub.contract import Contract
from modhub.core.crypto import SecretBox
from modhub.core.display import Display
from modhub.core.startup import freeze_survivors
from modhub.db import Database
from modhub.migrate import upgrade
from modhub.quota import RedisQuota
from modhub.settings import Settings, finalize
from tests.helpers.contract_checker import ContractChecker
from tests.helpers.identity import add_proxy_token
from tests.support import Creds, SignedClient, migrated_database

# Fixtures shared by every test folder (helpers, not fixtures, live in tests/helpers/).
pytest_plugins = [
    "tests.fixtures.authoring",
    "tests.fixtures.browser",
    "tests.fixtures.storage",
    "tests.fixtures.webhooks",
]

from tests.helpers.apps import AppPool  # noqa: E402
from tests.helpers.env import (  # noqa: E402
    ENCRYPTION_KEY,
    PG_URL,
    REDIS_PREFIX,
    REDIS_URL,
    RUN_PG_URL,
)

# Passwords: the same argon2id hashing and verification, at the lowest cost parameters (the
# default costs 64 MiB and 0.1 to 1.3 s per hash or log-in on this shared 2-core machine). A hash
# carries its parameters, so verification is unchanged; the server processes started by the
# tests keep the default.
accounts._HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
accounts._DUMMY_HASH = accounts._HASHER.hash(uuid.uuid4().hex)

# The install signing key: a database's first one is made on first use (3072-bit RSA, 0.26 s of
# CPU here) and every test's database is new, so the worker makes it once and hands the same key
# to each database; it is stored, sealed and read back as before. Rotation makes keys of its own.
keys._new_private_pem = functools.cache(keys._new_private_pem)


def pytest_collection_modifyitems(items):
    """A test that drives Chromium (the `browser` fixture) is `slow`, as setup.cfg's marker says,
    wherever it is written (tests/run_order.py then orders the run)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


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


@pytest.fixture()
def display(settings):
    """The Display of the test settings (what the platform builds once from them)."""
    return Display.from_settings(settings)


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


def pytest_collection_finish(session):
    gc.set_threshold(10_000, 10, 10)
    freeze_survivors()  # what the run built to last: out of the collector's passes


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
        with db.session() as session:
            text = add_proxy_token(session, app_id, user_id, hours=hours, revoked=revoked)
            session.commit()
        return text

    return make
