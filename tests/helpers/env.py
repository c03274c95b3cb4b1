"""Where the tests run: the PostgreSQL and Redis they use (one database per xdist worker) and the
run's encryption key. Read once per process, before anything imports the app."""

from __future__ import annotations

import os

from cryptography.fernet import Fernet

from models.identity import accounts

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1"... under pytest-xdist
RUN_PG_URL = os.environ.get(
    "MODHUB_TEST_DATABASE_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_test"
)
PG_URL = f"{RUN_PG_URL}_{WORKER}" if WORKER else RUN_PG_URL
REDIS_URL = os.environ.get("MODHUB_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
REDIS_PREFIX = f"modhub:test:{WORKER or 'main'}"
ENCRYPTION_KEY = Fernet.generate_key().decode()  # one per run: part of the app's build
PRODUCTION_DUMMY_HASH = accounts._DUMMY_HASH  # before tests/conftest.py lowers the hash costs
