"""Resource drafts, publishing and editing on behalf of a proxy user."""

from models.authoring import files, service
from modhub.core.errors import ApiError
from modhub.web import caller, ok, platform, proxy_user_id, session

SCOPE = "post:write"


def _author() -> int:
    """The proxy user, when the token may write posts (an unrestricted token may)."""
    scopes = caller().token_scopes
    if scopes and SCOPE not in scopes:
        raise ApiError("SCOPE_DENIED", f"the proxy token lacks the {SCOPE} scope")
    return proxy_user_id()


def init_draft(body: dict, **_):
    """OpenApiPostIdVO of a new draft (initModDraft, initResourceDraft)."""
    user_id = _author()
    return ok({"postId": service.init_draft(session(), user_id=user_id, body=body, now=platform().clock())})


def save_draft(draft_id: int, body: dict, **_):
    """OpenApiPostIdVO of the saved draft (saveModDraft, saveResourceDraft)."""
    user_id = _author()
    draft = service.save_draft(
        session(), user_id=user_id, draft_id=draft_id, body=body, now=platform().clock()
    )
    return ok({"postId": draft.id})


def publish_draft(draft_id: int, body: dict, **_):
    """true: the draft is in review (publishModDraft, publishResourceDraft)."""
    user_id = _author()
    return ok(
        service.publish_draft(
            session(), user_id=user_id, draft_id=draft_id, body=body, now=platform().clock()
        )
    )


def edit_resource(post_id: int, body: dict, **_):
    """true: the edit is in review (editMod, editResource)."""
    user_id = _author()
    return ok(
        service.edit_resource(session(), user_id=user_id, post_id=post_id, body=body, now=platform().clock())
    )


def _mimetype(content_type: str | None) -> str:
    """The part's media type without its parameters (as werkzeug's FileStorage.mimetype)."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def upload_draft_file(file=None, **_):
    """DraftFileVO of an uploaded file (uploadDraftFile)."""
    user_id = _author()
    if file is None:
        raise ApiError("PARAMETER_INVALID", "the multipart part `file` is required")
    return ok(
        files.upload(
            session(),
            platform().storage,
            user_id=user_id,
            stream=file.file,  # a Starlette UploadFile: its spooled temporary file, read here
            file_name=file.filename,
            content_type=_mimetype(file.content_type),
            now=platform().clock(),
        )
    )
