"""catalog generation: the record cache's generation kept in the database (no Redis)

Without Redis, the catalogue generation (models/record_cache.py) is this one row, moved inside the
transaction of every catalogue change, so that a change committed by another process (a CLI
command) is seen by the server's next request.

Revision ID: 0014_catalog_generation
Revises: 0013_search_tiers
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = '0014_catalog_generation'
down_revision = '0013_search_tiers'
branch_labels = None
depends_on = None


def upgrade():
    table = op.create_table(
        'catalog_generation',
        sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('value', sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_catalog_generation')),
    )
    op.bulk_insert(table, [{'id': 1, 'value': 0}])


def downgrade():
    op.drop_table('catalog_generation')
