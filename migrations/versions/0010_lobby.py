"""lobby: posts, resources, blobs

Revision ID: 0010_lobby
Revises: 0009
Create Date: 2026-11-23
"""

from alembic import op
import sqlalchemy as sa


revision = '0010_lobby'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('lobby_blob',
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('state', sa.String(length=32), nullable=False),
    sa.Column('size_bytes', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('sha1', sa.String(length=40), nullable=True),
    sa.Column('sha512', sa.String(length=128), nullable=True),
    sa.Column('claim_resource_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('claim_expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('touched_time', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('sha256', name=op.f('pk_lobby_blob'))
    )
    op.create_table('lobby_post',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('post_title', sa.String(length=255), nullable=False),
    sa.Column('server_password', sa.String(length=255), nullable=True),
    sa.Column('server_versions', sa.JSON(), nullable=False),
    sa.Column('main_play_type', sa.String(length=64), nullable=True),
    sa.Column('server_type', sa.String(length=64), nullable=True),
    sa.Column('run_platform', sa.String(length=64), nullable=True),
    sa.Column('online_type', sa.String(length=64), nullable=True),
    sa.Column('cover_image_url', sa.String(length=1024), nullable=True),
    sa.Column('md_content', sa.Text(), nullable=True),
    sa.Column('is_req_down_client', sa.Boolean(), nullable=False),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('update_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['id'], ['server_post.id'], name=op.f('fk_lobby_post_id_server_post')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_lobby_post_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_lobby_post'))
    )
    with op.batch_alter_table('lobby_post', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_lobby_post_user_id'), ['user_id'], unique=False)

    op.create_table('lobby_resource',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('source', sa.String(length=32), nullable=False),
    sa.Column('state', sa.String(length=32), nullable=False),
    sa.Column('listed', sa.Boolean(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=True),
    sa.Column('size_bytes', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('object_key', sa.String(length=512), nullable=True),
    sa.Column('name', sa.String(length=255), nullable=True),
    sa.Column('version', sa.String(length=128), nullable=True),
    sa.Column('resource_type', sa.String(length=32), nullable=True),
    sa.Column('environment_side', sa.String(length=32), nullable=False),
    sa.Column('client_install_path', sa.String(length=512), nullable=True),
    sa.Column('extra_json', sa.Text(), nullable=True),
    sa.Column('community_post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('community_file_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('download_url', sa.Text(), nullable=True),
    sa.Column('download_url_expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('token_hash', sa.String(length=64), nullable=True),
    sa.Column('claim_expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('update_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['post_id'], ['server_post.id'], name=op.f('fk_lobby_resource_post_id_server_post')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_lobby_resource_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_lobby_resource')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_lobby_resource_token_hash'))
    )
    with op.batch_alter_table('lobby_resource', schema=None) as batch_op:
        batch_op.create_index('ix_lobby_resource_post_listed', ['post_id', 'listed'], unique=False)
        batch_op.create_index('ix_lobby_resource_sha256_state', ['sha256', 'state'], unique=False)
        batch_op.create_index('ix_lobby_resource_user_sha256', ['user_id', 'sha256'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('lobby_resource', schema=None) as batch_op:
        batch_op.drop_index('ix_lobby_resource_user_sha256')
        batch_op.drop_index('ix_lobby_resource_sha256_state')
        batch_op.drop_index('ix_lobby_resource_post_listed')

    op.drop_table('lobby_resource')
    with op.batch_alter_table('lobby_post', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_lobby_post_user_id'))

    op.drop_table('lobby_post')
    op.drop_table('lobby_blob')
