"""search and sync: full-text artifacts and the commit-safe change position of resource posts

PostgreSQL: pg_trgm; generated columns search_doc (titles, abbreviation and tags: trigram GIN
index for partial words) and search_tsv (weighted 'simple' tsvector of all searchable text plus
the bigrams of its CJK runs, GIN index); sync_xid (the xid8, as bigint, of the last writing
transaction, set by a trigger on every content change) with an index on (sync_xid, id).
SQLite: an FTS5 trigram table over the searchable columns, kept by triggers; sync_seq (a counter
bumped by a trigger: SQLite writers are serialized, so its order is the commit order).

None of this is in the models: models/search_schema.py names these artifacts and its
include_object hook keeps them out of the models-vs-migrations comparison.
On SQLite, a later batch migration that recreates resource_post drops these triggers: recreate
them there (the statements below). Counter columns are not content: updating only them bumps
neither sync position nor update_time.

Revision ID: 0005
Revises: 0002
Create Date: 2026-11-21
"""

from alembic import op

revision = '0005'
down_revision = '0002'
branch_labels = None
depends_on = None

COUNTERS = ("views_count", "download_count", "like_count", "collection_count", "comment_count",
            "rating_count", "rating_total")
PG_OWN = ("search_doc", "search_tsv", "search_rating", "sync_xid")
SYNC_OWN = PG_OWN + ("sync_seq",)
LISTED = "status = 'PUBLISHED' AND visibility = 'PUBLIC' AND is_delete IS false"
# Partial indexes over listed posts, one per sort key, so sorted pages read in index order.
SORT_INDEXES = {"updated": "update_time", "downloads": "download_count", "likes": "like_count",
                "published": "publish_time", "rating": "search_rating"}
FILTER_COLUMNS = ("section_code, resource_type, run_platform, client_environment, server_environment, "
                  "is_paid, resource_state")

CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"  # kana, hanzi, hangul


TITLES = "main_name || ' ' || coalesce(sub_name, '')"
ABBR_TAGS = "coalesce(abbr_name, '') || ' ' || coalesce(tags::jsonb::text, '')"


def _words(sql: str) -> str:
    """A text expression plus the CJK bigrams of it: Chinese has no spaces between words."""
    return f"modhub_search_words({sql})"


PG_UPGRADE = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    # 'simple' keeps a run of CJK characters as one word; adding its overlapping bigrams lets
    # a phrase of bigrams find any substring of 2+ characters through the GIN index.
    f"""CREATE FUNCTION modhub_search_words(doc text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
    DECLARE run text; result text := coalesce(doc, ''); i int;
    BEGIN
      FOR run IN SELECT m[1] FROM regexp_matches(result, '([{CJK}]+)', 'g') AS m LOOP
        FOR i IN 1 .. length(run) - 1 LOOP
          result := result || ' ' || substr(run, i, 2);
        END LOOP;
      END LOOP;
      RETURN result;
    END $$""",
    f"""ALTER TABLE resource_post
      ADD COLUMN search_doc text GENERATED ALWAYS AS (
        coalesce(main_name, '') || ' ' || coalesce(sub_name, '') || ' ' || coalesce(abbr_name, '')
        || ' ' || coalesce(tags::jsonb::text, '')) STORED,
      ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple', {_words(TITLES)}), 'A')
        || setweight(to_tsvector('simple', {_words(ABBR_TAGS)}), 'B')
        || setweight(to_tsvector('simple', {_words('introduction')}), 'C')) STORED,
      ADD COLUMN search_rating double precision GENERATED ALWAYS AS (
        CASE WHEN rating_count > 0 THEN rating_total::float8 / rating_count ELSE 0 END) STORED,
      ADD COLUMN sync_xid bigint""",
    "UPDATE resource_post SET sync_xid = pg_current_xact_id()::text::bigint",
    "ALTER TABLE resource_post ALTER COLUMN sync_xid SET NOT NULL",
    "CREATE INDEX ix_resource_post_search_tsv ON resource_post USING gin (search_tsv)",
    "CREATE INDEX ix_resource_post_search_trgm ON resource_post USING gin (search_doc gin_trgm_ops)",
    "CREATE INDEX ix_resource_post_sync_xid ON resource_post (sync_xid, id)",
    # json has no operators: the mainCategory filter compares the jsonb cast, indexed here
    "CREATE INDEX ix_resource_post_search_categories ON resource_post "
    "USING gin ((main_categories::jsonb) jsonb_path_ops)",
    *(f"CREATE INDEX ix_resource_post_search_{name} ON resource_post ({column}, id) WHERE {LISTED}"
      for name, column in SORT_INDEXES.items()),
    # every equality filter, so counting a filtered listing is an index-only scan of listed posts
    f"CREATE INDEX ix_resource_post_search_filters ON resource_post ({FILTER_COLUMNS}, id) WHERE {LISTED}",
    # The probe copies NEW with counters and our own columns reset to OLD: any other difference,
    # including columns added by later migrations, is a content change.
    f"""CREATE FUNCTION resource_post_sync_mark() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE probe resource_post;
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        probe := NEW;
        {' '.join(f'probe.{c} := OLD.{c};' for c in COUNTERS + PG_OWN)}
        IF probe::text IS NOT DISTINCT FROM OLD::text THEN
          NEW.sync_xid := OLD.sync_xid;
          RETURN NEW;
        END IF;
        IF NEW.update_time IS NOT DISTINCT FROM OLD.update_time THEN
          NEW.update_time := clock_timestamp();
        END IF;
      END IF;
      NEW.sync_xid := pg_current_xact_id()::text::bigint;
      RETURN NEW;
    END $$""",
    """CREATE TRIGGER resource_post_sync_mark BEFORE INSERT OR UPDATE ON resource_post
      FOR EACH ROW EXECUTE FUNCTION resource_post_sync_mark()""",
]

