"""The one small search interface and its two implementations (PostgreSQL, embedded SQLite).

A backend answers five questions over the artifacts of migration 0005: which posts match a
keyword and how relevant they are, whether a post carries a main category, what its average
rating is (as a sort key), where a post sits in the change feed, and which feed positions are
settled (no unseen commit can still land before them). Everything else in search and sync is
plain SQLAlchemy shared by both databases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import reduce
from typing import Any, Protocol, TypeVarTuple

from sqlalchemy import (
    BindParameter,
    Boolean,
    Float,
    Integer,
    Select,
    String,
    Text,
    case,
    cast,
    func,
    literal_column,
    or_,
    text,
    true,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import InstrumentedAttribute, Session
from sqlalchemy.sql import column, table
from sqlalchemy.sql.elements import ColumnElement, TextClause

from models.catalog.tables import ResourceFile, ResourcePost
from models.types import UTCDateTime

P = ResourcePost
Bound = str | BindParameter[Any]  # a filter's value, or a prepared statement's parameter (browse.py)
Ts = TypeVarTuple("Ts")  # the columns of a statement a backend narrows (kept as they are)
# Migration 0012's narrow copy of the listed resource posts' search columns (PostgreSQL), with 0013's
# copies of the search filters, kept by a trigger on resource_post in the writing transaction;
# main_name and search_doc lower-cased (0016: compared by contains(..., lowered=True)).
RESOURCE_DOC = table(
    "resource_search_doc",
    column("id", Integer),
    column("section_code", String),
    column("publish_time", UTCDateTime()),
    column("main_name", String),
    column("search_doc", String),
    column("search_tsv"),
    column("resource_type", String),
    column("main_categories", JSONB),
    column("run_platform", String),
    column("client_environment", String),
    column("server_environment", String),
    column("is_paid", Boolean),
    column("resource_state", String),
)
# kana, CJK ideographs and hangul: the scripts written without spaces (same ranges as 0005)
CJK_RUN = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")


def like_pattern(keyword: str) -> str:
    """A %substring% LIKE pattern with the wildcards of the keyword escaped (escape char \\)."""
    escaped = keyword.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def contains(column: Any, pattern: str | BindParameter[str], *, lowered: bool) -> ColumnElement[bool]:
    """column holds a like_pattern's substring, whatever the case: ILIKE, or over a column stored
    lower-cased a LIKE of the pattern lower-cased once by PostgreSQL's own lower(), which finds
    the same rows (ILIKE is lower(text) LIKE lower(pattern)) without lower-casing every row."""
    found: ColumnElement[bool] = (
        column.like(func.lower(pattern), escape="\\")  # lower-cased once, at planning
        if lowered
        else column.ilike(pattern, escape="\\")
    )
    return found


@dataclass(frozen=True)
class KeywordParts:
    """A keyword cut as its text queries take it: the words outside CJK runs (None without a
    word), the CJK runs of 2+ characters as a to_tsquery text of bigram phrases (None without
    one), and its %substring% LIKE pattern."""

    words: str | None
    bigrams: str | None
    pattern: str

    @classmethod
    def of(cls, keyword: str) -> KeywordParts:
        rest = CJK_RUN.sub(" ", keyword)
        phrases = [
            " <-> ".join(f"'{run[i : i + 2]}'" for i in range(len(run) - 1))
            for run in CJK_RUN.findall(keyword)
            if len(run) >= 2
        ]
        return cls(
            words=rest if re.search(r"[^\W_]", rest) else None,
            bigrams=" & ".join(f"({p})" for p in phrases) if phrases else None,
            pattern=like_pattern(keyword),
        )


def tsquery(keyword: str, *, phrase: bool = False) -> ColumnElement[Any] | None:
    """The keyword as a 'simple' tsquery: its words (in order and adjacent with phrase=True), and
    its CJK runs as phrases of bigrams."""
    parts = KeywordParts.of(keyword)
    return tsquery_of(parts.words, parts.bigrams, phrase=phrase)


# The text search configuration of every query: a constant in the SQL text (a statement prepared
# with its constants inline, modhub.core.statements, has no literal form of a bound regconfig).
SIMPLE: ColumnElement[Any] = literal_column("'simple'::regconfig")


def tsquery_of(
    words: str | BindParameter[str] | None, bigrams: str | BindParameter[str] | None, *, phrase: bool = False
) -> ColumnElement[Any] | None:
    """The 'simple' tsquery of a keyword's parts (KeywordParts, or bound parameters that take
    them): None when it has neither words nor bigrams."""
    queries: list[ColumnElement[Any]] = []
    if words is not None:
        queries.append((func.phraseto_tsquery if phrase else func.plainto_tsquery)(SIMPLE, words))
    if bigrams is not None:
        queries.append(func.to_tsquery(SIMPLE, bigrams))
    return reduce(lambda a, b: a.op("&&")(b), queries) if queries else None


def in_weight(query: ColumnElement[Any], weights: str) -> ColumnElement[Any]:
    """The tsquery with every lexeme restricted to the given weight labels ('A': titles). Built
    from constants, so PostgreSQL computes it once per statement."""
    labelled = func.regexp_replace(cast(query, Text), r"'(\s|\)|$)", rf"':{weights}\1", "g")
    return func.to_tsquery(SIMPLE, labelled)


# float8 constants of the scores: a bare 1.0 is a numeric, which PostgreSQL then casts to float8 on
# every matching row (through its text form) before adding ts_rank.
ONE, ZERO = literal_column("float8 '1'", Float), literal_column("float8 '0'", Float)


def only_cjk(keyword: str) -> bool:
    """True when the keyword is made of CJK runs of 2+ letters and spaces only: its bigram phrases
    then find every document holding it as a substring (both sides are cut into the same bigrams),
    so no substring alternative is needed."""
    runs = CJK_RUN.findall(keyword)
    return (
        bool(runs) and all(len(r) >= 2 and r.isalpha() for r in runs) and not CJK_RUN.sub("", keyword).strip()
    )


def needs_substring(keyword: str, *, has_query: bool, words_cover_cjk: bool) -> bool:
    """Whether matches must also be sought as substrings (the trigram index): for partial Latin
    words of 3+ characters (shorter patterns cannot use the index), or when the keyword has no
    word to look up (no tsquery); with words_cover_cjk, never for a keyword of CJK runs alone
    (only_cjk)."""
    if not has_query:
        return True
    return len(keyword) >= 3 and not (words_cover_cjk and only_cjk(keyword))


def postgres_match(
    stmt: Select[*Ts],
    keyword: str,
    *,
    tsv: ColumnElement[Any],
    doc: ColumnElement[Any],
    main_name: ColumnElement[Any] | InstrumentedAttribute[Any],
    words_cover_cjk: bool = False,
    lowered: bool = False,
) -> tuple[Select[*Ts], ColumnElement[float]]:
    """PostgresSearch.match over given columns: resource_post's own, or those of its copy in
    resource_search_doc (migration 0012, read by the community search; lowered: doc and main_name
    are stored lower-cased, 0016). words_cover_cjk: leave out the substring alternative for a
    keyword of CJK runs alone (only_cjk), whose bigram phrases already find every title,
    abbreviation and tag holding it (the community search)."""
    query, pattern = tsquery(keyword), like_pattern(keyword)
    hits: list[ColumnElement[Any]] = [] if query is None else [tsv.op("@@")(query)]
    if needs_substring(keyword, has_query=query is not None, words_cover_cjk=words_cover_cjk):
        hits.append(contains(doc, pattern, lowered=lowered))
    in_main_title = case((contains(main_name, pattern, lowered=lowered), ONE), else_=ZERO)
    # the phrase query is None exactly when the words query is (same words, other operator)
    if query is None or (phrase := tsquery(keyword, phrase=True)) is None:
        # only partial words or single characters: substring matches alone
        return stmt.where(or_(*hits)), in_main_title
    # A word match: 1 when the titles hold the keyword as a phrase (a lookup in the vector
    # already loaded; an ILIKE on every match of a broad keyword cost 12% of the search),
    # plus ts_rank. A substring-only match: 1 when mainName holds the keyword.
    as_title_phrase = tsv.op("@@")(in_weight(phrase, "A"))
    word_score = case((as_title_phrase, ONE), else_=ZERO) + func.ts_rank(tsv, query, type_=Float)
    if len(hits) == 1:  # every row found matches the words: no need to ask each row again
        return stmt.where(hits[0]), word_score
    return stmt.where(or_(*hits)), case((tsv.op("@@")(query), word_score), else_=in_main_title)


class SearchBackend(Protocol):
    """What search and sync need from the database's text and change-tracking features."""

    @property
    def position(self) -> ColumnElement[int]:
        """Where a post sits in the change feed."""

    @property
    def rating(self) -> ColumnElement[float]:
        """The rating as a sort key."""

    def match(self, stmt: Select[*Ts], keyword: str) -> tuple[Select[*Ts], ColumnElement[float]]:
        """The statement narrowed to posts matching keyword, and their relevance (higher first)."""

    def has_category(self, code: Bound) -> ColumnElement[bool] | TextClause:
        """True for posts whose mainCategories contain code."""

    def settled(self) -> ColumnElement[bool]:
        """True for feed positions that no transaction still running can precede."""

    def file_has_version(self, version: Bound) -> ColumnElement[bool] | TextClause:
        """True for files whose resourceVersions contain version."""

    def last_settled(self, session: Session) -> int:
        """The highest settled feed position now (0 for an empty feed), read from the index."""


