"""Demo data for the embedded quick start: one approved application and one platform user."""

from __future__ import annotations

import secrets

from sqlalchemy import select

from models.identity import applications
from models.identity.tables import Application, User

DEMO_APP = "modhub demo app"


def ensure_demo_app(platform, redirect_uri: str | None = None) -> dict:
    """The demo application's credentials, creating it (and a demo user) on first start."""
    with platform.db.session() as session, session.begin():
        app = session.scalar(select(Application).where(Application.name == DEMO_APP))
        if app is None:
            creds = applications.create(
                session,
                platform.secrets,
                name=DEMO_APP,
                permissions=["user:proxy"],
                approve=True,
                redirect_uris=[redirect_uri] if redirect_uri else [],
            )
            app_id, api_key, secret = creds.app_id, creds.api_key, creds.secret_key
        else:
            app_id, api_key = app.id, app.api_key
            secret = platform.secrets.open(app.secret_encrypted)
            if redirect_uri and redirect_uri not in (app.redirect_uris or []):
                app.redirect_uris = [*(app.redirect_uris or []), redirect_uri]
        user = session.scalar(select(User).where(User.username == "demo"))
        if user is None:
            user = User(username="demo", login_name="demo")
            session.add(user)
            session.flush()
        return {"appId": app_id, "apiKey": api_key, "secretKey": secret, "demoUserId": user.id}


def new_demo_password(platform, user_id: int) -> str:
    """Give the demo user a fresh generated password (printed once) and the admin role."""
    from models.console.service import set_role
    from models.identity.accounts import hash_password

    password = secrets.token_urlsafe(12)
    with platform.db.session() as session, session.begin():
        session.get(User, user_id).password_hash = hash_password(password)
        set_role(session, user_id=user_id, role="admin")
    return password


def banner(creds: dict, base: str, password: str, shared_quota: bool = False) -> str:
    """The lines `modhub run` prints once the server listens."""
    quotas = (
        "  quotas: counted in Redis"
        if shared_quota
        else "  quotas: counted in this process (embedded mode; MODHUB_REDIS_URL shares them)"
    )
    return "\n".join(
        [
            "",
            "=" * 64,
            f"modhub is running at {base}",
            quotas,
            f"  API docs (sign requests there): {base}/openapi/v2/meta/docs/",
            f"  developer console:              {base}/console   (admin pages: {base}/admin)",
            f"  demo app id {creds['appId']}  API key {creds['apiKey']}",
            f"  demo secret key                 {creds['secretKey']}",
            f"  demo site user                  demo / {password}   (new password each start)",
            f"  consent flow: {base}/openapi-authorize?app_id={creds['appId']}"
            f"&redirect_uri={base}/demo/callback",
            "=" * 64,
            "",
        ]
    )
