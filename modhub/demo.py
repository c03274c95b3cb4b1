"""Demo data for the embedded quick start: one approved application and one platform user."""

from __future__ import annotations

from sqlalchemy import select

from models import applications
from models.identity import Application, User

DEMO_APP = "modhub demo app"


def ensure_demo_app(platform) -> dict:
    """The demo application's credentials, creating it (and a demo user) on first start."""
    with platform.db.session() as session, session.begin():
        app = session.scalar(select(Application).where(Application.name == DEMO_APP))
        if app is None:
            creds = applications.create(session, platform.secrets, name=DEMO_APP,
                                        permissions=["user:proxy"], approve=True)
            app_id, api_key, secret = creds.app_id, creds.api_key, creds.secret_key
        else:
            app_id, api_key = app.id, app.api_key
            secret = platform.secrets.open(app.secret_encrypted)
        user = session.scalar(select(User).where(User.username == "demo"))
        if user is None:
            user = User(username="demo", login_name="demo")
            session.add(user)
            session.flush()
        return {"appId": app_id, "apiKey": api_key, "secretKey": secret, "demoUserId": user.id}