# The lowest xid still running in this statement's snapshot, or its xmax when none runs. xids are
# cluster-wide: transactions that pg_stat_activity shows in other databases cannot write here
# and are skipped (their backend_xid is visible to superusers and pg_read_all_stats members;
# without that right they simply count, which delays the feed but never skips a change).
HORIZON = """(SELECT least(pg_snapshot_xmax(s.snap)::text::bigint,
  (SELECT min(x::text::bigint) FROM pg_snapshot_xip(s.snap) AS x
    WHERE NOT xid(x) = ANY (ARRAY(SELECT backend_xid FROM pg_stat_activity
      WHERE backend_xid IS NOT NULL
        AND datid <> (SELECT oid FROM pg_database WHERE datname = current_database())))))
  FROM (SELECT pg_current_snapshot() AS snap) AS s)"""


class PostgresSearch:
    """tsvector ('simple' config: language-neutral words) plus pg_trgm substring matching.

    Chinese text has no spaces, so 'simple' keeps a whole run of CJK characters as one word;
    the vector also holds the run's overlapping bigrams (migration 0005), and a keyword's CJK
    runs become phrases of bigrams, so any substring of 2+ characters is found via the index.
    Partial Latin words (3+ characters) are found in titles, abbreviation and tags by the
    trigram index on search_doc. Relevance of a word match: 1 when the titles hold the keyword as
    a phrase, plus ts_rank over the weighted vector (titles A, abbreviation and tags B,
    introduction C); of a substring-only match: 1 when the main title holds the keyword.
    """

    position = literal_column("resource_post.sync_xid", Integer)
    rating = literal_column("resource_post.search_rating", Float)  # generated, indexed for sorting

    def match(self, stmt: Select[*Ts], keyword: str) -> tuple[Select[*Ts], ColumnElement[float]]:
        return postgres_match(
            stmt,
            keyword,
            tsv=literal_column("resource_post.search_tsv"),
            doc=literal_column("resource_post.search_doc", String),
            main_name=P.main_name,
        )

    def has_category(self, code: Bound) -> ColumnElement[bool] | TextClause:
        return cast(P.main_categories, JSONB).contains(_one_element(code))

    def file_has_version(self, version: Bound) -> ColumnElement[bool] | TextClause:
        return cast(ResourceFile.resource_versions, JSONB).contains(_one_element(version))

    def last_settled(self, session: Session) -> int:
        # two index-backed maxima (an OR of both conditions would scan the table)
        return (
            session.scalar(
                text(
                    "SELECT greatest((SELECT max(sync_xid) FROM resource_post WHERE sync_xid < "
                    + HORIZON
                    + "), (SELECT max(sync_xid) FROM resource_post"
                    " WHERE sync_xid = pg_current_xact_id_if_assigned()::text::bigint))"
                )
            )
            or 0
        )

    def settled(self) -> ColumnElement[bool]:
        # Below the horizon every transaction has ended, so no commit can still land at a lower
        # xid; our own writes are final for ourselves.
        return or_(
            self.position < literal_column(HORIZON),
            self.position == literal_column("pg_current_xact_id_if_assigned()::text::bigint"),
        )


