"""delivery: sha1 and sha512 of stored files

Revision ID: 0008_delivery
Revises: 0007
Create Date: 2026-11-23
"""

from alembic import op
import sqlalchemy as sa


revision = '0008_delivery'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('resource_file') as batch:
        batch.add_column(sa.Column('sha1', sa.String(length=40), nullable=True))
        batch.add_column(sa.Column('sha512', sa.String(length=128), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('resource_file') as batch:
        batch.drop_column('sha512')
        batch.drop_column('sha1')
