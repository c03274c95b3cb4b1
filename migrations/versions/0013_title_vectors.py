"""title vectors: GIN indexes of the title (weight A) part of the search documents (PostgreSQL)

A keyword's title-phrase hits (the keyword as a phrase in the titles, weight A) always outrank its
other hits (see models/community/search_backend.py, title_first), so the first pages of a broad
keyword can be ranked from those hits alone. These expression indexes find them without reading
every hit: ts_filter(search_tsv, '{a}') keeps the weight-A positions only, and a phrase matches it
exactly when it matches search_tsv restricted to weight A. Title words only: the indexes are small
(about 2 MB each at 100,000 resources).

SQLite: nothing (its FTS5 search is unchanged).

Revision ID: 0013_title_vectors
Revises: 0012_search
Create Date: 2026-11-24
"""

from alembic import op

revision = '0013_title_vectors'
down_revision = '0012_search'
branch_labels = None
depends_on = None

TITLE_VECTOR = "ts_filter(search_tsv, '{a}'::\"char\"[])"
TABLES = ("community_search_doc", "resource_search_doc")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in TABLES:
            op.execute(f"CREATE INDEX ix_{table}_title ON {table} USING gin (({TITLE_VECTOR}))")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in TABLES:
            op.execute(f"DROP INDEX ix_{table}_title")