class SqliteSearch:
    """FTS5 with the trigram tokenizer: case-insensitive substrings in any script, bm25 ranking.

    Trigrams need 3 characters per word, so shorter keywords fall back to LIKE over the same
    columns (a scan, acceptable at embedded scale).
    """

    position = literal_column("resource_post.sync_seq", Integer)
    rating = case((P.rating_count > 0, cast(P.rating_total, Float) / P.rating_count), else_=0.0)
    FTS_WEIGHTS = "10.0, 8.0, 4.0, 4.0, 1.0"  # main_name, sub_name, abbr_name, tags, introduction

    def match(self, stmt: Select[*Ts], keyword: str) -> tuple[Select[*Ts], ColumnElement[float]]:
        words = keyword.split()
        if words and all(len(w) >= 3 for w in words):
            phrase = " AND ".join('"' + w.replace('"', '""') + '"' for w in words)
            fts = text(
                f"SELECT rowid AS post_id, -bm25(resource_post_fts, {self.FTS_WEIGHTS}) AS score "
                "FROM resource_post_fts WHERE resource_post_fts MATCH :q"
            ).bindparams(q=phrase)
            hits = fts.columns(post_id=Integer, score=Float).subquery("fts")
            return stmt.join(hits, hits.c.post_id == P.id), hits.c.score
        pattern = like_pattern(keyword)
        columns = (P.main_name, P.sub_name, P.abbr_name, P.introduction)
        in_tags = text(
            "EXISTS (SELECT 1 FROM json_each(resource_post.tags) AS t "
            "WHERE t.value LIKE :pattern ESCAPE '\\')"
        ).bindparams(pattern=pattern)
        hit = or_(*(c.like(pattern, escape="\\") for c in columns), in_tags)
        score = case((P.main_name.like(pattern, escape="\\"), 1.0), else_=0.0)
        return stmt.where(hit), score

    def has_category(self, code: Bound) -> ColumnElement[bool] | TextClause:  # a value here
        return text(
            "EXISTS (SELECT 1 FROM json_each(resource_post.main_categories) AS c WHERE c.value = :category)"
        ).bindparams(category=code)

    def file_has_version(self, version: Bound) -> ColumnElement[bool] | TextClause:  # a value here
        return text(
            "EXISTS (SELECT 1 FROM json_each(resource_file.resource_versions) AS v WHERE v.value = :version)"
        ).bindparams(version=version)

    def last_settled(self, session: Session) -> int:
        return session.scalar(text("SELECT max(sync_seq) FROM resource_post")) or 0

    def settled(self) -> ColumnElement[bool]:
        # SQLite serializes writers and the trigger numbers changes inside the writing
        # transaction, so positions are handed out in commit order.
        return true()


def _one_element(value: Bound) -> ColumnElement[Any]:
    """`@>`'s operand: a constant JSONB array (planned from the column's statistics), or a JSONB parameter."""
    return value if isinstance(value, BindParameter) else cast([value], JSONB)


def backend_for(session: Session) -> SearchBackend:
    """The implementation for the session's database."""
    return PostgresSearch() if session.get_bind().dialect.name == "postgresql" else SqliteSearch()
