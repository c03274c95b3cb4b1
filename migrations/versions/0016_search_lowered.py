"""search lowered: resource_search_doc holds main_name and search_doc lower-cased (PostgreSQL)

A keyword search compares the keyword as a substring, ignoring case, with search_doc on every one
of the newest documents it reads (models/search/tiers.py) and with main_name on its substring
matches. PostgreSQL's ILIKE lower-cases both sides for every row in a UTF-8 database (three times
the cost of a LIKE over the 4,000 newest documents of the demo catalogue: 4.7 ms against 1.6 ms).
Stored lower-cased, the text is compared with LIKE and the keyword's pattern lower-cased once by
the same lower(): the same matches, as ILIKE is defined as lower(text) LIKE lower(pattern). The
trigram index serves LIKE as it served ILIKE (its trigrams are lower-cased either way).
community_search_doc has held its title and text lower-cased since 0012.

Revision ID: 0016_search_lowered
Revises: 0015_admin_audit_actor
Create Date: 2026-11-26
"""

from alembic import op

revision = "0016_search_lowered"
down_revision = "0015_admin_audit_actor"
branch_labels = None
depends_on = None

COLUMNS = (
    "id, section_code, publish_time, main_name, search_doc, search_tsv, resource_type, main_categories, "
    "run_platform, client_environment, server_environment, is_paid, resource_state"
)
LISTED = "{r}.status = 'PUBLISHED' AND {r}.visibility = 'PUBLIC' AND {r}.is_delete IS false"
LOWERED = ("main_name", "search_doc")


def _values(r: str, lowered: bool) -> str:
    def value(c: str) -> str:
        if c == "main_categories":
            return f"{r}.{c}::jsonb"
        return f"lower({r}.{c})" if lowered and c in LOWERED else f"{r}.{c}"

    return ", ".join(value(c) for c in COLUMNS.split(", "))


def _sync_function(lowered: bool) -> str:
    return f"""CREATE OR REPLACE FUNCTION resource_search_doc_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        DELETE FROM resource_search_doc WHERE id = OLD.id;
      END IF;
      IF TG_OP <> 'DELETE' AND {LISTED.format(r="NEW")} THEN
        INSERT INTO resource_search_doc ({COLUMNS}) VALUES ({_values("NEW", lowered)});
      END IF;
      RETURN NULL;
    END $$"""


def _refill(lowered: bool) -> list[str]:
    # Filled afresh rather than updated in place (as 0013): an UPDATE of every row would leave the
    # table twice its size, and the GIN indexes are built once over the whole table.
    return [
        "DROP INDEX ix_resource_search_doc_tsv",
        "DROP INDEX ix_resource_search_doc_trgm",
        "DROP INDEX ix_resource_search_doc_head",
        "TRUNCATE resource_search_doc",
        _sync_function(lowered),
        f"INSERT INTO resource_search_doc ({COLUMNS}) SELECT {_values('r', lowered)} "
        f"FROM resource_post r WHERE {LISTED.format(r='r')}",
        "SET LOCAL maintenance_work_mem = '256MB'",
        "CREATE INDEX ix_resource_search_doc_tsv ON resource_search_doc USING gin (search_tsv)",
        "CREATE INDEX ix_resource_search_doc_trgm ON resource_search_doc USING gin (search_doc gin_trgm_ops)",
        "CREATE INDEX ix_resource_search_doc_head ON resource_search_doc "
        "USING gin (ts_filter(search_tsv, '{a,b}'))",
        "ANALYZE resource_search_doc",
    ]


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in _refill(lowered=True):
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in _refill(lowered=False):
            op.execute(statement)
