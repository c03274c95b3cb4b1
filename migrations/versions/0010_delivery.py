"""delivery: entitlements, consumer reports, startup command reports, install signing keys,
file hash indexes

Revision ID: 0010_delivery
Revises: 0009
Create Date: 2026-11-23
"""

from alembic import op
import sqlalchemy as sa


revision = '0010_delivery'
down_revision = '0009'
branch_labels = None
depends_on = None

BIG = sa.BigInteger().with_variant(sa.Integer(), 'sqlite')
UTC = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        'entitlement',
        sa.Column('id', BIG, autoincrement=True, nullable=False),
        sa.Column('user_id', BIG, nullable=False),
        sa.Column('post_id', BIG, nullable=False),
        sa.Column('source', sa.String(length=32), nullable=False),
        sa.Column('granted_at', UTC, nullable=False),
        sa.ForeignKeyConstraint(['post_id'], ['resource_post.id'], name=op.f('fk_entitlement_post_id_resource_post')),
        sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_entitlement_user_id_app_user')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_entitlement')),
        sa.UniqueConstraint('user_id', 'post_id', name='uq_entitlement_user_post'))
    op.create_index(op.f('ix_entitlement_post_id'), 'entitlement', ['post_id'], unique=False)
    op.create_table(
        'delivery_feedback',
        sa.Column('id', BIG, autoincrement=True, nullable=False),
        sa.Column('app_id', BIG, nullable=False),
        sa.Column('post_id', BIG, nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('fingerprint', sa.String(length=128), nullable=False),
        sa.Column('file_id', BIG, nullable=True),
        sa.Column('error_type', sa.String(length=32), nullable=True),
        sa.Column('http_status', sa.Integer(), nullable=True),
        sa.Column('download_url', sa.String(length=2048), nullable=True),
        sa.Column('message', sa.Text(), nullable=True),
        sa.Column('count', sa.Integer(), nullable=False),
        sa.Column('useful_count', sa.Integer(), nullable=True),
        sa.Column('not_useful_count', sa.Integer(), nullable=True),
        sa.Column('threshold', sa.Integer(), nullable=True),
        sa.Column('client_version', sa.String(length=64), nullable=True),
        sa.Column('status', sa.String(length=32), nullable=False),
        sa.Column('resolved_at', UTC, nullable=True),
        sa.Column('resolution', sa.String(length=1000), nullable=True),
        sa.Column('create_time', UTC, nullable=False),
        sa.Column('update_time', UTC, nullable=False),
        sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_delivery_feedback_app_id_application')),
        sa.ForeignKeyConstraint(['post_id'], ['resource_post.id'], name=op.f('fk_delivery_feedback_post_id_resource_post')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_delivery_feedback')),
        sa.UniqueConstraint('app_id', 'post_id', 'kind', 'fingerprint', name='uq_delivery_feedback_fp'))
    op.create_index('ix_delivery_feedback_resolved', 'delivery_feedback', ['app_id', 'resolved_at'], unique=False)
    op.create_index(op.f('ix_delivery_feedback_post_id'), 'delivery_feedback', ['post_id'], unique=False)
    op.create_table(
        'delivery_failure_reporter',
        sa.Column('id', BIG, autoincrement=True, nullable=False),
        sa.Column('post_id', BIG, nullable=False),
        sa.Column('reporter', sa.String(length=128), nullable=False),
        sa.Column('create_time', UTC, nullable=False),
        sa.ForeignKeyConstraint(['post_id'], ['resource_post.id'], name=op.f('fk_delivery_failure_reporter_post_id_resource_post')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_delivery_failure_reporter')),
        sa.UniqueConstraint('post_id', 'reporter', name='uq_delivery_failure_reporter'))
    op.create_table(
        'startup_command_report',
        sa.Column('id', BIG, autoincrement=True, nullable=False),
        sa.Column('app_id', BIG, nullable=False),
        sa.Column('post_id', BIG, nullable=False),
        sa.Column('user_id', BIG, nullable=True),
        sa.Column('command', sa.Text(), nullable=False),
        sa.Column('origin', sa.String(length=32), nullable=False),
        sa.Column('memory_mb', sa.Integer(), nullable=True),
        sa.Column('java_version', sa.String(length=32), nullable=True),
        sa.Column('game_version', sa.String(length=64), nullable=True),
        sa.Column('success', sa.Boolean(), nullable=True),
        sa.Column('client_version', sa.String(length=64), nullable=True),
        sa.Column('create_time', UTC, nullable=False),
        sa.ForeignKeyConstraint(['app_id'], ['application.id'], name=op.f('fk_startup_command_report_app_id_application')),
        sa.ForeignKeyConstraint(['post_id'], ['resource_post.id'], name=op.f('fk_startup_command_report_post_id_resource_post')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_startup_command_report')))
    op.create_index(op.f('ix_startup_command_report_post_id'), 'startup_command_report', ['post_id'], unique=False)
    op.create_table(
        'install_signing_key',
        sa.Column('id', BIG, autoincrement=True, nullable=False),
        sa.Column('kid', sa.String(length=32), nullable=False),
        sa.Column('status', sa.String(length=32), nullable=False),
        sa.Column('public_pem', sa.Text(), nullable=False),
        sa.Column('private_sealed', sa.Text(), nullable=True),
        sa.Column('created_at', UTC, nullable=False),
        sa.Column('retired_at', UTC, nullable=True),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_install_signing_key')),
        sa.UniqueConstraint('kid', name=op.f('uq_install_signing_key_kid')))
    for column in ('sha1', 'sha256', 'sha512'):
        op.create_index(f'ix_resource_file_{column}', 'resource_file', [column], unique=False)


def downgrade() -> None:
    for column in ('sha512', 'sha256', 'sha1'):
        op.drop_index(f'ix_resource_file_{column}', table_name='resource_file')
    op.drop_table('install_signing_key')
    op.drop_index(op.f('ix_startup_command_report_post_id'), table_name='startup_command_report')
    op.drop_table('startup_command_report')
    op.drop_table('delivery_failure_reporter')
    op.drop_index(op.f('ix_delivery_feedback_post_id'), table_name='delivery_feedback')
    op.drop_index('ix_delivery_feedback_resolved', table_name='delivery_feedback')
    op.drop_table('delivery_feedback')
    op.drop_index(op.f('ix_entitlement_post_id'), table_name='entitlement')
    op.drop_table('entitlement')
