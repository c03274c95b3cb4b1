"""`modhub admin ...`: administrator actions that change the catalog through the domain functions
(and so raise the same webhook events the authoring and moderation operations will)."""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation

import click

from modhub.cli.common import audited, load_platform, run_or_fail


@click.group()
def admin() -> None:
    """Administrator actions on resources, servers and site users."""


@admin.group()
def resource() -> None:
    """Resource posts: publish, update, delete (each emits its webhook event)."""


def _apply(action, **kwargs) -> None:
    from models.catalog.lifecycle import resource_snapshot

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        post = run_or_fail(lambda: action(session, display=platform.display, **kwargs))
        out = resource_snapshot(session, post, display=platform.display)
    click.echo(json.dumps(out, ensure_ascii=False))


@resource.command("publish")
@click.argument("post_id", type=int)
@audited
def resource_publish(post_id: int) -> None:
    """Publish a resource post; emits resource.published."""
    from models.catalog.lifecycle import publish_resource

    _apply(publish_resource, post_id=post_id)


@resource.command("update")
@click.argument("post_id", type=int)
@click.option(
    "--set",
    "pairs",
    multiple=True,
    required=True,
    metavar="FIELD=VALUE",
    help="Field to change, e.g. --set main_name='New name' --set resource_version=1.2 "
    "(lists and booleans as JSON: --set main_categories='[\"MAP\"]').",
)
@audited
def resource_update(post_id: int, pairs) -> None:
    """Change fields of a resource post; a published one emits resource.updated."""
    from models.catalog.lifecycle import update_resource

    _apply(update_resource, post_id=post_id, **_parse_pairs(pairs))


def _parse_pairs(pairs) -> dict:
    changes = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"expected FIELD=VALUE, got {pair!r}", param_hint="--set")
        changes[name.strip()] = _value(name.strip(), raw)
    return changes


def _value(name: str, raw: str):
    # Lists, objects and booleans are JSON; everything else is text (so version "1.10" stays text).
    if raw.startswith(("[", "{")) or raw in ("true", "false", "null"):
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise click.BadParameter(f"{name}: {exc}", param_hint="--set") from exc
    if name == "price_amount":
        try:
            return Decimal(raw)
        except InvalidOperation as exc:
            raise click.BadParameter(f"price_amount must be a number, got {raw!r}") from exc
    return raw


@resource.command("delete")
@click.argument("post_id", type=int)
@audited
def resource_delete(post_id: int) -> None:
    """Soft-delete a resource post; emits resource.deleted with its last snapshot."""
    from models.catalog.lifecycle import delete_resource

    _apply(delete_resource, post_id=post_id)


@admin.group()
def server() -> None:
    """Server posts."""


@server.command("status")
@click.argument("post_id", type=int)
@click.argument("state", type=click.Choice(["online", "offline"]))
@audited
def server_status(post_id: int, state: str) -> None:
    """Mark a server online or offline; emits server.status.online/offline when it changed."""
    from models.catalog.lifecycle import server_snapshot, set_server_status

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        changed = run_or_fail(
            lambda: set_server_status(
                session, post_id=post_id, online=state == "online", display=platform.display
            )
        )
        from models.catalog.tables import ServerPost

        out = {
            **server_snapshot(session.get(ServerPost, post_id), display=platform.display),
            "changed": changed,
        }
    click.echo(json.dumps(out, ensure_ascii=False))


@admin.group()
def user() -> None:
    """Site users: roles on the admin pages."""


@user.command("role")
@click.argument("user_id", type=int)
@click.argument("role", type=click.Choice(["admin", "moderator", "none"]))
@audited
def user_role(user_id: int, role: str) -> None:
    """Grant a site role to a user (admin: may use the admin pages; moderator: may review resource
    drafts, as admins may too), or remove it with `none`."""
    from models.console.service import set_role
    from models.identity.service import get_user

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        if get_user(session, user_id=user_id) is None:
            raise click.ClickException(f"user {user_id} does not exist")
        run_or_fail(lambda: set_role(session, user_id=user_id, role=None if role == "none" else role))
    click.echo(json.dumps({"userId": user_id, "role": None if role == "none" else role}))
