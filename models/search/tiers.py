"""A keyword search by relevance over resource_search_doc (PostgreSQL), at a cost that does not
grow with the number of matches.

Relevance is the contract's order, as tiers (a lower number ranks higher):

1. the titles (mainName, subName) hold the keyword as a phrase; for a match found only as a
   substring (a partial word): mainName holds it;
2. the titles hold every word of the keyword;
3. titles, abbreviation and tags together hold every word;
4. any other whole-word match (the introduction);
5. any other substring match (subName, abbreviation, tags);

and inside a tier the newest postId first (the oldest with order=asc, which also reverses the tiers).

Scoring every match cannot stay fast for a broad keyword: at a million resources a common word
matches a hundred thousand of them. Tiers and postId allow a bounded read instead. The window query
reads the WINDOW newest documents once (an index scan of the primary key) and gives each match its
tier. A tier with enough matches there needs nothing else: older documents cannot precede them.
A tier too rare in the window is read from the indexes, past the window: the head index
(migration 0013: the A and B weights of search_tsv) for tiers 1 to 3, search_tsv's for tier 4, the
trigram index of search_doc for substrings. For such a tier the index holds few documents, or the
window would have found them. Substrings are compared with LIKE over the lower-cased copies of
mainName and the search text (migration 0016; the same rows as ILIKE). The result equals ranking
every match (tests/functional/search/test_search_tiers.py checks it with a window of a few rows).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import (
    BigInteger,
    CompoundSelect,
    Integer,
    Select,
    Text,
    and_,
    bindparam,
    case,
    func,
    literal_column,
    not_,
    or_,
    select,
)
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from models.search.backends import RESOURCE_DOC as D
from models.search.backends import KeywordParts, contains, in_weight, needs_substring, tsquery_of
from models.search.filters import DOC_CONDITIONS, Params
from modhub.core.statements import Prepared, prepared

# The newest documents read first; a tier rarer than page/WINDOW there goes to its index. Its cost
# is linear in WINDOW (each document's tier computed): the ten keywords of bench/catalog.py at 20,000
# resources took 28.3 ms one after the other with 4,000, 19.3 ms with 2,000 (the same statements
# past the window but for one), 21.4 ms with 1,000 (two more keywords read a tier past it).
WINDOW = 2000
TIERS = (1, 2, 3, 4, 5)
# Must stay the expression of migration 0013's ix_resource_search_doc_head for the index to serve.
HEAD = func.ts_filter(D.c.search_tsv, literal_column("'{a,b}'::\"char\"[]"))


# What a keyword's statements bind: the Tiers of its shape are built once, with these parameters.
WORDS, BIGRAMS, PATTERN = (
    bindparam(f"keyword_{part}", type_=Text) for part in ("words", "bigrams", "pattern")
)


@dataclass(frozen=True)
class Tiers:
    """The match and the tier conditions of a keyword's shape over the columns of
    resource_search_doc, the keyword's parts bound as parameters (WORDS, BIGRAMS, PATTERN)."""

    shape: str  # the keyword's shape, in the names of its prepared statements: words, bigrams, substring
    match: ColumnElement[bool]
    tier: ColumnElement[int]  # for a matching row
    conditions: dict[int, ColumnElement[bool]]  # tier -> the rows of that tier, index-friendly
    words: ColumnElement[bool] | None = None  # the word match (None for a substring alone)

    @property
    def words_alone(self) -> bool:
        """Whether the match is the word match alone (no substring alternative)."""
        return self.match is self.words

    @staticmethod
    def of(keyword: str) -> tuple[Tiers, Params]:
        """The tiers of a keyword and the parameters its statements take. Building the tiers'
        expressions cost 1.6 ms of CPU per keyword (more than the rest of a cold search's
        handler): they are built once per shape of keyword (words, CJK bigrams, a substring
        alternative: at most eight), immutable and shared between threads like any prebuilt
        statement, and a keyword binds its parts."""
        parts = KeywordParts.of(keyword)
        words, bigrams = parts.words is not None, parts.bigrams is not None
        substring = needs_substring(keyword, has_query=words or bigrams, words_cover_cjk=False)
        params = {"keyword_pattern": parts.pattern}
        if parts.words is not None:
            params["keyword_words"] = parts.words
        if parts.bigrams is not None:
            params["keyword_bigrams"] = parts.bigrams
        return Tiers.shaped(words, bigrams, substring), params

    @staticmethod
    @cache
    def shaped(words: bool, bigrams: bool, substring: bool) -> Tiers:
        """The tiers of every keyword of a shape."""
        shape = f"{words:d}{bigrams:d}{substring:d}"
        query = tsquery_of(WORDS if words else None, BIGRAMS if bigrams else None)
        # mainName and the search text are stored lower-cased (migration 0016)
        everywhere = contains(D.c.search_doc, PATTERN, lowered=True)
        in_main = contains(D.c.main_name, PATTERN, lowered=True)
        # the phrase query is None exactly when the words query is (same words, other operator)
        phrase_query = tsquery_of(WORDS if words else None, BIGRAMS if bigrams else None, phrase=True)
        if query is None or phrase_query is None:
            # partial words or single characters only: substring matches alone (needs_substring)
            return Tiers(
                shape=shape,
                match=everywhere,
                tier=case((in_main, 1), else_=5),
                conditions={1: and_(everywhere, in_main), 5: and_(everywhere, not_(in_main))},
            )
        words_match = D.c.search_tsv.op("@@")(query)
        head = HEAD.op("@@")(query)
        phrase = D.c.search_tsv.op("@@")(in_weight(phrase_query, "A"))
        titles = D.c.search_tsv.op("@@")(in_weight(query, "A"))
        word_tier = case((head, case((phrase, 1), (titles, 2), else_=3)), else_=4)
        conditions = {
            1: and_(head, phrase),
            2: and_(head, titles, not_(phrase)),
            3: and_(head, not_(titles)),
            4: and_(words_match, not_(head)),
        }
        if not substring:
            return Tiers(
                shape=shape, match=words_match, tier=word_tier, conditions=conditions, words=words_match
            )
        only_substring = and_(everywhere, not_(words_match))
        conditions[1] = or_(conditions[1], and_(only_substring, in_main))
        conditions[5] = and_(only_substring, not_(in_main))
        return Tiers(
            shape=shape,
            match=or_(words_match, everywhere),
            tier=case((words_match, word_tier), (in_main, 1), else_=5),
            conditions=conditions,
            words=words_match,
        )


