"""wallet idempotency keys

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-21
"""

from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('idempotency_key',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('app_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('fingerprint', sa.String(length=64), nullable=False),
    sa.Column('record_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('new_balance', sa.Numeric(precision=20, scale=4), nullable=True),
    sa.Column('currency', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_idempotency_key_app_id_application')),
    sa.ForeignKeyConstraint(['record_id'], ['wallet_ledger.id'], name=op.f('fk_idempotency_key_record_id_wallet_ledger')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_idempotency_key')),
    sa.UniqueConstraint('app_id', 'key', name='uq_idempotency_key_app_key')
    )


def downgrade() -> None:
    op.drop_table('idempotency_key')
