"""applications, users and proxy tokens

Revision ID: 0001
Revises: 
Create Date: 2026-11-21
"""

from alembic import op
import sqlalchemy as sa


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('app_user',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('username', sa.String(length=64), nullable=False),
    sa.Column('login_name', sa.String(length=64), nullable=True),
    sa.Column('email', sa.String(length=255), nullable=True),
    sa.Column('phone', sa.String(length=32), nullable=True),
    sa.Column('password_hash', sa.Text(), nullable=True),
    sa.Column('avatar', sa.String(length=512), nullable=True),
    sa.Column('gender', sa.String(length=16), nullable=True),
    sa.Column('bio', sa.Text(), nullable=True),
    sa.Column('location', sa.String(length=128), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_app_user')),
    sa.UniqueConstraint('email', name=op.f('uq_app_user_email')),
    sa.UniqueConstraint('login_name', name=op.f('uq_app_user_login_name')),
    sa.UniqueConstraint('phone', name=op.f('uq_app_user_phone')),
    sa.UniqueConstraint('username', name=op.f('uq_app_user_username'))
    )
    op.create_table('application',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('name', sa.String(length=128), nullable=False),
    sa.Column('api_key', sa.String(length=32), nullable=False),
    sa.Column('secret_encrypted', sa.Text(), nullable=False),
    sa.Column('status', sa.Enum('PENDING', 'APPROVED', 'DISABLED', name='app_status', native_enum=False, length=16), nullable=False),
    sa.Column('permissions', sa.JSON(), nullable=False),
    sa.Column('scopes', sa.JSON(), nullable=False),
    sa.Column('ip_allow', sa.JSON(), nullable=False),
    sa.Column('redirect_uris', sa.JSON(), nullable=False),
    sa.Column('per_minute', sa.Integer(), nullable=True),
    sa.Column('per_day', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_application')),
    sa.UniqueConstraint('api_key', name=op.f('uq_application_api_key'))
    )
    op.create_table('proxy_token',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('app_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('scopes', sa.JSON(), nullable=False),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('issued_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_proxy_token_app_id_application')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_proxy_token_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_proxy_token')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_proxy_token_token_hash'))
    )
    op.create_index(op.f('ix_proxy_token_app_id'), 'proxy_token', ['app_id'], unique=False)
    op.create_index(op.f('ix_proxy_token_user_id'), 'proxy_token', ['user_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_proxy_token_user_id'), table_name='proxy_token')
    op.drop_index(op.f('ix_proxy_token_app_id'), table_name='proxy_token')
    op.drop_table('proxy_token')
    op.drop_table('application')
    op.drop_table('app_user')
