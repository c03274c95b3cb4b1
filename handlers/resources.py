"""Resource batch, featured, detail and per-resource read views (search and sync: handlers.search)."""

from models.catalog import service as catalog
from models.catalog.vos import ModDetail
from models.community import comments
from models.record_cache import MISSING
from modhub.core.errors import ApiError
from modhub.envelope import dumps_bytes
from modhub.etags import etag_of_kept
from modhub.web import (
    answer_on_loop,
    caller,
    ok_tagged,
    ok_tagged_json,
    platform,
    reads_only,
    session,
)


def _kept_json(kind: str, post_ids: list[int], read) -> dict[int, bytes]:
    """UTF-8 JSON of each record by post id (b'null' when absent), kept between requests
    (models.record_cache): a batch joins the bytes of its records without serializing again."""
    return platform().records.kept_json(
        kind,
        post_ids,
        session=session(),
        round_trip_generation=caller().catalog_generation,
        read=read,
        dumps=dumps_bytes,
    )


def kept_summaries(post_ids: list[int]) -> dict[int, bytes]:
    """UTF-8 JSON of each ModSummaryVO by post id (b'null' when not listed): the kept ones, the
    rest read in one statement and kept (a batch's records, and a keyword search page's)."""
    display = platform().display
    return _kept_json(
        "summary",
        post_ids,
        lambda ids: dict(zip(ids, catalog.get_batch(session(), post_ids=ids, display=display), strict=True)),
    )


def get_batch(body: dict, **_):
    """List of ModSummaryVO (or null) in request order (batchGetMods, getResourceBatch)."""
    post_ids = body["postIds"]
    texts = kept_summaries(post_ids)
    return ok_tagged_json(b"[" + b",".join([texts[i] for i in post_ids]) + b"]", data_type=2)


def _batch_on_loop(body: dict, **_):
    """get_batch's answer when every record is kept, on the event loop; else None."""
    texts = _kept_only("summary", body["postIds"])
    if texts is None:
        return None
    return ok_tagged_json(b"[" + b",".join([texts[i] for i in body["postIds"]]) + b"]", data_type=2)


answer_on_loop(get_batch, _batch_on_loop)  # a batch of kept records needs no thread
reads_only(get_batch)


def list_featured(**_):
    """List of up to 20 featured ModSummaryVO (listFeaturedMods, listFeaturedResources)."""
    return ok_tagged(catalog.list_featured(session(), display=platform().display))


def _kept_only(kind: str, post_ids: list[int]) -> dict[int, bytes] | None:
    """UTF-8 JSON of each record when every one is kept for the current catalogue generation,
    else None (nothing read: the event loop may call this). Only the generation the request's
    quota round trip brought (Redis) is known without the database: with the generation in the
    database (embedded, no Redis) or on an unsigned request, the handler's thread reads it."""
    cache, generation = platform().records, caller().catalog_generation
    if generation is None or cache.in_database or not cache.enabled:
        return None
    found = {}
    for i in post_ids:
        text = cache.get(kind, i, generation)
        if text is MISSING:
            return None
        found[i] = text
    return found


def get_detail(post_id: int, **_):
    """ModDetailVO of one resource (getModDetail, getResourceDetail)."""
    return _detail_answer(post_id, _kept_json("detail", [post_id], _read_detail)[post_id])


def _detail_on_loop(post_id: int, **_):
    """get_detail's answer from a kept record, on the event loop; None when it is not kept."""
    kept = _kept_only("detail", [post_id])
    return None if kept is None else _detail_answer(post_id, kept[post_id])


def _detail_answer(post_id: int, text: bytes):
    if text == b"null":
        raise ApiError("RECORD_NOT_FOUND", f"resource {post_id} does not exist")
    return ok_tagged_json(text, data_type=1, etag=etag_of_kept(text))


answer_on_loop(get_detail, _detail_on_loop)  # a cache hit needs no thread
reads_only(get_detail)


def _read_detail(ids: list[int]) -> dict[int, ModDetail | None]:
    """ModDetailVO by id, None where unknown, deleted or not public (kept as absent)."""
    return catalog.get_details(
        session(), post_ids=ids, display=platform().display, today=platform().clock().date()
    )


def list_authors(post_id: int, **_):
    """List of AuthorBriefVO of a resource (listModAuthors, listResourceAuthors)."""
    return ok_tagged(catalog.list_authors(session(), post_id=post_id, display=platform().display))


def list_comments(post_id: int, page_num: int = 1, page_size: int = 20, **_):
    """PageResultCommentVO of a resource (listModComments, listResourceComments)."""
    return ok_tagged(
        comments.list_resource_comments(
            session(), post_id=post_id, page_num=page_num, page_size=page_size, display=platform().display
        )
    )


def get_description(post_id: int, **_):
    """ModDescriptionVO of one resource (getModDescription, getResourceDescription)."""
    return ok_tagged(catalog.get_description(session(), post_id=post_id, display=platform().display))


def get_rating(post_id: int, **_):
    """RatingAggregateVO of one resource (getModRating, getResourceRating)."""
    return ok_tagged(catalog.get_rating(session(), post_id=post_id))


def list_relations(post_id: int, **_):
    """List of RelationVO of a resource (listModRelations, listResourceRelations)."""
    return ok_tagged(catalog.list_relations(session(), post_id=post_id))


def get_relations_batch(body: dict, **_):
    """RelationsOfResourceVO (or null) per post id, in request order (getRelationsBatch, an
    extension)."""
    return ok_tagged(catalog.relations_batch(session(), post_ids=body["postIds"]))


def list_versions(post_id: int, **_):
    """List of VersionVO of a resource (listModVersions, listResourceVersions)."""
    return ok_tagged(catalog.list_versions(session(), post_id=post_id, display=platform().display))
