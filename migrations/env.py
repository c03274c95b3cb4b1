"""Alembic environment: migrates the database named by the modhub settings (or the given URL)."""

from alembic import context
from sqlalchemy import create_engine

from models import Base
from models.search.schema import include_object

config = context.config
url = config.get_main_option("sqlalchemy.url")


def run_offline() -> None:
    """Emit SQL without a connection."""
    context.configure(
        url=url,
        target_metadata=Base.metadata,
        literal_binds=True,
        render_as_batch=url.startswith("sqlite"),
        include_object=include_object,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Migrate through a connection (one passed in by the caller, or a new engine)."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    engine = create_engine(url)
    with engine.begin() as conn:
        _migrate(conn)
    engine.dispose()


def _migrate(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        include_object=include_object,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
