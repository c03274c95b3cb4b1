"""Resource drafts, publishing and editing on behalf of a proxy user."""

from modhub.errors import not_implemented


def init_draft(**kwargs):
    """OpenApiPostIdVO of a new draft (initModDraft, initResourceDraft)."""
    raise not_implemented("initModDraft")


def save_draft(**kwargs):
    """OpenApiPostIdVO of the saved draft (saveModDraft, saveResourceDraft)."""
    raise not_implemented("saveModDraft")


def publish_draft(**kwargs):
    """Boolean: draft submitted for approval (publishModDraft, publishResourceDraft)."""
    raise not_implemented("publishModDraft")


def edit_resource(**kwargs):
    """Boolean: edit submitted for approval (editMod, editResource)."""
    raise not_implemented("editMod")
