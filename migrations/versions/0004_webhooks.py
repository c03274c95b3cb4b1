"""webhooks: subscriptions, outbox events, deliveries and attempts

Revision ID: 0004
Revises: 0001
Create Date: 2026-11-21
"""

from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('webhook_event',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('event_id', sa.String(length=40), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('relayed_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_event')),
    sa.UniqueConstraint('event_id', name=op.f('uq_webhook_event_event_id'))
    )
    op.create_index(op.f('ix_webhook_event_created_at'), 'webhook_event', ['created_at'], unique=False)
    op.create_index('ix_webhook_event_unrelayed', 'webhook_event', ['relayed_at', 'id'], unique=False)
    op.create_table('webhook_subscription',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('app_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('url', sa.String(length=2048), nullable=False),
    sa.Column('events', sa.JSON(), nullable=False),
    sa.Column('status', sa.Enum('ACTIVE', 'PAUSED', 'DISABLED', name='webhook_subscription_status', native_enum=False, length=16), nullable=False),
    sa.Column('secret_encrypted', sa.Text(), nullable=False),
    sa.Column('previous_secret_encrypted', sa.Text(), nullable=True),
    sa.Column('previous_secret_expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('failing_since', sa.DateTime(timezone=True), nullable=True),
    sa.Column('disabled_reason', sa.String(length=255), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_webhook_subscription_app_id_application')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_subscription'))
    )
    op.create_index(op.f('ix_webhook_subscription_app_id'), 'webhook_subscription', ['app_id'], unique=False)
    op.create_table('webhook_delivery',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('event_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('subscription_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('status', sa.Enum('PENDING', 'SUCCEEDED', 'FAILED', 'DROPPED', name='webhook_delivery_status', native_enum=False, length=16), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_status_code', sa.Integer(), nullable=True),
    sa.Column('last_error', sa.String(length=500), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('completed_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['webhook_event.id'], name=op.f('fk_webhook_delivery_event_id_webhook_event'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['subscription_id'], ['webhook_subscription.id'], name=op.f('fk_webhook_delivery_subscription_id_webhook_subscription'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_delivery')),
    sa.UniqueConstraint('event_id', 'subscription_id', name='uq_webhook_delivery_event_subscription')
    )
    op.create_index(op.f('ix_webhook_delivery_created_at'), 'webhook_delivery', ['created_at'], unique=False)
    op.create_index('ix_webhook_delivery_due', 'webhook_delivery', ['status', 'next_attempt_at'], unique=False)
    op.create_index(op.f('ix_webhook_delivery_subscription_id'), 'webhook_delivery', ['subscription_id'], unique=False)
    op.create_table('webhook_attempt',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('delivery_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('attempted_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('status_code', sa.Integer(), nullable=True),
    sa.Column('latency_ms', sa.Integer(), nullable=False),
    sa.Column('response_excerpt', sa.String(length=500), nullable=True),
    sa.Column('error', sa.String(length=500), nullable=True),
    sa.ForeignKeyConstraint(['delivery_id'], ['webhook_delivery.id'], name=op.f('fk_webhook_attempt_delivery_id_webhook_delivery'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook_attempt'))
    )
    op.create_index(op.f('ix_webhook_attempt_delivery_id'), 'webhook_attempt', ['delivery_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_webhook_attempt_delivery_id'), table_name='webhook_attempt')
    op.drop_table('webhook_attempt')
    op.drop_index(op.f('ix_webhook_delivery_subscription_id'), table_name='webhook_delivery')
    op.drop_index('ix_webhook_delivery_due', table_name='webhook_delivery')
    op.drop_index(op.f('ix_webhook_delivery_created_at'), table_name='webhook_delivery')
    op.drop_table('webhook_delivery')
    op.drop_index(op.f('ix_webhook_subscription_app_id'), table_name='webhook_subscription')
    op.drop_table('webhook_subscription')
    op.drop_index('ix_webhook_event_unrelayed', table_name='webhook_event')
    op.drop_index(op.f('ix_webhook_event_created_at'), table_name='webhook_event')
    op.drop_table('webhook_event')
