"""Resource search and incremental sync (mods/search, resource/query, v1 resource/query, sync)."""

from modhub.errors import not_implemented


def search(**kwargs):
    """PageResultModSummaryVO of a resource search (searchMods, queryResources)."""
    raise not_implemented("searchMods")


def sync(**kwargs):
    """ResourceSyncVO, one incremental sync batch (syncMods, syncResources)."""
    raise not_implemented("syncMods")


def legacy_query_resources(**kwargs):
    """PageResultObject of resources (legacyQueryResources)."""
    raise not_implemented("legacyQueryResources")
