"""Resource batch, featured, detail and per-resource read views (search and sync: handlers.search)."""

from models.catalog import service as catalog
from modhub.web import ok_tagged, platform, session


def get_batch(body: dict, **_):
    """List of ModSummaryVO (or null) in request order (batchGetMods, getResourceBatch)."""
    return ok_tagged(catalog.get_batch(session(), post_ids=body["postIds"], display=platform().display))


def list_featured(**_):
    """List of up to 20 featured ModSummaryVO (listFeaturedMods, listFeaturedResources)."""
    return ok_tagged(catalog.list_featured(session(), display=platform().display))


def get_detail(post_id: int, **_):
    """ModDetailVO of one resource (getModDetail, getResourceDetail)."""
    return ok_tagged(catalog.get_detail(session(), post_id=post_id, display=platform().display,
                                               today=platform().clock().date()))


def list_authors(post_id: int, **_):
    """List of AuthorBriefVO of a resource (listModAuthors, listResourceAuthors)."""
    return ok_tagged(catalog.list_authors(session(), post_id=post_id,
                                                 display=platform().display))


def list_comments(post_id: int, page_num: int = 1, page_size: int = 20, **_):
    """PageResultCommentVO of a resource (listModComments, listResourceComments)."""
    return ok_tagged(catalog.list_comments(session(), post_id=post_id, page_num=page_num,
                                                  page_size=page_size, display=platform().display))


def get_description(post_id: int, **_):
    """ModDescriptionVO of one resource (getModDescription, getResourceDescription)."""
    return ok_tagged(catalog.get_description(session(), post_id=post_id,
                                                    display=platform().display))


def get_rating(post_id: int, **_):
    """RatingAggregateVO of one resource (getModRating, getResourceRating)."""
    return ok_tagged(catalog.get_rating(session(), post_id=post_id))


def list_relations(post_id: int, **_):
    """List of RelationVO of a resource (listModRelations, listResourceRelations)."""
    return ok_tagged(catalog.list_relations(session(), post_id=post_id))


def list_versions(post_id: int, **_):
    """List of VersionVO of a resource (listModVersions, listResourceVersions)."""
    return ok_tagged(catalog.list_versions(session(), post_id=post_id, display=platform().display))
