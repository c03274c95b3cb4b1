"""Legacy v1 operations (/openapi/v1): free-form objects and the v1 user profile."""

from models.catalog import stats
from models.files import listing
from models.identity import service as identity
from models.identity.records import user_profile
from models.legacy import service as legacy
from modhub.web import ok, ok_tagged, platform, proxy_user_id, session


def _today():
    return platform().clock().date()


def batch_post_detail(body: dict, **_):
    """List of free-form post objects in request order (legacyBatchPostDetail)."""
    return ok_tagged(
        legacy.batch_post_detail(
            session(),
            post_ids=body["postIds"],
            display=platform().display,
            today=_today(),
            post_type=body.get("postType"),
        )
    )


def query_posts(
    page_num: int = 1,
    page_size: int = 20,
    section_code: str | None = None,
    post_type: str | None = None,
    keyword: str | None = None,
    **_,
):
    """PageResultObject of posts (legacyQueryPosts)."""
    return ok_tagged(
        legacy.query_posts(
            session(),
            page_num=page_num,
            page_size=page_size,
            section_code=section_code,
            post_type=post_type,
            keyword=keyword,
            display=platform().display,
        )
    )


def get_post(post_id: int, post_type: str | None = None, **_):
    """Free-form object of one post (legacyGetPost)."""
    return ok_tagged(
        legacy.get_post(
            session(), post_id=post_id, post_type=post_type, display=platform().display, today=_today()
        )
    )


def get_resource(post_id: int, **_):
    """Free-form object of one resource (legacyGetResource)."""
    return ok_tagged(
        legacy.get_resource(session(), post_id=post_id, display=platform().display, today=_today())
    )


def list_resource_files(post_id: int, **_):
    """List of free-form file objects of a resource (legacyListResourceFiles)."""
    return ok_tagged(listing.list_files(session(), post_id=post_id, display=platform().display))


def query_servers(
    page_num: int, page_size: int, server_status: str | None = None, query_enabled: bool | None = None, **_
):
    """PageResultObject of game servers (legacyQueryServers)."""
    return ok_tagged(
        legacy.query_servers(
            session(),
            page_num=page_num,
            page_size=page_size,
            server_status=server_status,
            query_enabled=query_enabled,
            display=platform().display,
        )
    )


def get_server_status(post_id: int, **_):
    """OpenApiServerStatusVo of one server post (legacyGetServerStatus)."""
    return ok_tagged(legacy.get_server_status(session(), post_id=post_id, display=platform().display))


def get_forum_stats(**_):
    """OpenApiForumStatsVo of the whole forum (legacyGetForumStats)."""
    return ok(stats.forum_stats(session(), now=platform().clock(), display=platform().display))


def list_tags(section_code: str | None = None, page_size: int = 200, **_):
    """List of free-form tag objects (legacyListTags)."""
    return ok_tagged(legacy.list_tags(session(), section_code=section_code, limit=page_size))


def get_user_profile(**_):
    """OpenApiUserProfileVo of the proxy user (legacyGetUserProfile)."""
    user = identity.get_user_or_raise(session(), user_id=proxy_user_id())
    return ok(user_profile(user, display=platform().display))
