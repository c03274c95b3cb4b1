"""`modhub admin user role` grants and removes the admin role on the embedded SQLite default."""

from __future__ import annotations

import json

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from models.console import service
from models.identity.tables import User
from tests.functional.test_cli import run  # noqa: F401  (the CLI fixture)


def test_admin_user_role(run, tmp_path):  # noqa: F811
    engine = create_engine(f"sqlite:///{tmp_path / 'data' / 'modhub.db'}")
    with Session(engine) as session:
        user = User(username="boss")
        session.add(user)
        session.commit()
        user_id = user.id
    assert json.loads(run("admin", "user", "role", str(user_id), "admin").stdout) == {
        "userId": user_id,
        "role": "admin",
    }
    with Session(engine) as session:
        assert service.has_role(session, user_id=user_id)
    run("admin", "user", "role", str(user_id), "none")
    with Session(engine) as session:
        assert not service.has_role(session, user_id=user_id)
    assert "does not exist" in run("admin", "user", "role", "999", "admin", ok=False).output
    engine.dispose()
