"""merge the delivery, community and console branches

Revision ID: 0009
Revises: 0008_delivery, 0008_community, 0008_console
Create Date: 2026-11-23
"""



revision = '0009'
down_revision = ('0008_delivery', '0008_community', '0008_console')
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
