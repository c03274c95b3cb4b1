"""community search: full-text artifacts of discussion and question posts, answers and moments

The catalogue's search approach (0005) applied to the community tables.
PostgreSQL: a generated, weighted 'simple' tsvector `search_tsv` (plus the bigrams of CJK runs,
through 0005's modhub_search_words) on community_post (title A, tags B, Markdown text C),
community_answer (Markdown text C) and community_moment (content C), each with a GIN index over
live rows; trigram GIN indexes over the lower-cased text of answers and moments for partial
words (posts already have one, 0008); and covering prefix indexes over the lower-cased titles of
live posts (replacing 0008's) and names of listed resources for search/suggest.
SQLite: FTS5 trigram tables community_post_fts, community_answer_fts and community_moment_fts
(external content, kept by triggers).

None of this is in the models: models/search/schema.py names these artifacts. On SQLite, a later
batch migration that recreates one of these tables drops its triggers: recreate them there.

Revision ID: 0010_community
Revises: 0009
Create Date: 2026-11-23
"""

from alembic import op

revision = '0010_community'
down_revision = '0009'
branch_labels = None
depends_on = None

LISTED = "status = 'PUBLISHED' AND visibility = 'PUBLIC' AND is_delete IS false"


def _vec(expr: str, weight: str) -> str:
    return f"setweight(to_tsvector('simple', modhub_search_words({expr})), '{weight}')"


PG_UPGRADE = [
    f"""ALTER TABLE community_post ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
        {_vec("title", "A")} || {_vec("coalesce(tags::jsonb::text, '')", "B")}
        || {_vec("coalesce(content_md, '')", "C")}) STORED""",
    f"""ALTER TABLE community_answer ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
        {_vec("coalesce(content_md, '')", "C")}) STORED""",
    f"""ALTER TABLE community_moment ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
        {_vec("content", "C")}) STORED""",
    "CREATE INDEX ix_community_post_search_tsv ON community_post USING gin (search_tsv) "
    "WHERE is_delete IS false",
    "CREATE INDEX ix_community_answer_search_tsv ON community_answer USING gin (search_tsv) "
    "WHERE is_delete IS false",
    "CREATE INDEX ix_community_moment_search_tsv ON community_moment USING gin (search_tsv) "
    "WHERE is_delete IS false",
    "CREATE INDEX ix_community_answer_search_trgm ON community_answer USING gin "
    "((lower(coalesce(content_md, ''))) gin_trgm_ops)",
    "CREATE INDEX ix_community_moment_search_trgm ON community_moment USING gin "
    "((lower(content)) gin_trgm_ops)",
    # search/suggest: covering prefix indexes (index-only scans: a short, common prefix reads
    # no table row); the live-post one replaces 0008's plain prefix index
    "CREATE INDEX ix_resource_post_suggest ON resource_post (lower(main_name) text_pattern_ops) "
    f"INCLUDE (download_count, id, main_name) WHERE {LISTED}",
    "CREATE INDEX ix_community_post_suggest_live ON community_post (lower(title) text_pattern_ops) "
    "INCLUDE (views_count, id, title) WHERE is_delete IS false",
    "DROP INDEX ix_community_post_suggest",
]

PG_DOWNGRADE = [
    "CREATE INDEX ix_community_post_suggest ON community_post (lower(title) text_pattern_ops)",
    "DROP INDEX ix_community_post_suggest_live", "DROP INDEX ix_resource_post_suggest",
    "DROP INDEX ix_community_moment_search_trgm", "DROP INDEX ix_community_answer_search_trgm",
    "DROP INDEX ix_community_moment_search_tsv", "DROP INDEX ix_community_answer_search_tsv",
    "DROP INDEX ix_community_post_search_tsv",
    "ALTER TABLE community_moment DROP COLUMN search_tsv",
    "ALTER TABLE community_answer DROP COLUMN search_tsv",
    "ALTER TABLE community_post DROP COLUMN search_tsv",
]

# table -> its FTS columns as stored in the fts table, and the expression of each over a row
# (tags are JSON text with \\uXXXX escapes: their decoded values are indexed)
FTS = {
    "community_post": {"title": "{r}.title",
                       "tags": "(SELECT group_concat(value, ' ') FROM json_each({r}.tags))",
                       "content_md": "{r}.content_md"},
    "community_answer": {"content_md": "{r}.content_md"},
    "community_moment": {"content": "{r}.content"},
}


def _sqlite_upgrade() -> list[str]:
    statements = []
    for table, columns in FTS.items():
        fts, names = f"{table}_fts", ", ".join(columns)

        def values(row: str, columns=columns) -> str:
            return ", ".join(expr.format(r=row) for expr in columns.values())
        changed = " OR ".join(f"new.{c} IS NOT old.{c}" for c in columns)
        statements += [
            f"CREATE VIRTUAL TABLE {fts} USING fts5({names}, content='{table}', content_rowid='id', "
            "tokenize='trigram')",
            f"INSERT INTO {fts}(rowid, {names}) SELECT id, {values(table)} FROM {table}",
            f"""CREATE TRIGGER {fts}_insert AFTER INSERT ON {table} BEGIN
                INSERT INTO {fts}(rowid, {names}) VALUES (new.id, {values('new')}); END""",
            f"""CREATE TRIGGER {fts}_delete AFTER DELETE ON {table} BEGIN
                INSERT INTO {fts}({fts}, rowid, {names}) VALUES ('delete', old.id, {values('old')}); END""",
            f"""CREATE TRIGGER {fts}_update AFTER UPDATE ON {table} WHEN {changed} BEGIN
                INSERT INTO {fts}({fts}, rowid, {names}) VALUES ('delete', old.id, {values('old')});
                INSERT INTO {fts}(rowid, {names}) VALUES (new.id, {values('new')}); END""",
        ]
    return statements


def _sqlite_downgrade() -> list[str]:
    statements = []
    for table in FTS:
        fts = f"{table}_fts"
        statements += [f"DROP TRIGGER {fts}_update", f"DROP TRIGGER {fts}_delete",
                       f"DROP TRIGGER {fts}_insert", f"DROP TABLE {fts}"]
    return statements


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for statement in PG_UPGRADE if postgres else _sqlite_upgrade():
        op.execute(statement)


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for statement in PG_DOWNGRADE if postgres else _sqlite_downgrade():
        op.execute(statement)
