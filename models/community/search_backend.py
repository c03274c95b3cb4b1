"""Keyword matching of the community texts, the catalogue's search approach (models/search/backends.py)
applied to the artifacts of migration 0010.

PostgreSQL: the weighted 'simple' tsvector with CJK bigrams (words, and any Chinese substring of 2+
characters, through a GIN index), plus pg_trgm substring matching for partial words of 3+
characters. Relevance of a word match: 1 when the title holds the keyword as a phrase (posts only)
plus ts_rank; of a substring-only match: 1 when the title holds it, else 0.
SQLite: FTS5 trigram tables (case-insensitive substrings in any script, bm25 relevance); keywords
with a word shorter than 3 characters fall back to LIKE over the same columns.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Float, Integer, Select, case, func, literal, literal_column, or_, text
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from models.community.tables import Answer, CommunityPost, Moment
from models.search.backends import CJK_RUN, in_weight, like_pattern, tsquery


@dataclass(frozen=True)
class Searched:
    """One searched table: its id, title (None: untitled) and text columns, the lower-cased text
    that its trigram index covers (PostgreSQL), and the FTS5 column weights (SQLite)."""

    table: str
    id: ColumnElement
    title: ColumnElement | None
    texts: tuple
    lowered: str
    fts_weights: str


POSTS = Searched("community_post", CommunityPost.id, CommunityPost.title,
                 (CommunityPost.title, CommunityPost.content_md),
                 "lower(community_post.title || ' ' || coalesce(community_post.content_md, ''))",
                 "10.0, 4.0, 1.0")  # title, tags, content_md
ANSWERS = Searched("community_answer", Answer.id, None, (Answer.content_md,),
                   "lower(coalesce(community_answer.content_md, ''))", "1.0")
MOMENTS = Searched("community_moment", Moment.id, None, (Moment.content,),
                   "lower(community_moment.content)", "1.0")


def only_cjk(keyword: str) -> bool:
    """True when the keyword is made of CJK runs of 2+ characters and spaces only."""
    runs = CJK_RUN.findall(keyword)
    return bool(runs) and all(len(r) >= 2 for r in runs) and not CJK_RUN.sub("", keyword).strip()


def _title_hit(searched: Searched, pattern: str) -> ColumnElement[float]:
    if searched.title is None:
        return literal(0.0, Float)
    return case((func.lower(searched.title).like(pattern, escape="\\"), 1.0), else_=0.0)


def postgres_match(stmt: Select, searched: Searched, keyword: str) -> tuple[Select, ColumnElement]:
    """The statement narrowed to rows matching keyword, and their relevance (higher first)."""
    tsv = literal_column(f"{searched.table}.search_tsv")
    query, pattern = tsquery(keyword), like_pattern(keyword.lower())
    hits = [] if query is None else [tsv.op("@@")(query)]
    # Substrings through the trigram index: partial Latin words (3+ characters; shorter patterns
    # cannot use the index), or when the keyword has no word to look up. A keyword of CJK runs
    # alone needs none: its bigram phrases already find every substring of 2+ characters.
    if (len(keyword) >= 3 and not only_cjk(keyword)) or query is None:
        hits.append(literal_column(searched.lowered).like(pattern, escape="\\"))
    title_hit = _title_hit(searched, pattern)
    if query is None:  # only partial words or single characters: substring matches alone
        return stmt.where(or_(*hits)), title_hit
    rank = func.ts_rank(tsv, query, type_=Float)
    if searched.title is not None:
        rank = case((tsv.op("@@")(in_weight(tsquery(keyword, phrase=True), "A")), 1.0), else_=0.0) + rank
    return stmt.where(or_(*hits)), case((tsv.op("@@")(query), rank), else_=title_hit)


def sqlite_match(stmt: Select, searched: Searched, keyword: str) -> tuple[Select, ColumnElement]:
    """FTS5 MATCH of every word (all of 3+ characters), else LIKE over the same columns."""
    words = keyword.split()
    if words and all(len(w) >= 3 for w in words):
        fts = f"{searched.table}_fts"
        phrase = " AND ".join('"' + w.replace('"', '""') + '"' for w in words)
        found = text(f"SELECT rowid AS hit_id, -bm25({fts}, {searched.fts_weights}) AS score "
                     f"FROM {fts} WHERE {fts} MATCH :q").bindparams(q=phrase)
        hits = found.columns(hit_id=Integer, score=Float).subquery(f"{fts}_hits")
        return stmt.join(hits, hits.c.hit_id == searched.id), hits.c.score
    pattern = like_pattern(keyword)
    clauses = [column.like(pattern, escape="\\") for column in searched.texts]
    if searched is POSTS:
        clauses.append(text("EXISTS (SELECT 1 FROM json_each(community_post.tags) AS t "
                            "WHERE t.value LIKE :tag_pattern ESCAPE '\\')").bindparams(tag_pattern=pattern))
    return stmt.where(or_(*clauses)), _title_hit(searched, like_pattern(keyword.lower()))


def match_for(session: Session):
    """The matcher of the session's database."""
    return postgres_match if session.get_bind().dialect.name == "postgresql" else sqlite_match
