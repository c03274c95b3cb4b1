"""`modhub app ...`: third-party applications — create, approve, disable, list, rotate the secret."""

from __future__ import annotations

import json

import click

from modhub.cli.common import audited, load_platform, run_or_fail


@click.group()
def app() -> None:
    """Third-party applications."""


@app.command("create")
@click.option("--name", required=True, help="Display name of the application.")
@click.option("--permission", "permissions", multiple=True, help="Permission, e.g. user:proxy.")
@click.option("--scope", "scopes", multiple=True, help="Approved token scope, e.g. post:write.")
@click.option("--ip-allow", "ip_allow", multiple=True, help="Allowed caller IP or pattern (10.0.0.*).")
@click.option("--redirect-uri", "redirect_uris", multiple=True, help="Registered OAuth redirect URI.")
@click.option("--per-minute", type=click.IntRange(min=1), help="Per-minute quota (default 100).")
@click.option("--per-day", type=click.IntRange(min=1), help="Per-day quota (default 10000).")
@click.option("--approve", is_flag=True, help="Approve at once.")
@audited
def app_create(name, permissions, scopes, ip_allow, redirect_uris, per_minute, per_day, approve):
    """Register an application and print its credentials once, as JSON."""
    from models.identity import applications

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        creds = applications.create(
            session,
            platform.secrets,
            name=name,
            permissions=permissions,
            scopes=scopes,
            ip_allow=ip_allow,
            redirect_uris=redirect_uris,
            per_minute=per_minute,
            per_day=per_day,
            approve=approve,
        )
    click.echo(json.dumps(creds.as_json()))


def _set_status(app_id: int, status_name: str) -> None:
    from models.identity import applications
    from models.identity.tables import AppStatus

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        run_or_fail(lambda: applications.set_status(session, app_id=app_id, status=AppStatus[status_name]))
    click.echo(f"application {app_id} is {status_name}", err=True)


@app.command("approve")
@click.argument("app_id", type=int)
@audited
def app_approve(app_id: int) -> None:
    """Approve an application."""
    _set_status(app_id, "APPROVED")


@app.command("disable")
@click.argument("app_id", type=int)
@audited
def app_disable(app_id: int) -> None:
    """Disable an application (its requests get 200204)."""
    _set_status(app_id, "DISABLED")


@app.command("list")
def app_list() -> None:
    """List applications as JSON lines (never their secrets)."""
    from models.identity import applications

    platform = load_platform()
    with platform.db.session() as session:
        for a in applications.list_(session):
            click.echo(
                json.dumps(
                    {
                        "appId": a.id,
                        "name": a.name,
                        "apiKey": a.api_key,
                        "status": a.status.value,
                        "permissions": a.permissions,
                        "ipAllow": a.ip_allow,
                        "perMinute": a.per_minute,
                        "perDay": a.per_day,
                    }
                )
            )


@app.command("rotate-secret")
@click.argument("app_id", type=int)
@audited
def app_rotate_secret(app_id: int) -> None:
    """Replace an application's secret key and print the new credentials once."""
    from models.identity import applications

    platform = load_platform()
    with platform.db.session() as session, session.begin():
        creds = run_or_fail(lambda: applications.rotate_secret(session, platform.secrets, app_id=app_id))
    click.echo(json.dumps(creds.as_json()))
