"""identity codes tickets wallets bindings providers

Revision ID: 0003
Revises: 0001
Create Date: 2026-11-21 10:44:14.061285
"""

from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('carousel_placement',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('app_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('image_url', sa.String(length=2048), nullable=False),
    sa.Column('target_url', sa.String(length=2048), nullable=False),
    sa.Column('title', sa.String(length=60), nullable=False),
    sa.Column('description', sa.String(length=200), nullable=True),
    sa.Column('server_post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('start_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('end_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_carousel_placement_app_id_application')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_carousel_placement_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_carousel_placement'))
    )
    op.create_index(op.f('ix_carousel_placement_app_id'), 'carousel_placement', ['app_id'], unique=False)
    op.create_table('oauth_auth_code',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('code_hash', sa.String(length=64), nullable=False),
    sa.Column('app_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('redirect_uri', sa.String(length=2048), nullable=False),
    sa.Column('scopes', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_oauth_auth_code_app_id_application')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_oauth_auth_code_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_oauth_auth_code')),
    sa.UniqueConstraint('code_hash', name=op.f('uq_oauth_auth_code_code_hash'))
    )
    op.create_index(op.f('ix_oauth_auth_code_app_id'), 'oauth_auth_code', ['app_id'], unique=False)
    op.create_index(op.f('ix_oauth_auth_code_user_id'), 'oauth_auth_code', ['user_id'], unique=False)
    op.create_table('pairing_code',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('code_hash', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('redeemed_by_app_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.ForeignKeyConstraint(['redeemed_by_app_id'], ['application.id'], name=op.f('fk_pairing_code_redeemed_by_app_id_application')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_pairing_code_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pairing_code')),
    sa.UniqueConstraint('code_hash', name=op.f('uq_pairing_code_code_hash'))
    )
    op.create_index(op.f('ix_pairing_code_user_id'), 'pairing_code', ['user_id'], unique=False)
    op.create_table('provider_account',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('app_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('currency', sa.String(length=16), nullable=False),
    sa.Column('balance', sa.Numeric(precision=20, scale=4), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_provider_account_app_id_application')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_provider_account')),
    sa.UniqueConstraint('app_id', 'currency', name='uq_provider_account_app_currency')
    )
    op.create_table('sso_ticket',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('ticket_hash', sa.String(length=64), nullable=False),
    sa.Column('app_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_sso_ticket_app_id_application')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_sso_ticket_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sso_ticket')),
    sa.UniqueConstraint('ticket_hash', name=op.f('uq_sso_ticket_ticket_hash'))
    )
    op.create_index(op.f('ix_sso_ticket_app_id'), 'sso_ticket', ['app_id'], unique=False)
    op.create_index(op.f('ix_sso_ticket_user_id'), 'sso_ticket', ['user_id'], unique=False)
    op.create_table('user_binding',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('app_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('external_user_id', sa.String(length=128), nullable=False),
    sa.Column('external_username', sa.String(length=128), nullable=True),
    sa.Column('external_display_name', sa.String(length=128), nullable=True),
    sa.Column('bind_source', sa.String(length=16), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('bind_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('unbound_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_user_binding_app_id_application')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_user_binding_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_user_binding')),
    sa.UniqueConstraint('app_id', 'external_user_id', name='uq_user_binding_app_external')
    )
    op.create_index(op.f('ix_user_binding_user_id'), 'user_binding', ['user_id'], unique=False)
    op.create_table('wallet',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('currency', sa.String(length=16), nullable=False),
    sa.Column('balance', sa.Numeric(precision=20, scale=4), nullable=False),
    sa.Column('frozen', sa.Numeric(precision=20, scale=4), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('balance >= 0', name=op.f('ck_wallet_balance_not_negative')),
    sa.CheckConstraint('frozen >= 0 AND frozen <= balance', name=op.f('ck_wallet_frozen_within_balance')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_wallet_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_wallet')),
    sa.UniqueConstraint('user_id', 'currency', name='uq_wallet_user_currency')
    )
    op.create_table('wallet_ledger',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('wallet_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('currency', sa.String(length=16), nullable=False),
    sa.Column('amount', sa.Numeric(precision=20, scale=4), nullable=False),
    sa.Column('balance_after', sa.Numeric(precision=20, scale=4), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('app_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_wallet_ledger_app_id_application')),
    sa.ForeignKeyConstraint(['wallet_id'], ['wallet.id'], name=op.f('fk_wallet_ledger_wallet_id_wallet')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_wallet_ledger'))
    )
    op.create_index(op.f('ix_wallet_ledger_wallet_id'), 'wallet_ledger', ['wallet_id'], unique=False)
    op.create_table('provider_collect',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('app_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('request_id', sa.String(length=64), nullable=False),
    sa.Column('account_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('activity_code', sa.String(length=64), nullable=False),
    sa.Column('currency', sa.String(length=16), nullable=False),
    sa.Column('amount', sa.Numeric(precision=20, scale=4), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=True),
    sa.Column('user_ledger_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_balance_after', sa.Numeric(precision=20, scale=4), nullable=False),
    sa.Column('provider_balance_after', sa.Numeric(precision=20, scale=4), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['provider_account.id'], name=op.f('fk_provider_collect_account_id_provider_account')),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_provider_collect_app_id_application')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_provider_collect_user_id_app_user')),
    sa.ForeignKeyConstraint(['user_ledger_id'], ['wallet_ledger.id'], name=op.f('fk_provider_collect_user_ledger_id_wallet_ledger')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_provider_collect')),
    sa.UniqueConstraint('app_id', 'request_id', name='uq_provider_collect_app_request')
    )
    op.create_index(op.f('ix_provider_collect_account_id'), 'provider_collect', ['account_id'], unique=False)
    op.create_index(op.f('ix_provider_collect_user_id'), 'provider_collect', ['user_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_provider_collect_user_id'), table_name='provider_collect')
    op.drop_index(op.f('ix_provider_collect_account_id'), table_name='provider_collect')
    op.drop_table('provider_collect')
    op.drop_index(op.f('ix_wallet_ledger_wallet_id'), table_name='wallet_ledger')
    op.drop_table('wallet_ledger')
    op.drop_table('wallet')
    op.drop_index(op.f('ix_user_binding_user_id'), table_name='user_binding')
    op.drop_table('user_binding')
    op.drop_index(op.f('ix_sso_ticket_user_id'), table_name='sso_ticket')
    op.drop_index(op.f('ix_sso_ticket_app_id'), table_name='sso_ticket')
    op.drop_table('sso_ticket')
    op.drop_table('provider_account')
    op.drop_index(op.f('ix_pairing_code_user_id'), table_name='pairing_code')
    op.drop_table('pairing_code')
    op.drop_index(op.f('ix_oauth_auth_code_user_id'), table_name='oauth_auth_code')
    op.drop_index(op.f('ix_oauth_auth_code_app_id'), table_name='oauth_auth_code')
    op.drop_table('oauth_auth_code')
    op.drop_index(op.f('ix_carousel_placement_app_id'), table_name='carousel_placement')
    op.drop_table('carousel_placement')
