"""Resource batch, featured, search, sync, detail and per-resource read views."""

from modhub.errors import not_implemented


def get_batch(**kwargs):
    """List of ModSummaryVO (or null) in request order (batchGetMods, getResourceBatch)."""
    raise not_implemented("batchGetMods")


def list_featured(**kwargs):
    """List of up to 20 featured ModSummaryVO (listFeaturedMods, listFeaturedResources)."""
    raise not_implemented("listFeaturedMods")


def get_detail(**kwargs):
    """ModDetailVO of one resource (getModDetail, getResourceDetail)."""
    raise not_implemented("getModDetail")


def list_authors(**kwargs):
    """List of AuthorBriefVO of a resource (listModAuthors, listResourceAuthors)."""
    raise not_implemented("listModAuthors")


def list_comments(**kwargs):
    """PageResultCommentVO of a resource (listModComments, listResourceComments)."""
    raise not_implemented("listModComments")


def get_description(**kwargs):
    """ModDescriptionVO of one resource (getModDescription, getResourceDescription)."""
    raise not_implemented("getModDescription")


def get_rating(**kwargs):
    """RatingAggregateVO of one resource (getModRating, getResourceRating)."""
    raise not_implemented("getModRating")


def list_relations(**kwargs):
    """List of RelationVO of a resource (listModRelations, listResourceRelations)."""
    raise not_implemented("listModRelations")


def list_versions(**kwargs):
    """List of VersionVO of a resource (listModVersions, listResourceVersions)."""
    raise not_implemented("listModVersions")
