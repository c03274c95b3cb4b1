"""Resource search and incremental sync (mods/search, resource/query, v1 resource/query, sync)."""

from collections.abc import Hashable
from typing import cast

from handlers.resources import kept_summaries
from models.record_cache import MISSING, RecordCache
from models.search import service as search_domain
from models.search import sync as sync_domain
from modhub.jsontext import Raw
from modhub.web import caller, ok, platform, reads_only, session

FILTERS = (
    "keyword",
    "section_code",
    "resource_type",
    "main_category",
    "run_platform",
    "client_environment",
    "server_environment",
    "is_paid",
    "resource_state",
    "game_version",
    "sort",
)


def search(page_num=1, page_size=20, order="desc", **params):
    """PageResultModSummaryVO of a resource search (searchMods, queryResources)."""
    filters = {name: params.get(name) for name in FILTERS}  # only the contract's parameters
    return ok(
        search_domain.search(
            session(),
            display=platform().display,
            page_num=page_num,
            page_size=page_size,
            order=order,
            summaries=_kept_summaries,
            totals=_kept_totals(),
            **filters,
        )
    )


class _KeptTotals:
    """A search's counts, and a keyword search's pages by relevance (count and ids), kept in the
    record cache (models.record_cache) for the catalogue generation of this request: a change of
    any resource moves it, so what is kept is exact. The generation is looked up at the first use
    only (without Redis it is a database read, which a search whose total is not kept does not
    need)."""

    def __init__(self, cache: RecordCache):
        self.cache = cache
        self._generation: object = MISSING

    def _current(self) -> int | None:
        if self._generation is MISSING:
            self._generation = self.cache.generation(session(), caller().catalog_generation)
        return cast(int | None, self._generation)

    def get(self, key: Hashable) -> int | None:
        return cast(int | None, self._kept("total", key))

    def put(self, key: Hashable, count: int) -> None:
        self._keep("total", key, count)

    def page(self, key: Hashable) -> tuple[int, list[int]] | None:
        found = cast(tuple[int, tuple[int, ...]] | None, self._kept("page", key))
        return None if found is None else (found[0], list(found[1]))

    def put_page(self, key: Hashable, count: int, ids: list[int]) -> None:
        self._keep("page", key, (count, tuple(ids)))

    def _kept(self, kind: str, key: Hashable) -> object | None:
        generation = self._current()
        found = MISSING if generation is None else self.cache.get(kind, key, generation)
        return None if found is MISSING else found

    def _keep(self, kind: str, key: Hashable, value: object) -> None:
        generation = self._current()
        if generation is not None:
            self.cache.put_many(kind, [(key, value)], generation)


def _kept_totals() -> _KeptTotals | None:
    """The kept counts and pages of this request (None when the record cache keeps nothing)."""
    cache = platform().records
    return _KeptTotals(cache) if cache.enabled else None


def _kept_summaries(post_ids: list[int]) -> dict[int, Raw]:
    """The ModSummaryVO of the listed posts among post_ids as their JSON text, by id: the records
    a batch keeps (handlers.resources.kept_summaries)."""
    return {i: Raw(text) for i, text in kept_summaries(post_ids).items() if text != b"null"}


def sync(cursor=None, size=100, **_):
    """ResourceSyncVO, one incremental sync batch (syncMods, syncResources)."""
    return ok(sync_domain.sync(session(), display=platform().display, cursor=cursor, size=size))


reads_only(search)
reads_only(sync)


def legacy_query_resources(page_num, page_size, section_code=None, keyword=None, **_):
    """PageResultObject of resources (legacyQueryResources)."""
    return ok(
        search_domain.legacy_query(
            session(),
            display=platform().display,
            page_num=page_num,
            page_size=page_size,
            section_code=section_code,
            keyword=keyword,
        )
    )


reads_only(legacy_query_resources)
