"""Keyword matching of the community texts, the catalogue's search approach (models/search/backends.py)
applied to the artifacts of migrations 0010 and 0012.

PostgreSQL: the narrow search-document table community_search_doc (0012, kept by triggers: one
row per live post, live answer of a live question and live moment, with its section, time,
lower-cased title and text, and the source row's weighted 'simple' tsvector with CJK bigrams).
Words, and any Chinese substring of 2+ characters, are found through its tsvector GIN index;
partial words of 3+ characters through the trigram GIN index of its lower-cased text. Relevance
of a word match: 1 when the title holds the keyword as a phrase (posts only: the other kinds have
no title) plus ts_rank; of a substring-only match: 1 when the title holds it, else 0.
SQLite: FTS5 trigram tables (case-insensitive substrings in any script, bm25 relevance); keywords
with a word shorter than 3 characters fall back to LIKE over the same columns.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, Integer, Select, String, case, cast, func, literal, or_, select, text
from sqlalchemy.orm import InstrumentedAttribute
from sqlalchemy.sql import column, table
from sqlalchemy.sql.elements import ColumnElement, TextClause

from models.community.tables import Answer, CommunityPost, Moment
from models.search.backends import ONE, ZERO, in_weight, like_pattern, needs_substring, tsquery
from models.types import UTCDateTime


@dataclass(frozen=True)
class Searched:
    """One searched table (SQLite): its id, title (None: untitled) and text columns, and the FTS5
    column weights."""

    table: str
    id: ColumnElement[Any] | InstrumentedAttribute[Any]
    title: ColumnElement[Any] | InstrumentedAttribute[Any] | None
    texts: tuple[InstrumentedAttribute[str | None], ...]
    fts_weights: str


# The matches of one searched kind: (kind, id, score, at), the rows of the ranked union.
Hits = Select[str, int, float, dt.datetime | None]


POSTS = Searched(
    "community_post",
    CommunityPost.id,
    CommunityPost.title,
    (CommunityPost.title, CommunityPost.content_md),
    "10.0, 4.0, 1.0",
)  # title, tags, content_md
ANSWERS = Searched("community_answer", Answer.id, None, (Answer.content_md,), "1.0")
MOMENTS = Searched("community_moment", Moment.id, None, (Moment.content,), "1.0")


def _title_hit(searched: Searched, pattern: str) -> ColumnElement[float]:
    if searched.title is None:
        return literal(0.0, Float)
    return case((func.lower(searched.title).like(pattern, escape="\\"), 1.0), else_=0.0)


DOC = table(
    "community_search_doc",
    column("kind", String),
    column("entity_id", Integer),
    column("section_code", String),
    column("at", UTCDateTime()),
    column("title", String),
    column("search_tsv"),
    column("search_text", String),
)


def postgres_hits(keyword: str, kinds: list[str], section_code: str | None) -> Hits:
    """(kind, id, score, at) of the live community rows of the given kinds matching keyword
    (PostgreSQL: one scan of community_search_doc)."""
    tsv = DOC.c.search_tsv
    query, pattern = tsquery(keyword), like_pattern(keyword.lower())
    hits = [] if query is None else [tsv.op("@@")(query)]
    # A keyword of CJK runs alone needs no substring scan: its bigram phrases already find every
    # substring of 2+ characters.
    if needs_substring(keyword, has_query=query is not None, words_cover_cjk=True):
        hits.append(DOC.c.search_text.like(pattern, escape="\\"))
    title_hit = case((DOC.c.title.like(pattern, escape="\\"), ONE), else_=ZERO)  # null title: 0
    score: ColumnElement[Any]
    # the phrase query is None exactly when the words query is (same words, other operator)
    if query is None or (phrase := tsquery(keyword, phrase=True)) is None:
        # only partial words or single characters: substring matches alone
        score = title_hit
    else:  # the phrase in weight A: titles, so never for answers and moments
        rank = case((tsv.op("@@")(in_weight(phrase, "A")), ONE), else_=ZERO) + func.ts_rank(
            tsv, query, type_=Float
        )
        # every row found matches the words when there is no substring alternative
        score = rank if len(hits) == 1 else case((tsv.op("@@")(query), rank), else_=title_hit)
    stmt = select(
        DOC.c.kind.label("kind"),
        DOC.c.entity_id.label("id"),
        cast(score, Float).label("score"),
        DOC.c.at.label("at"),
    ).where(DOC.c.kind.in_(kinds), or_(*hits))
    return stmt.where(DOC.c.section_code == section_code) if section_code else stmt


def sqlite_match(
    stmt: Select[int], searched: Searched, keyword: str
) -> tuple[Select[int], ColumnElement[float]]:
    """FTS5 MATCH of every word (all of 3+ characters), else LIKE over the same columns."""
    words = keyword.split()
    if words and all(len(w) >= 3 for w in words):
        fts = f"{searched.table}_fts"
        phrase = " AND ".join('"' + w.replace('"', '""') + '"' for w in words)
        found = text(
            f"SELECT rowid AS hit_id, -bm25({fts}, {searched.fts_weights}) AS score "
            f"FROM {fts} WHERE {fts} MATCH :q"
        ).bindparams(q=phrase)
        hits = found.columns(hit_id=Integer, score=Float).subquery(f"{fts}_hits")
        return stmt.join(hits, hits.c.hit_id == searched.id), hits.c.score
    pattern = like_pattern(keyword)
    clauses: list[ColumnElement[bool] | TextClause] = [
        col.like(pattern, escape="\\") for col in searched.texts
    ]
    if searched is POSTS:
        clauses.append(
            text(
                "EXISTS (SELECT 1 FROM json_each(community_post.tags) AS t "
                "WHERE t.value LIKE :tag_pattern ESCAPE '\\')"
            ).bindparams(tag_pattern=pattern)
        )
    return stmt.where(or_(*clauses)), _title_hit(searched, like_pattern(keyword.lower()))
