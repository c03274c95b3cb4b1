"""Lobby server posts and their reserved and uploaded resources."""

from werkzeug.http import parse_options_header

from models.lobby import reserve as lobby_reserve
from models.lobby import service as lobby
from models.lobby import uploads
from modhub.core.errors import ApiError
from modhub.core.multipart_stream import FilePartReader
from modhub.web import ok, ok_tagged, platform, proxy_user_id, request_headers, request_stream, session


def _settings():
    return platform().settings


def _now():
    return platform().clock()


def publish_post(body: dict, **_):
    """New lobby post id (publishLobbyPost)."""
    return ok(
        lobby.publish(
            session(),
            platform().storage,
            user_id=proxy_user_id(),
            params=body,
            display=platform().display,
            now=_now(),
        )
    )


def update_post(post_id: int, body: dict, **_):
    """Boolean: fields overwritten, resource list replaced (updateLobbyPost)."""
    return ok(
        lobby.update(
            session(),
            platform().storage,
            user_id=proxy_user_id(),
            post_id=post_id,
            params=body,
            display=platform().display,
            now=_now(),
        )
    )


def close_post(post_id: int, **_):
    """Boolean: the post and its resource rows soft-deleted (closeLobbyPost)."""
    return ok(
        lobby.close(
            session(), user_id=proxy_user_id(), post_id=post_id, display=platform().display, now=_now()
        )
    )


def get_manifest(post_id: int, **_):
    """OpenApiServerPostLobbyManifestVo, anonymous, with an ETag (getLobbyManifest)."""
    return ok_tagged(
        lobby.manifest(session(), platform().storage, post_id=post_id, display=platform().display, now=_now())
    )


def refresh_urls(post_id: int, **_):
    """Integer: download URLs renewed (refreshLobbyUrls)."""
    return ok(
        lobby.refresh_urls(
            session(), platform().storage, user_id=proxy_user_id(), post_id=post_id, now=_now()
        )
    )


def reserve_resources(post_id: int, body: dict, **_):
    """OpenApiServerPostLobbyReserveBatchVo (reserveLobbyResources)."""
    return ok(
        lobby_reserve.reserve(
            session(),
            platform().storage,
            user_id=proxy_user_id(),
            post_id=post_id,
            items=body["items"],
            settings=_settings(),
            now=_now(),
        )
    )


def cancel_resource(post_id: int, resource_id: int, **_):
    """Boolean (cancelLobbyResource)."""
    return ok(
        lobby_reserve.cancel(
            session(), user_id=proxy_user_id(), post_id=post_id, resource_id=resource_id, now=_now()
        )
    )


def upload_resource(post_id: int, resource_id: int):
    """OpenApiServerPostLobbyUploadResultVo (uploadLobbyResource).

    No **kwargs and no body argument: Connexion would then read the whole body into memory.
    The body arrives untouched (see ClosingMultiPartValidator) and is streamed here.
    """
    plat = platform()
    user_id = proxy_user_id()
    session().commit()  # end the gateway's transaction: none stays open while the body streams
    _, options = parse_options_header(request_headers().get("Content-Type", ""))
    if not options.get("boundary"):
        raise ApiError("PARAMETER_INVALID", "multipart/form-data needs a boundary")
    expected = uploads.claim(
        plat.db,
        user_id=user_id,
        post_id=post_id,
        resource_id=resource_id,
        token=request_headers().get("X-Upload-Token", ""),
        now=_now(),
    )
    reader = FilePartReader(request_stream(), options["boundary"])
    obj = uploads.store(plat.db, plat.storage, resource_id=resource_id, expected=expected, reader=reader)
    return ok(uploads.finish(plat.db, plat.storage, resource_id=resource_id, obj=obj, now=_now()))