PG_DOWNGRADE = [
    "DROP INDEX ix_resource_post_search_categories", "DROP INDEX ix_resource_post_search_filters",
    *(f"DROP INDEX ix_resource_post_search_{name}" for name in SORT_INDEXES),
    "DROP TRIGGER resource_post_sync_mark ON resource_post",
    "DROP FUNCTION resource_post_sync_mark()",
    "ALTER TABLE resource_post DROP COLUMN search_doc, DROP COLUMN search_tsv, "
    "DROP COLUMN search_rating, DROP COLUMN sync_xid",
    "DROP FUNCTION modhub_search_words(text)",
]

FTS_COLUMNS = "main_name, sub_name, abbr_name, tags, introduction"
# Tags are stored as JSON text with \uXXXX escapes; index their decoded values.
TAGS_NEW = "(SELECT group_concat(value, ' ') FROM json_each(new.tags))"
TAGS_OLD = "(SELECT group_concat(value, ' ') FROM json_each(old.tags))"
FTS_NEW = f"new.id, new.main_name, new.sub_name, new.abbr_name, {TAGS_NEW}, new.introduction"
FTS_OLD = f"'delete', old.id, old.main_name, old.sub_name, old.abbr_name, {TAGS_OLD}, old.introduction"


def _sqlite_upgrade(columns: list[str]) -> list[str]:
    content = [c for c in columns if c not in COUNTERS + SYNC_OWN + ("update_time",)]
    changed = " OR ".join(f"new.{c} IS NOT old.{c}" for c in content)
    fts_changed = " OR ".join(f"new.{c} IS NOT old.{c}" for c in FTS_COLUMNS.split(", "))
    next_seq = "(SELECT coalesce(max(sync_seq), 0) + 1 FROM resource_post)"
    return [
        "ALTER TABLE resource_post ADD COLUMN sync_seq INTEGER NOT NULL DEFAULT 0",
        "UPDATE resource_post SET sync_seq = id",
        "CREATE INDEX ix_resource_post_sync_seq ON resource_post (sync_seq, id)",
        f"""CREATE VIRTUAL TABLE resource_post_fts USING fts5({FTS_COLUMNS},
            content='resource_post', content_rowid='id', tokenize='trigram')""",
        f"INSERT INTO resource_post_fts(rowid, {FTS_COLUMNS}) SELECT id, main_name, sub_name, abbr_name, "
        "(SELECT group_concat(value, ' ') FROM json_each(tags)), introduction FROM resource_post",
        f"""CREATE TRIGGER resource_post_fts_insert AFTER INSERT ON resource_post BEGIN
            INSERT INTO resource_post_fts(rowid, {FTS_COLUMNS}) VALUES ({FTS_NEW});
            UPDATE resource_post SET sync_seq = {next_seq} WHERE id = new.id; END""",
        f"""CREATE TRIGGER resource_post_fts_delete AFTER DELETE ON resource_post BEGIN
            INSERT INTO resource_post_fts(resource_post_fts, rowid, {FTS_COLUMNS}) VALUES ({FTS_OLD});
            END""",
        f"""CREATE TRIGGER resource_post_fts_update AFTER UPDATE ON resource_post WHEN {fts_changed} BEGIN
            INSERT INTO resource_post_fts(resource_post_fts, rowid, {FTS_COLUMNS}) VALUES ({FTS_OLD});
            INSERT INTO resource_post_fts(rowid, {FTS_COLUMNS}) VALUES ({FTS_NEW}); END""",
        f"""CREATE TRIGGER resource_post_sync_mark AFTER UPDATE ON resource_post
            WHEN {changed} OR new.update_time IS NOT old.update_time BEGIN
            UPDATE resource_post SET sync_seq = {next_seq},
              update_time = CASE WHEN new.update_time IS old.update_time
                THEN strftime('%Y-%m-%d %H:%M:%f000', 'now') ELSE new.update_time END
            WHERE id = new.id; END""",
    ]


SQLITE_DOWNGRADE = [
    "DROP TRIGGER resource_post_sync_mark", "DROP TRIGGER resource_post_fts_update",
    "DROP TRIGGER resource_post_fts_delete", "DROP TRIGGER resource_post_fts_insert",
    "DROP TABLE resource_post_fts", "DROP INDEX ix_resource_post_sync_seq",
    "ALTER TABLE resource_post DROP COLUMN sync_seq",
]


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        statements = PG_UPGRADE
    else:
        columns = [row[1] for row in bind.exec_driver_sql("PRAGMA table_info(resource_post)")]
        statements = _sqlite_upgrade(columns)
    for statement in statements:
        op.execute(statement)


def downgrade() -> None:
    statements = PG_DOWNGRADE if op.get_bind().dialect.name == "postgresql" else SQLITE_DOWNGRADE
    for statement in statements:
        op.execute(statement)
