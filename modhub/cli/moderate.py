"""`modhub moderate ...`: the review queue of resource drafts from the command line. Approval
publishes through the lifecycle functions, so the same webhook events are raised."""

from __future__ import annotations

import json

import click

from modhub.cli.common import audited, load_platform, run_or_fail


def _reviewer(session, reviewer_id: int | None) -> int | None:
    from models.authoring.review import can_moderate

    if reviewer_id is not None and not can_moderate(session, user_id=reviewer_id):
        raise click.ClickException(
            f"user {reviewer_id} has no moderator role (modhub admin user role ID moderator)"
        )
    return reviewer_id


def _echo(value) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


@click.group()
def moderate() -> None:
    """Review resource drafts: list the queue, show a diff, approve or reject with a reason."""


@moderate.command("list")
@click.option(
    "--state",
    type=click.Choice(["PENDING_REVIEW", "REJECTED", "DRAFT", "PUBLISHED"]),
    default="PENDING_REVIEW",
    show_default=True,
)
@click.option("--limit", type=click.IntRange(1, 1000), default=100, show_default=True)
def moderate_list(state: str, limit: int) -> None:
    """Drafts in a state, the longest waiting first (JSON)."""
    from models.authoring import records, review

    platform = load_platform()
    with platform.db.session() as session:
        _echo(
            [
                records.review_item(session, d, display=platform.display)
                for d in review.queue(session, state=state, limit=limit)
            ]
        )


@moderate.command("show")
@click.argument("draft_id", type=int)
def moderate_show(draft_id: int) -> None:
    """One draft with its changes against the published version (JSON)."""
    from models.authoring import records, review

    platform = load_platform()
    with platform.db.session() as session:
        draft = run_or_fail(lambda: review.get_or_raise(session, draft_id=draft_id))
        _echo(records.review_detail(session, draft, display=platform.display))


@moderate.command("approve")
@click.argument("draft_id", type=int)
@click.option("--by", "reviewer_id", type=int, help="Moderator user id recorded with the decision.")
@audited
def moderate_approve(draft_id: int, reviewer_id: int | None) -> None:
    """Approve: publish the draft (resource.published) or apply the edit (resource.updated)."""
    from models.authoring import review

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        reviewer = _reviewer(session, reviewer_id)
        post = run_or_fail(
            lambda: review.approve(session, draft_id=draft_id, display=platform.display, reviewer_id=reviewer)
        )
        out = {"draftId": draft_id, "state": "PUBLISHED", "postId": post.id, "postVersion": post.post_version}
    _echo(out)


@moderate.command("reject")
@click.argument("draft_id", type=int)
@click.option("--reason", required=True, help="Why; the author is notified with it.")
@click.option("--by", "reviewer_id", type=int, help="Moderator user id recorded with the decision.")
@audited
def moderate_reject(draft_id: int, reason: str, reviewer_id: int | None) -> None:
    """Reject with a reason: the draft goes back to its author (REJECTED)."""
    from models.authoring import review

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        reviewer = _reviewer(session, reviewer_id)
        run_or_fail(lambda: review.reject(session, draft_id=draft_id, reason=reason, reviewer_id=reviewer))
    _echo({"draftId": draft_id, "state": "REJECTED", "reason": reason.strip()})
