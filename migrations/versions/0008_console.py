"""console: site roles, console facts of applications, admin audit

Revision ID: 0008_console
Revises: 0007
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = '0008_console'
down_revision = '0007'
branch_labels = None
depends_on = None

BIG = sa.BigInteger().with_variant(sa.Integer(), 'sqlite')


def upgrade() -> None:
    op.create_table('site_role',
    sa.Column('user_id', BIG, nullable=False),
    sa.Column('role', sa.String(length=32), nullable=False),
    sa.Column('granted_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_site_role_user_id_app_user')),
    sa.PrimaryKeyConstraint('user_id', name=op.f('pk_site_role'))
    )
    op.create_table('console_app',
    sa.Column('app_id', BIG, nullable=False),
    sa.Column('owner_user_id', BIG, nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('wanted_permissions', sa.JSON(), nullable=False),
    sa.Column('refusal_reason', sa.Text(), nullable=True),
    sa.Column('secret_shown', sa.Boolean(), nullable=False),
    sa.Column('old_secret_ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_console_app_app_id_application')),
    sa.ForeignKeyConstraint(['owner_user_id'], ['app_user.id'],
                            name=op.f('fk_console_app_owner_user_id_app_user')),
    sa.PrimaryKeyConstraint('app_id', name=op.f('pk_console_app'))
    )
    op.create_index(op.f('ix_console_app_owner_user_id'), 'console_app', ['owner_user_id'])
    op.create_table('admin_audit',
    sa.Column('id', BIG, autoincrement=True, nullable=False),
    sa.Column('actor_user_id', BIG, nullable=False),
    sa.Column('action', sa.String(length=64), nullable=False),
    sa.Column('app_id', BIG, nullable=True),
    sa.Column('detail', sa.String(length=500), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['actor_user_id'], ['app_user.id'],
                            name=op.f('fk_admin_audit_actor_user_id_app_user')),
    sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_admin_audit_app_id_application')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_admin_audit'))
    )
    op.create_index(op.f('ix_admin_audit_created_at'), 'admin_audit', ['created_at'])


def downgrade() -> None:
    op.drop_index(op.f('ix_admin_audit_created_at'), table_name='admin_audit')
    op.drop_table('admin_audit')
    op.drop_index(op.f('ix_console_app_owner_user_id'), table_name='console_app')
    op.drop_table('console_app')
    op.drop_table('site_role')
