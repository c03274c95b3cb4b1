"""The review queue pages: drafts waiting for review, the diff of a draft against the published
version, approve or reject with a reason (moderators and admins only; CSRF on every form)."""

from __future__ import annotations

from types import SimpleNamespace

import flask
import werkzeug

from models.authoring import records, review
from modhub.site.views import _check_csrf, _current_user, _to_login, bp
from modhub.web import platform, session


def _moderator_or_refusal():
    """(user, None) for a moderator; (None, response) to log in first or a 403 page otherwise."""
    user = _current_user()
    if user is None:
        return None, _to_login()
    if not review.can_moderate(session(), user_id=user.id):
        refusal = SimpleNamespace(message="This page is for moderators only.", code="forbidden")
        return None, (flask.render_template("error.html", error=refusal), 403)
    return user, None


@bp.get("/moderation")
def moderation_home():
    """The drafts waiting for review, the longest waiting first."""
    user, refusal = _moderator_or_refusal()
    if refusal:
        return refusal
    items = [records.review_item(session(), d, display=platform().display) for d in review.queue(session())]
    return flask.render_template(
        "moderation.html", user=user, items=items, done=flask.request.args.get("done")
    )


@bp.get("/moderation/<int:draft_id>")
def moderation_draft(draft_id: int):
    """One draft: its changes against the published version, and the two decisions."""
    user, refusal = _moderator_or_refusal()
    if refusal:
        return refusal
    draft = review.get_or_raise(session(), draft_id=draft_id)
    detail = records.review_detail(session(), draft, display=platform().display)
    return flask.render_template("moderation_draft.html", user=user, d=detail)


def _decide(draft_id: int, action) -> werkzeug.Response:
    user, refusal = _moderator_or_refusal()
    if refusal:
        return refusal
    _check_csrf()
    action(user.id)
    return flask.redirect(flask.url_for("site.moderation_home", done=draft_id))


@bp.post("/moderation/<int:draft_id>/approve")
def moderation_approve(draft_id: int):
    """Approve: publish the draft or apply the edit (raises the resource webhook)."""
    return _decide(
        draft_id,
        lambda actor: review.approve(
            session(),
            draft_id=draft_id,
            display=platform().display,
            reviewer_id=actor,
            now=platform().clock(),
        ),
    )


@bp.post("/moderation/<int:draft_id>/reject")
def moderation_reject(draft_id: int):
    """Reject with a reason; the author is notified with it."""
    return _decide(
        draft_id,
        lambda actor: review.reject(
            session(),
            draft_id=draft_id,
            reason=flask.request.form.get("reason", ""),
            reviewer_id=actor,
            now=platform().clock(),
        ),
    )
