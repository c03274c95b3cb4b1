"""search: narrow search-document tables of the community search (PostgreSQL)

community_search_doc holds one row per live discussion or question post, live answer of a live
question and live moment: its kind (the post type, QUESTION_ANSWER, USER_MOMENT), entity id,
section (an answer's is its question's; moments have none), time (publishTime of posts,
createTime of answers and moments), lower-cased title (posts only), the source row's weighted
search_tsv (0010) and the lower-cased text that the trigram path matches (the expressions of
0008/0010's trigram indexes). The community search ranks these narrow rows instead of the wide
source rows. Triggers keep it in the writing transaction: an insert, a content, time or section
change and a (soft) delete of a post, answer or moment; a question's delete hides its answers and
its section change moves them. GIN indexes: the tsvector, and trigrams of the lower-cased text.
The source tables' own text indexes (0008's trigram index of posts, 0010's tsvector and trigram
indexes) served only that search and are dropped; their search_tsv columns stay.

resource_search_doc is the same for the resource part: one row per listed resource post (published,
public, not deleted) with its section, publishTime, mainName and the search_doc and search_tsv of
0005 (their GIN indexes copied), kept by a trigger on resource_post; counter updates skip it.

SQLite keeps its FTS5 tables (0010): nothing changes there.

Revision ID: 0012_search
Revises: 0011
Create Date: 2026-11-23
"""

from alembic import op

revision = '0012_search'
down_revision = '0011'
branch_labels = None
depends_on = None

ANSWER, MOMENT, QUESTION = "QUESTION_ANSWER", "USER_MOMENT", "QUESTION_POST"
POST_TEXT = "lower({r}.title || ' ' || coalesce({r}.content_md, ''))"
ANSWER_TEXT = "lower(coalesce({r}.content_md, ''))"
MOMENT_TEXT = "lower({r}.content)"
COLUMNS = "kind, entity_id, section_code, at, title, search_tsv, search_text"
RESOURCE_COLUMNS = "id, section_code, publish_time, main_name, search_doc, search_tsv"
LISTED = "{r}.status = 'PUBLISHED' AND {r}.visibility = 'PUBLIC' AND {r}.is_delete IS false"


# name -> its definition (0008's trigram index of posts, 0010's others), recreated by downgrade
SOURCE_INDEXES = {
    **{f"ix_{table}_search_tsv": f"CREATE INDEX ix_{table}_search_tsv ON {table} USING gin (search_tsv) "
       "WHERE is_delete IS false" for table in ("community_post", "community_answer", "community_moment")},
    "ix_community_post_search_trgm": "CREATE INDEX ix_community_post_search_trgm ON community_post USING gin "
                                     "((lower(title || ' ' || coalesce(content_md, ''))) gin_trgm_ops)",
    "ix_community_answer_search_trgm": "CREATE INDEX ix_community_answer_search_trgm ON community_answer "
                                       "USING gin ((lower(coalesce(content_md, ''))) gin_trgm_ops)",
    "ix_community_moment_search_trgm": "CREATE INDEX ix_community_moment_search_trgm ON community_moment "
                                       "USING gin ((lower(content)) gin_trgm_ops)",
}


def _resource_doc(r: str) -> str:
    return ", ".join(f"{r}.{c}" for c in RESOURCE_COLUMNS.split(", "))


def _post_doc(r: str) -> str:
    return (f"{r}.post_type, {r}.id, {r}.section_code, {r}.publish_time, lower({r}.title), "
            f"{r}.search_tsv, {POST_TEXT.format(r=r)}")


def _answers_of(question: str) -> str:
    """The documents of the live answers of a live question post (a row variable)."""
    return (f"INSERT INTO community_search_doc ({COLUMNS}) SELECT '{ANSWER}', a.id, {question}.section_code, "
            f"a.create_time, NULL, a.search_tsv, {ANSWER_TEXT.format(r='a')} FROM community_answer a "
            f"WHERE a.question_id = {question}.id AND a.is_delete IS false")