# A keyword search's statements are prepared once per shape of keyword and direction, every filter
# in them (models/search/filters.py: DOC_CONDITIONS), and planned for their values at each run
# ("custom", modhub.core.statements): how many rows a word matches decides a plan, and the filters
# not given fold away. At most eight shapes, two directions, a window, five tiers and two counts:
# a bounded number of statements on each connection.
WINDOW_ROWS = bindparam("window", type_=Integer)
EDGE = bindparam("edge", type_=BigInteger)
BEYOND_ROWS = bindparam("beyond_rows", type_=Integer)
COUNT_ROWS = bindparam("count_rows", type_=Integer)  # the cap + 1


def _window_statement(tiers: Tiers, desc: bool) -> Prepared:
    """The window's matches (id, tier) and, in a last row, its oldest id (newest with asc) and how
    many documents it read."""

    def build() -> CompoundSelect[Any]:
        w = (
            select(D.c.id, case((and_(tiers.match, *DOC_CONDITIONS), tiers.tier)).label("tier"))
            .order_by(D.c.id.desc() if desc else D.c.id.asc())
            .limit(WINDOW_ROWS)
            .cte("w")
        )
        return (
            select(w.c.id, w.c.tier, literal_column("NULL", Integer))
            .where(w.c.tier.is_not(None))
            .union_all(
                select(
                    func.min(w.c.id) if desc else func.max(w.c.id),
                    literal_column("NULL", Integer),
                    func.count(),
                ).select_from(w)
            )
        )

    name = f"modhub_search_window_{tiers.shape}_{'d' if desc else 'a'}"
    return prepared(name, build, plan="custom")


def ranked_ids(
    session: Session,
    keyword: str,
    filters: Params,
    order: str,
    *,
    offset: int,
    page_size: int,
    window: int | None = None,
) -> tuple[list[int], int | None]:
    """The postIds of one page of a keyword search by relevance (tiers, then postId), and the number
    of matches when the window held every document (else None: count_matches tells)."""
    (tiers, params), window = Tiers.of(keyword), window or WINDOW
    params |= filters
    desc = order != "asc"
    rows = _window_statement(tiers, desc).rows(session, params | {"window": window})
    edge, seen = next((r[0], r[2]) for r in rows if r[2] is not None)
    in_window: dict[int, list[int]] = {t: [] for t in TIERS}
    for post_id, tier, _ in rows:
        if tier is not None:
            in_window[tier].append(post_id)
    need, picked = offset + page_size, list[int]()
    for tier in TIERS if desc else reversed(TIERS):
        if tier not in tiers.conditions:
            continue
        ids = sorted(in_window[tier], reverse=desc)
        missing = need - len(picked) - len(ids)
        if missing > 0 and seen >= window:  # the window holds too few: the rest from the index, beyond it
            beyond = _beyond_statement(tiers, tier, desc)
            ids += [r[0] for r in beyond.rows(session, params | {"edge": edge, "beyond_rows": missing})]
        picked += ids[: need - len(picked)]
        if len(picked) >= need:
            break
    return picked[offset:], (sum(map(len, in_window.values())) if seen < window else None)


def _beyond_statement(tiers: Tiers, tier: int, desc: bool) -> Prepared:
    """Up to :beyond_rows ids of one tier older (desc) or newer (asc) than :edge, in order. One
    statement per tier, each run only when the tiers before it left the page short: reading them
    all at once cost 2 to 3 times more at a million resources for a keyword of two words (a later
    tier's index read when an earlier one filled the page). The inner query has no ORDER BY or
    LIMIT (OFFSET 0 fences it), so PostgreSQL reads the tier through its index instead of walking
    the primary key in the hope of meeting its rows early."""

    def build() -> Select[Any]:
        beyond = D.c.id < EDGE if desc else D.c.id > EDGE
        inner = select(D.c.id).where(tiers.conditions[tier], *DOC_CONDITIONS, beyond).offset(0).subquery()
        return select(inner.c.id).order_by(inner.c.id.desc() if desc else inner.c.id.asc()).limit(BEYOND_ROWS)

    name = f"modhub_search_tier{tier}_{tiers.shape}_{'d' if desc else 'a'}"
    return prepared(name, build, plan="custom")


def every_match(session: Session, keyword: str, filters: Params, order: str) -> list[int]:
    """The definition that ranked_ids computes fast: every match ranked in one plain query by tier,
    then postId (both reversed with asc). For tests and bench/catalog_search_compare.py."""
    tiers, params = Tiers.of(keyword)
    by = [tiers.tier.asc(), D.c.id.desc()] if order != "asc" else [tiers.tier.desc(), D.c.id.asc()]
    stmt = select(D.c.id).where(tiers.match, *DOC_CONDITIONS).order_by(*by)
    return list(session.scalars(stmt, params | filters))
