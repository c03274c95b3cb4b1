"""merge the authoring, community, delivery and lobby branches

Revision ID: 0011
Revises: 0010_authoring, 0010_community, 0010_delivery, 0010_lobby
Create Date: 2026-11-23
"""

revision = '0011'
down_revision = ('0010_authoring', '0010_community', '0010_delivery', '0010_lobby')
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
