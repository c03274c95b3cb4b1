"""The aggregate cache: one computation per ttl and database, dropped by forget()."""

from models.catalog.queries import cached, forget


def test_cached_values_are_reused_within_ttl_and_recomputed_after(db):
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    with db.session() as session:
        assert cached(session, "k", compute) == 1
        assert cached(session, "k", compute) == 1 and len(calls) == 1
        assert cached(session, "other", compute) == 2
        assert cached(session, "k", compute, ttl=0) == 3  # expired
        forget(session)
        assert cached(session, "k", compute) == 4


def test_databases_do_not_share_entries(db, pg_engine):
    with db.session() as session:
        cached(session, "shared-key", lambda: "test connection")
    with pg_engine.connect() as conn:
        from sqlalchemy.orm import Session

        with Session(conn) as other:
            assert cached(other, "shared-key", lambda: "another bind") == "another bind"