PG_UPGRADE = [
    """CREATE TABLE community_search_doc (
        kind varchar(32) NOT NULL,
        entity_id bigint NOT NULL,
        section_code varchar(64),
        at timestamptz NOT NULL,
        title text,
        search_tsv tsvector NOT NULL,
        search_text text NOT NULL,
        CONSTRAINT pk_community_search_doc PRIMARY KEY (kind, entity_id))""",
    f"""CREATE FUNCTION community_search_doc_post() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE moved boolean := TG_OP = 'DELETE';
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        DELETE FROM community_search_doc WHERE kind = OLD.post_type AND entity_id = OLD.id;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.is_delete IS false THEN
        INSERT INTO community_search_doc ({COLUMNS}) VALUES ({_post_doc('NEW')});
      END IF;
      IF TG_OP = 'UPDATE' THEN  -- a question's answers follow its deletion and section
        moved := (OLD.is_delete, OLD.section_code, OLD.post_type)
                 IS DISTINCT FROM (NEW.is_delete, NEW.section_code, NEW.post_type);
      END IF;
      IF moved AND OLD.post_type = '{QUESTION}' THEN
        DELETE FROM community_search_doc WHERE kind = '{ANSWER}'
          AND entity_id IN (SELECT id FROM community_answer WHERE question_id = OLD.id);
      END IF;
      IF moved AND TG_OP = 'UPDATE' THEN
        IF NEW.post_type = '{QUESTION}' AND NEW.is_delete IS false THEN
          {_answers_of('NEW')};
        END IF;
      END IF;
      RETURN NULL;
    END $$""",
    # The question row is locked first: its own trigger rewrites its answers' documents, so a
    # concurrent question change and answer write take turns instead of racing (a document of an
    # answer of a just deleted question, or a duplicate key). Writing an answer updates its
    # question's counters right after anyway.
    f"""CREATE FUNCTION community_search_doc_answer() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM community_post WHERE id = OLD.question_id FOR NO KEY UPDATE;
      ELSE
        PERFORM 1 FROM community_post WHERE id = NEW.question_id FOR NO KEY UPDATE;
      END IF;
      IF TG_OP <> 'INSERT' THEN
        DELETE FROM community_search_doc WHERE kind = '{ANSWER}' AND entity_id = OLD.id;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.is_delete IS false THEN
        INSERT INTO community_search_doc ({COLUMNS})
          SELECT '{ANSWER}', NEW.id, q.section_code, NEW.create_time, NULL, NEW.search_tsv,
                 {ANSWER_TEXT.format(r='NEW')}
          FROM community_post q
          WHERE q.id = NEW.question_id AND q.is_delete IS false AND q.post_type = '{QUESTION}';
      END IF;
      RETURN NULL;
    END $$""",
    f"""CREATE FUNCTION community_search_doc_moment() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        DELETE FROM community_search_doc WHERE kind = '{MOMENT}' AND entity_id = OLD.id;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.is_delete IS false THEN
        INSERT INTO community_search_doc ({COLUMNS}) VALUES ('{MOMENT}', NEW.id, NULL, NEW.create_time,
          NULL, NEW.search_tsv, {MOMENT_TEXT.format(r='NEW')});
      END IF;
      RETURN NULL;
    END $$""",
    # Counter updates (views, likes, answers...) change none of these columns: no trigger work.
    # search_tsv is generated from the title, tags and text, so it stands for all of them.
    *(f"""CREATE TRIGGER community_search_doc_{op_name} AFTER {op_name.upper()} ON {table}
          FOR EACH ROW {when} EXECUTE FUNCTION community_search_doc_{kind}()"""
      for table, kind, changed in (
          ("community_post", "post", ("post_type", "section_code", "publish_time", "title", "content_md",
                                      "search_tsv", "is_delete")),
          ("community_answer", "answer", ("question_id", "create_time", "content_md", "search_tsv",
                                          "is_delete")),
          ("community_moment", "moment", ("create_time", "content", "search_tsv", "is_delete")))
      for op_name, when in (
          ("insert", ""), ("delete", ""),
          ("update", "WHEN (" + " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in changed)
           + " OR OLD.id <> NEW.id)"))),
    f"INSERT INTO community_search_doc ({COLUMNS}) SELECT {_post_doc('p')} FROM community_post p "
    "WHERE p.is_delete IS false",
    f"INSERT INTO community_search_doc ({COLUMNS}) SELECT '{ANSWER}', a.id, q.section_code, a.create_time, "
    f"NULL, a.search_tsv, {ANSWER_TEXT.format(r='a')} FROM community_answer a "
    "JOIN community_post q ON q.id = a.question_id "
    f"WHERE a.is_delete IS false AND q.is_delete IS false AND q.post_type = '{QUESTION}'",
    f"INSERT INTO community_search_doc ({COLUMNS}) SELECT '{MOMENT}', m.id, NULL, m.create_time, NULL, "
    f"m.search_tsv, {MOMENT_TEXT.format(r='m')} FROM community_moment m WHERE m.is_delete IS false",
    "CREATE INDEX ix_community_search_doc_tsv ON community_search_doc USING gin (search_tsv)",
    "CREATE INDEX ix_community_search_doc_trgm ON community_search_doc USING gin (search_text gin_trgm_ops)",
    "ANALYZE community_search_doc",
    # listed resource posts: the community search's resource part reads this narrow copy
    """CREATE TABLE resource_search_doc (
        id bigint NOT NULL,
        section_code varchar(64) NOT NULL,
        publish_time timestamptz,
        main_name varchar(255) NOT NULL,
        search_doc text,
        search_tsv tsvector,
        CONSTRAINT pk_resource_search_doc PRIMARY KEY (id))""",
    f"""CREATE FUNCTION resource_search_doc_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        DELETE FROM resource_search_doc WHERE id = OLD.id;
      END IF;
      IF TG_OP <> 'DELETE' AND {LISTED.format(r='NEW')} THEN
        INSERT INTO resource_search_doc ({RESOURCE_COLUMNS}) VALUES ({_resource_doc('NEW')});
      END IF;
      RETURN NULL;
    END $$""",
    *(f"""CREATE TRIGGER resource_search_doc_{op_name} AFTER {op_name.upper()} ON resource_post
          FOR EACH ROW {when} EXECUTE FUNCTION resource_search_doc_sync()"""
      for op_name, when in (
          ("insert", ""), ("delete", ""),
          ("update", "WHEN (" + " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in (
              "status", "visibility", "is_delete", "section_code", "publish_time", "main_name",
              "search_doc", "search_tsv")) + " OR OLD.id <> NEW.id)"))),
    f"INSERT INTO resource_search_doc ({RESOURCE_COLUMNS}) SELECT {_resource_doc('r')} FROM resource_post r "
    f"WHERE {LISTED.format(r='r')}",
    "CREATE INDEX ix_resource_search_doc_tsv ON resource_search_doc USING gin (search_tsv)",
    "CREATE INDEX ix_resource_search_doc_trgm ON resource_search_doc USING gin (search_doc gin_trgm_ops)",
    "ANALYZE resource_search_doc",
    # The source tables' own text indexes (0008, 0010) served only the community search: every
    # write paid for them. Their search_tsv columns stay (the documents copy them).
    *(f"DROP INDEX {name}" for name in SOURCE_INDEXES),
]

PG_DOWNGRADE = [
    *SOURCE_INDEXES.values(),
    *(f"DROP TRIGGER resource_search_doc_{op_name} ON resource_post" for op_name in ("insert", "update", "delete")),
    "DROP TABLE resource_search_doc", "DROP FUNCTION resource_search_doc_sync()",
    *(f"DROP TRIGGER community_search_doc_{op_name} ON {table}"
      for table in ("community_post", "community_answer", "community_moment")
      for op_name in ("insert", "update", "delete")),
    "DROP TABLE community_search_doc",
    "DROP FUNCTION community_search_doc_post()", "DROP FUNCTION community_search_doc_answer()",
    "DROP FUNCTION community_search_doc_moment()",
]


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in PG_UPGRADE:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in PG_DOWNGRADE:
            op.execute(statement)
