"""merge the catalog, identity, webhooks and search branches

Revision ID: 0006
Revises: 0003, 0004, 0005
Create Date: 2026-11-21
"""



revision = '0006'
down_revision = ('0003', '0004', '0005')
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
