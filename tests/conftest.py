"""Fixtures: a real PostgreSQL database migrated once per run, each test in a rolled-back
transaction, a real Redis with a per-test key prefix, and the app built from test settings."""

from __future__ import annotations

import datetime as dt
import os
import uuid

import pytest
import redis
from cryptography.fernet import Fernet
from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

from models import applications
from models.identity import ProxyToken, User, token_hash
from modhub.app import Contract, create_app
from modhub.crypto import SecretBox
from modhub.db import Database
from modhub.migrate import upgrade
from modhub.quota import RedisQuota
from modhub.settings import Settings, finalize
from tests.support import ContractChecker, Creds, SignedClient, recreate_database

PG_URL = os.environ.get("MODHUB_TEST_DATABASE_URL",
                        "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_test")
REDIS_URL = os.environ.get("MODHUB_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture(scope="session")
def pg_engine():
    """The test database, created afresh and migrated to head once per run."""
    recreate_database(PG_URL)
    upgrade(PG_URL)
    engine = create_engine(PG_URL)
    yield engine
    engine.dispose()


@pytest.fixture()
def db(pg_engine):
    """A Database whose sessions live inside one transaction rolled back after the test."""
    conn = pg_engine.connect()
    outer = conn.begin()
    sessions = sessionmaker(bind=conn, expire_on_commit=False,
                            join_transaction_mode="create_savepoint")
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
    prefix = f"modhub:test:{uuid.uuid4().hex}"
    yield RedisQuota(redis_client, prefix=prefix)
    for key in redis_client.scan_iter(f"{prefix}:*"):
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
    return Settings(data_dir=tmp_path, database_url=PG_URL, redis_url=REDIS_URL,
                    encryption_key=Fernet.generate_key().decode(), validate_responses=True,
                    app_cache_seconds=0, site_url="https://modhub.example",
                    webhook_queue=f"webhooks-test-{uuid.uuid4().hex[:12]}")


@pytest.fixture()
def embedded_settings(tmp_path):
    """The embedded default: SQLite in a temporary data folder, migrated, no Redis."""
    settings = finalize(Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/m.db"))
    upgrade(settings.database_url)
    return settings


@pytest.fixture()
def app(settings, db, quota, contract):
    """The full application over the test database and Redis."""
    return create_app(settings, db=db, quota=quota, contract=contract)


@pytest.fixture()
def platform(app):
    """The app's Platform."""
    return app.app.extensions["modhub"]


@pytest.fixture()
def client(app):
    """An unsigned HTTP client through the whole ASGI stack."""
    with app.test_client() as c:
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
            session.add(ProxyToken(token_hash=token_hash(text), app_id=app_id, user_id=user_id,
                                   scopes=[], expires_at=now + dt.timedelta(hours=hours),
                                   revoked_at=now if revoked else None))
            session.commit()
        return text
    return make
