"""`modhub serve`'s start-up checks: a pool too small for the handler threads is said at start."""

import logging

import pytest
from cryptography.fernet import Fernet

from modhub.cli.main import startup_checks
from modhub.settings import Settings

# a PostgreSQL that refuses at once: the schema check says so and lets the server start
NOWHERE = "postgresql+psycopg2://postgres@127.0.0.1:1/modhub"


@pytest.mark.parametrize(("threads", "pool", "warned"), [(4, 10, False), (5, 10, False), (6, 10, True)])
def test_handler_threads_over_half_the_pool_are_said_at_start(tmp_path, caplog, threads, pool, warned):
    settings = Settings(
        data_dir=tmp_path,
        database_url=NOWHERE,
        encryption_key=Fernet.generate_key().decode(),
        handler_threads=threads,
        db_pool_size=pool,
        db_connect_timeout_seconds=1,
    )
    with caplog.at_level(logging.WARNING, logger="modhub"):
        startup_checks(settings)
    said = [r.getMessage() for r in caplog.records if "MODHUB_HANDLER_THREADS" in r.getMessage()]
    assert bool(said) is warned
    if warned:
        assert said == [
            f"MODHUB_HANDLER_THREADS={threads} is over half of MODHUB_DB_POOL_SIZE={pool}: each handler "
            "thread keeps a connection for its reads and takes another to write, so writes will open "
            "connections past the pool"
        ]
    assert any("database not reachable" in r.getMessage() for r in caplog.records)
