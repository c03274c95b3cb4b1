"""Download commands: `modhub admin resource restore`, `modhub admin entitlement grant|revoke`,
`modhub downloads flush` and `modhub keys rotate-install-key|retire-install-key`."""

from __future__ import annotations

import json

import click

from modhub.cli.admin import admin, resource
from modhub.cli.common import audited
from modhub.cli.common import load_platform as _platform
from modhub.cli.common import run_or_fail as _run


@resource.command("restore")
@click.argument("post_id", type=int)
@click.option(
    "--note",
    default="restored by an operator",
    show_default=True,
    help="Resolution written to the resource's reports (seen through resolved-since).",
)
@audited
def resource_restore(post_id: int, note: str) -> None:
    """Publish again a resource hidden by download-failure reports; resolves its reports."""
    from models.downloads.reports import restore

    platform = _platform()
    with platform.db.session() as session, session.begin():
        resolved = _run(lambda: restore(session, post_id=post_id, display=platform.display, resolution=note))
    click.echo(json.dumps({"postId": post_id, "status": "PUBLISHED", "resolvedReports": resolved}))


@admin.group()
def entitlement() -> None:
    """Entitlements: who may download a paid or members-only resource."""


@entitlement.command("grant")
@click.argument("user_id", type=int)
@click.argument("post_id", type=int)
@audited
def entitlement_grant(user_id: int, post_id: int) -> None:
    """Let a user download a paid (or MEMBERS) resource."""
    from models.downloads.access import grant

    platform = _platform()
    with platform.db.session() as session, session.begin():
        new = _run(lambda: grant(session, user_id=user_id, post_id=post_id))
    click.echo(json.dumps({"userId": user_id, "postId": post_id, "granted": new}))


@entitlement.command("revoke")
@click.argument("user_id", type=int)
@click.argument("post_id", type=int)
@audited
def entitlement_revoke(user_id: int, post_id: int) -> None:
    """Take an entitlement back (its temporary links stop working at once)."""
    from models.downloads.access import revoke

    platform = _platform()
    with platform.db.session() as session, session.begin():
        gone = _run(lambda: revoke(session, user_id=user_id, post_id=post_id))
    click.echo(json.dumps({"userId": user_id, "postId": post_id, "revoked": gone}))


@click.group("downloads")
def downloads() -> None:
    """Download counters."""


@downloads.command("flush")
def downloads_flush() -> None:
    """Write the pending download counts (Redis) into the counters and daily statistics."""
    from models.downloads.counting import flush

    platform = _platform()
    written = _run(
        lambda: flush(platform.db, platform.download_counter, log=lambda line: click.echo(line, err=True))
    )
    click.echo(f"{written} downloads flushed")


@click.group("keys")
def keys() -> None:
    """Signing keys."""


@keys.command("init-install-key")
def keys_init() -> None:
    """Make the first install-script signing key when the database has none (idempotent, safe on
    several hosts at once: a database lock); prints the current key id. Production `serve`
    needs it (or MODHUB_INSTALL_SIGNING_KEY)."""
    from models.downloads.keys import ring

    platform = _platform()
    with platform.db.session() as session, session.begin():
        kid = ring(session, platform.settings).kid
    click.echo(json.dumps({"currentKeyId": kid}))


@keys.command("rotate-install-key")
@audited
def keys_rotate() -> None:
    """Make a new install-script signing key; the old one stays published until retired."""
    from models.downloads.keys import rotate

    platform = _platform()
    click.echo("generating a 3072-bit RSA key ...", err=True)
    with platform.db.session() as session, session.begin():
        kid = rotate(session, settings=platform.settings, secrets=platform.secrets)
    click.echo(json.dumps({"currentKeyId": kid}))


@keys.command("retire-install-key")
@click.argument("kid")
@audited
def keys_retire(kid: str) -> None:
    """Stop publishing a previous install-script signing key."""
    from models.downloads.keys import retire

    platform = _platform()
    with platform.db.session() as session, session.begin():
        _run(lambda: retire(session, kid=kid))
    click.echo(json.dumps({"retiredKeyId": kid}))
