"""search tiers: resource_search_doc carries the search filters and a GIN index of its titles,
abbreviation and tags (PostgreSQL)

The resource search ranks a keyword by relevance tiers (title phrase, title words, abbreviation and
tag words, introduction, other substrings; newest postId first inside a tier), reading the newest
rows of resource_search_doc first and an index only for a tier too rare there (models/search/
tiers.py). So that every keyword search by relevance reads this narrow table, it gains the filter
columns of resource_post (type, main categories, platform, environments, paid, state), copied by
its trigger; ix_resource_search_doc_head indexes the A and B weights of search_tsv (titles,
abbreviation, tags), so a title tier is found without rechecking every document that mentions the
words in its introduction; ix_resource_search_doc_filters (section, type) narrows a keyword within
a section before any row is read.

Revision ID: 0013_search_tiers
Revises: 0012_search
Create Date: 2026-11-24
"""

from alembic import op

revision = '0013_search_tiers'
down_revision = '0012_search'
branch_labels = None
depends_on = None

OLD_COLUMNS = "id, section_code, publish_time, main_name, search_doc, search_tsv"
FILTERS = ("resource_type", "main_categories", "run_platform", "client_environment", "server_environment",
           "is_paid", "resource_state")
LISTED = "{r}.status = 'PUBLISHED' AND {r}.visibility = 'PUBLIC' AND {r}.is_delete IS false"
WATCHED = ("status", "visibility", "is_delete", "section_code", "publish_time", "main_name", "search_doc",
           "search_tsv")
HEAD_INDEX = ("CREATE INDEX ix_resource_search_doc_head ON resource_search_doc "
              "USING gin (ts_filter(search_tsv, '{a,b}'))")


def _sync_function(columns: str, values: str) -> str:
    return f"""CREATE OR REPLACE FUNCTION resource_search_doc_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        DELETE FROM resource_search_doc WHERE id = OLD.id;
      END IF;
      IF TG_OP <> 'DELETE' AND {LISTED.format(r='NEW')} THEN
        INSERT INTO resource_search_doc ({columns}) VALUES ({values});
      END IF;
      RETURN NULL;
    END $$"""


def _update_trigger(watched: tuple) -> list[str]:
    when = " OR ".join(f"OLD.{c}::jsonb IS DISTINCT FROM NEW.{c}::jsonb" if c == "main_categories"
                       else f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in watched)
    return ["DROP TRIGGER resource_search_doc_update ON resource_post",
            f"""CREATE TRIGGER resource_search_doc_update AFTER UPDATE ON resource_post
              FOR EACH ROW WHEN ({when} OR OLD.id <> NEW.id) EXECUTE FUNCTION resource_search_doc_sync()"""]


def _values(columns: str, r: str) -> str:
    return ", ".join(f"{r}.{c}::jsonb" if c == "main_categories" else f"{r}.{c}" for c in columns.split(", "))


NEW_COLUMNS = OLD_COLUMNS + ", " + ", ".join(FILTERS)

PG_UPGRADE = [
    # Filled afresh rather than updated in place: an UPDATE of every row would leave the table
    # twice its size, and the GIN indexes are built once over the whole table instead of row by row.
    "DROP INDEX ix_resource_search_doc_tsv", "DROP INDEX ix_resource_search_doc_trgm",
    "TRUNCATE resource_search_doc",
    "ALTER TABLE resource_search_doc ADD COLUMN resource_type varchar(64), "
    "ADD COLUMN main_categories jsonb NOT NULL DEFAULT '[]', ADD COLUMN run_platform varchar(64), "
    "ADD COLUMN client_environment varchar(16), ADD COLUMN server_environment varchar(16), "
    "ADD COLUMN is_paid boolean NOT NULL DEFAULT false, ADD COLUMN resource_state varchar(16)",
    _sync_function(NEW_COLUMNS, _values(NEW_COLUMNS, "NEW")),
    *_update_trigger(WATCHED + FILTERS),
    f"INSERT INTO resource_search_doc ({NEW_COLUMNS}) SELECT {_values(NEW_COLUMNS, 'r')} "
    f"FROM resource_post r WHERE {LISTED.format(r='r')}",
    "SET LOCAL maintenance_work_mem = '256MB'",
    "CREATE INDEX ix_resource_search_doc_tsv ON resource_search_doc USING gin (search_tsv)",
    "CREATE INDEX ix_resource_search_doc_trgm ON resource_search_doc USING gin (search_doc gin_trgm_ops)",
    HEAD_INDEX,
    # a keyword within a section (and type): the bitmap of these rows, ANDed with the text's
    "CREATE INDEX ix_resource_search_doc_filters ON resource_search_doc (section_code, resource_type)",
    "ANALYZE resource_search_doc",
]

PG_DOWNGRADE = [
    "DROP INDEX ix_resource_search_doc_head", "DROP INDEX ix_resource_search_doc_filters",
    _sync_function(OLD_COLUMNS, _values(OLD_COLUMNS, "NEW")),
    *_update_trigger(WATCHED),
    "ALTER TABLE resource_search_doc " + ", ".join(f"DROP COLUMN {c}" for c in FILTERS),
]


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in PG_UPGRADE:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in PG_DOWNGRADE:
            op.execute(statement)
