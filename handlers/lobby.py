"""Lobby server posts and their reserved and uploaded resources."""

from modhub.errors import not_implemented


def publish_post(**kwargs):
    """Integer: id of the new lobby post (publishLobbyPost)."""
    raise not_implemented("publishLobbyPost")


def update_post(**kwargs):
    """Boolean: lobby post updated (updateLobbyPost)."""
    raise not_implemented("updateLobbyPost")


def close_post(**kwargs):
    """Boolean: lobby post closed (closeLobbyPost)."""
    raise not_implemented("closeLobbyPost")


def get_manifest(**kwargs):
    """OpenApiServerPostLobbyManifestVo of a lobby post (getLobbyManifest)."""
    raise not_implemented("getLobbyManifest")


def refresh_urls(**kwargs):
    """Integer: presigned URLs renewed (refreshLobbyUrls)."""
    raise not_implemented("refreshLobbyUrls")


def reserve_resources(**kwargs):
    """OpenApiServerPostLobbyReserveBatchVo of a reserve batch (reserveLobbyResources)."""
    raise not_implemented("reserveLobbyResources")


def cancel_resource(**kwargs):
    """Boolean: reserved resource cancelled (cancelLobbyResource)."""
    raise not_implemented("cancelLobbyResource")


def upload_resource(**kwargs):
    """OpenApiServerPostLobbyUploadResultVo of an upload (uploadLobbyResource)."""
    raise not_implemented("uploadLobbyResource")
