"""The one small search interface and its two implementations (PostgreSQL, embedded SQLite).

A backend answers four questions over the artifacts of migration 0005: which posts match a
keyword and how relevant they are, whether a post carries a main category, where a post sits in
the change feed, and which feed positions are settled (no unseen commit can still land before
them). Everything else in search and sync is plain SQLAlchemy shared by both databases.
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import Float, Integer, Select, String, case, cast, func, literal_column, or_, text, true
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from models.catalog import ResourcePost

P = ResourcePost


def like_pattern(keyword: str) -> str:
    """A %substring% LIKE pattern with the wildcards of the keyword escaped (escape char \\)."""
    escaped = keyword.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class SearchBackend(Protocol):
    """What search and sync need from the database's text and change-tracking features."""

    position: ColumnElement[int]

    def match(self, stmt: Select, keyword: str) -> tuple[Select, ColumnElement[float]]:
        """The statement narrowed to posts matching keyword, and their relevance (higher first)."""

    def has_category(self, code: str) -> ColumnElement[bool]:
        """True for posts whose mainCategories contain code."""

    def settled(self) -> ColumnElement[bool]:
        """True for feed positions that no transaction still running can precede."""


class PostgresSearch:
    """tsvector ('simple' config: language-neutral words) plus pg_trgm substring matching.

    Chinese text has no spaces, so 'simple' keeps a whole run of CJK characters as one word; the
    trigram index on search_doc finds substrings of it (and partial Latin words) with ILIKE.
    Relevance: ts_rank over the weighted vector (titles A, abbreviation and tags B, introduction
    C) plus the keyword's trigram word-similarity to the main title.
    """

    position = literal_column("resource_post.sync_xid", Integer)

    def match(self, stmt: Select, keyword: str) -> tuple[Select, ColumnElement[float]]:
        tsv = literal_column("resource_post.search_tsv")
        doc = literal_column("resource_post.search_doc", String)
        query = func.plainto_tsquery("simple", keyword)
        hit = or_(tsv.op("@@")(query), doc.ilike(like_pattern(keyword), escape="\\"))
        score = func.ts_rank(tsv, query, type_=Float) + func.word_similarity(keyword, P.main_name,
                                                                             type_=Float)
        return stmt.where(hit), score

    def has_category(self, code: str) -> ColumnElement[bool]:
        return cast(P.main_categories, JSONB).contains(cast([code], JSONB))

    def settled(self) -> ColumnElement[bool]:
        # Transactions older than the snapshot's xmin have all ended, so no commit can still land
        # at a lower xid; our own writes are final for ourselves.
        return or_(self.position < literal_column("pg_snapshot_xmin(pg_current_snapshot())::text::bigint"),
                   self.position == literal_column("pg_current_xact_id_if_assigned()::text::bigint"))


class SqliteSearch:
    """FTS5 with the trigram tokenizer: case-insensitive substrings in any script, bm25 ranking.

    Trigrams need 3 characters per word, so shorter keywords fall back to LIKE over the same
    columns (a scan, acceptable at embedded scale).
    """

    position = literal_column("resource_post.sync_seq", Integer)
    FTS_WEIGHTS = "10.0, 8.0, 4.0, 4.0, 1.0"  # main_name, sub_name, abbr_name, tags, introduction

    def match(self, stmt: Select, keyword: str) -> tuple[Select, ColumnElement[float]]:
        words = keyword.split()
        if words and all(len(w) >= 3 for w in words):
            phrase = " AND ".join('"' + w.replace('"', '""') + '"' for w in words)
            fts = text(f"SELECT rowid AS post_id, -bm25(resource_post_fts, {self.FTS_WEIGHTS}) AS score "
                       "FROM resource_post_fts WHERE resource_post_fts MATCH :q").bindparams(q=phrase)
            hits = fts.columns(post_id=Integer, score=Float).subquery("fts")
            return stmt.join(hits, hits.c.post_id == P.id), hits.c.score
        pattern = like_pattern(keyword)
        columns = (P.main_name, P.sub_name, P.abbr_name, P.introduction)
        in_tags = text("EXISTS (SELECT 1 FROM json_each(resource_post.tags) AS t "
                       "WHERE t.value LIKE :pattern ESCAPE '\\')").bindparams(pattern=pattern)
        hit = or_(*(c.like(pattern, escape="\\") for c in columns), in_tags)
        score = case((P.main_name.like(pattern, escape="\\"), 1.0), else_=0.0)
        return stmt.where(hit), score

    def has_category(self, code: str) -> ColumnElement[bool]:
        return text("EXISTS (SELECT 1 FROM json_each(resource_post.main_categories) AS c "
                    "WHERE c.value = :category)").bindparams(category=code)

    def settled(self) -> ColumnElement[bool]:
        # SQLite serializes writers and the trigger numbers changes inside the writing
        # transaction, so positions are handed out in commit order.
        return true()


def backend_for(session: Session) -> SearchBackend:
    """The implementation for the session's database."""
    return PostgresSearch() if session.get_bind().dialect.name == "postgresql" else SqliteSearch()
