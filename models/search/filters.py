"""The search filters: which ones a request gives and their conditions, over resource_post's
columns (models/search/service.py) and over the copies resource_search_doc holds of them
(models/search/tiers.py: every filter in every statement, built once, its value bound)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Protocol, TypedDict, Unpack, get_args

from sqlalchemy import Text, bindparam, func, or_
from sqlalchemy.sql.elements import ColumnElement

from models.search.backends import RESOURCE_DOC as D

Params = dict[str, Any]  # statement parameters by name
# The search filters that are equalities over a column of the same name in resource_post and in
# its copy resource_search_doc (mainCategory, a containment, is written per table; runPlatform and
# gameVersion look at the files too: search/service.py).
EqualFilter = Literal[
    "section_code", "resource_type", "client_environment", "server_environment", "is_paid", "resource_state"
]
EQUAL_FILTERS: tuple[EqualFilter, ...] = get_args(EqualFilter)


class SearchFilters(TypedDict, total=False):
    """The search's filters by column name (None or absent: not filtered)."""

    section_code: str | None
    resource_type: str | None
    main_category: str | None
    run_platform: str | None
    client_environment: str | None
    server_environment: str | None
    is_paid: bool | None
    resource_state: str | None
    game_version: str | None


class Columns(Protocol):
    """A table's column collection (its .c), by column name."""

    def __getitem__(self, key: str, /) -> ColumnElement[Any]: ...


def equal_filters(columns: Columns, filters: Mapping[str, Any]) -> list[ColumnElement[bool]]:
    """column == value for each EQUAL_FILTERS filter given (columns: a table's column collection)."""
    return [columns[name] == filters[name] for name in EQUAL_FILTERS if filters.get(name) is not None]


# The filters resource_search_doc holds copies of.
DOC_FILTERS: tuple[EqualFilter | Literal["main_category"], ...] = (*EQUAL_FILTERS, "main_category")


def doc_filters(**filters: Unpack[SearchFilters]) -> Params:
    """The values of the filters resource_search_doc holds copies of (None: not filtered), as the
    parameters of DOC_CONDITIONS."""
    return {f"filter_{name}": filters.get(name) for name in DOC_FILTERS}


def _doc_condition(name: str) -> ColumnElement[bool]:
    """`:filter_<name> IS NULL OR` the filter's condition over the copy. A keyword search's
    statements hold every filter so (one statement per shape of keyword, not per combination of
    filters) and are planned for their values (models/search/tiers.py): PostgreSQL then folds the
    filters not given away and keeps the others as plain conditions its indexes serve."""
    if name == "main_category":
        value = bindparam("filter_main_category", type_=Text)
        return or_(value.is_(None), D.c.main_categories.op("@>")(func.jsonb_build_array(value)))
    value = bindparam(f"filter_{name}", type_=D.c[name].type)
    return or_(value.is_(None), D.c[name] == value)


DOC_CONDITIONS = [_doc_condition(name) for name in DOC_FILTERS]
