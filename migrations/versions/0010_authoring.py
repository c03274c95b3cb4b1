"""authoring: resource drafts with their review state, review decisions, draft files

Revision ID: 0010_authoring
Revises: 0009
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = '0010_authoring'
down_revision = '0009'
branch_labels = None
depends_on = None

BIG = sa.BigInteger().with_variant(sa.Integer(), 'sqlite')
TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table('resource_draft',
    sa.Column('id', BIG, nullable=False),
    sa.Column('user_id', BIG, nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('parent_post_id', BIG, nullable=True),
    sa.Column('base_version', sa.Integer(), nullable=True),
    sa.Column('content', sa.JSON(), nullable=False),
    sa.Column('reject_reason', sa.Text(), nullable=True),
    sa.Column('submitted_at', TIME, nullable=True),
    sa.Column('reviewed_at', TIME, nullable=True),
    sa.Column('reviewer_id', BIG, nullable=True),
    sa.Column('create_time', TIME, nullable=False),
    sa.Column('update_time', TIME, nullable=False),
    sa.ForeignKeyConstraint(['id'], ['resource_post.id'], name=op.f('fk_resource_draft_id_resource_post')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_resource_draft_user_id_app_user')),
    sa.ForeignKeyConstraint(['parent_post_id'], ['resource_post.id'],
                            name=op.f('fk_resource_draft_parent_post_id_resource_post')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_resource_draft'))
    )
    op.create_index(op.f('ix_resource_draft_user_id'), 'resource_draft', ['user_id'])
    op.create_index(op.f('ix_resource_draft_parent_post_id'), 'resource_draft', ['parent_post_id'])
    op.create_index('ix_resource_draft_queue', 'resource_draft', ['state', 'submitted_at'])
    op.create_table('review_decision',
    sa.Column('id', BIG, autoincrement=True, nullable=False),
    sa.Column('draft_id', BIG, nullable=False),
    sa.Column('reviewer_id', BIG, nullable=True),
    sa.Column('action', sa.String(length=32), nullable=False),
    sa.Column('reason', sa.Text(), nullable=True),
    sa.Column('created_at', TIME, nullable=False),
    sa.ForeignKeyConstraint(['draft_id'], ['resource_draft.id'],
                            name=op.f('fk_review_decision_draft_id_resource_draft')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_review_decision'))
    )
    op.create_index(op.f('ix_review_decision_draft_id'), 'review_decision', ['draft_id'])
    op.create_table('draft_file',
    sa.Column('id', BIG, autoincrement=True, nullable=False),
    sa.Column('user_id', BIG, nullable=False),
    sa.Column('object_key', sa.String(length=64), nullable=False),
    sa.Column('file_name', sa.String(length=255), nullable=False),
    sa.Column('content_type', sa.String(length=128), nullable=True),
    sa.Column('size', BIG, nullable=False),
    sa.Column('sha1', sa.String(length=40), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('sha512', sa.String(length=128), nullable=False),
    sa.Column('create_time', TIME, nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_draft_file_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_draft_file'))
    )
    op.create_index(op.f('ix_draft_file_user_id'), 'draft_file', ['user_id'])


def downgrade() -> None:
    op.drop_index(op.f('ix_draft_file_user_id'), table_name='draft_file')
    op.drop_table('draft_file')
    op.drop_index(op.f('ix_review_decision_draft_id'), table_name='review_decision')
    op.drop_table('review_decision')
    op.drop_index('ix_resource_draft_queue', table_name='resource_draft')
    op.drop_index(op.f('ix_resource_draft_parent_post_id'), table_name='resource_draft')
    op.drop_index(op.f('ix_resource_draft_user_id'), table_name='resource_draft')
    op.drop_table('resource_draft')
