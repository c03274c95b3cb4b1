"""admin audit actor: administrative `modhub` commands are audited beside the admin pages

An audit row names either the site user who acted on the admin pages (actor_user_id) or, for a
command, who ran it (actor: "cli:<os user>@<host>"); actor_user_id becomes nullable.

Revision ID: 0015_admin_audit_actor
Revises: 0014_catalog_generation
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_admin_audit_actor"
down_revision = "0014_catalog_generation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("admin_audit") as batch:
        batch.add_column(sa.Column("actor", sa.String(length=64), nullable=False, server_default=""))
        batch.alter_column("actor_user_id", existing_type=sa.BigInteger(), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM admin_audit WHERE actor_user_id IS NULL")
    with op.batch_alter_table("admin_audit") as batch:
        batch.alter_column("actor_user_id", existing_type=sa.BigInteger(), nullable=False)
        batch.drop_column("actor")
