"""Legacy v1 operations (/openapi/v1): free-form objects and the v1 user profile."""

from models import identity
from modhub.errors import not_implemented
from modhub.web import ok, platform, proxy_user_id, session


def batch_post_detail(**kwargs):
    """List of free-form post objects in request order (legacyBatchPostDetail)."""
    raise not_implemented("legacyBatchPostDetail")


def query_posts(**kwargs):
    """PageResultObject of posts (legacyQueryPosts)."""
    raise not_implemented("legacyQueryPosts")


def get_post(**kwargs):
    """Free-form object of one post (legacyGetPost)."""
    raise not_implemented("legacyGetPost")


def get_resource(**kwargs):
    """Free-form object of one resource (legacyGetResource)."""
    raise not_implemented("legacyGetResource")


def download_auth(**kwargs):
    """DownloadAuthVo for a file of a resource (legacyDownloadAuth)."""
    raise not_implemented("legacyDownloadAuth")


def list_resource_files(**kwargs):
    """List of free-form file objects of a resource (legacyListResourceFiles)."""
    raise not_implemented("legacyListResourceFiles")


def get_install_config(**kwargs):
    """InstallConfigVo of a resource file (legacyGetInstallConfig)."""
    raise not_implemented("legacyGetInstallConfig")


def query_servers(**kwargs):
    """PageResultObject of game servers (legacyQueryServers)."""
    raise not_implemented("legacyQueryServers")


def get_server_status(**kwargs):
    """OpenApiServerStatusVo of one server post (legacyGetServerStatus)."""
    raise not_implemented("legacyGetServerStatus")


def get_forum_stats(**kwargs):
    """OpenApiForumStatsVo of the whole forum (legacyGetForumStats)."""
    raise not_implemented("legacyGetForumStats")


def list_tags(**kwargs):
    """List of free-form tag objects (legacyListTags)."""
    raise not_implemented("legacyListTags")


def get_user_profile(**_):
    """OpenApiUserProfileVo of the proxy user (legacyGetUserProfile)."""
    settings = platform().settings
    user = identity.get_user_or_raise(session(), user_id=proxy_user_id())
    return ok(identity.user_profile(user, zone=settings.time_zone, cdn_base=settings.cdn_base_url))
