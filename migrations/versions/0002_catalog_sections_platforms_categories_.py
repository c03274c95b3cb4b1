"""catalog: sections, platforms, categories, resources, servers

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('category',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('code', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=128), nullable=False),
    sa.Column('description', sa.Text(), nullable=True),
    sa.Column('icon', sa.String(length=512), nullable=True),
    sa.Column('parent_code', sa.String(length=64), nullable=True),
    sa.Column('section_code', sa.String(length=64), nullable=True),
    sa.Column('sort_order', sa.Integer(), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_category')),
    sa.UniqueConstraint('code', name=op.f('uq_category_code'))
    )
    op.create_index(op.f('ix_category_parent_code'), 'category', ['parent_code'], unique=False)
    op.create_index(op.f('ix_category_section_code'), 'category', ['section_code'], unique=False)
    op.create_table('run_platform',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('code', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=128), nullable=False),
    sa.Column('description', sa.Text(), nullable=True),
    sa.Column('icon', sa.String(length=512), nullable=True),
    sa.Column('sort_order', sa.Integer(), nullable=False),
    sa.Column('enable', sa.Boolean(), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_run_platform')),
    sa.UniqueConstraint('code', name=op.f('uq_run_platform_code'))
    )
    op.create_table('section',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('code', sa.String(length=64), nullable=False),
    sa.Column('description', sa.String(length=128), nullable=False),
    sa.Column('english_name', sa.String(length=128), nullable=True),
    sa.Column('parent_code', sa.String(length=64), nullable=True),
    sa.Column('icon', sa.String(length=512), nullable=True),
    sa.Column('sort_order', sa.Integer(), nullable=False),
    sa.Column('enable', sa.Boolean(), nullable=False),
    sa.Column('server_post_enabled', sa.Boolean(), nullable=False),
    sa.Column('resource_post_enabled', sa.Boolean(), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_section')),
    sa.UniqueConstraint('code', name=op.f('uq_section_code'))
    )
    op.create_table('tag',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('section_code', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tag')),
    sa.UniqueConstraint('section_code', 'name', name='uq_tag_section_name')
    )
    op.create_table('comment',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('entity_type', sa.String(length=32), nullable=False),
    sa.Column('entity_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('parent_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('reply_count', sa.Integer(), nullable=False),
    sa.Column('like_count', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_comment_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_comment'))
    )
    op.create_index('ix_comment_entity', 'comment', ['entity_type', 'entity_id', 'create_time'], unique=False)
    op.create_table('resource_post',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('section_code', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('main_name', sa.String(length=255), nullable=False),
    sa.Column('sub_name', sa.String(length=255), nullable=True),
    sa.Column('introduction', sa.String(length=500), nullable=True),
    sa.Column('abbr_name', sa.String(length=128), nullable=True),
    sa.Column('cover_image', sa.String(length=512), nullable=True),
    sa.Column('resource_type', sa.String(length=64), nullable=True),
    sa.Column('main_categories', sa.JSON(), nullable=False),
    sa.Column('preset_category', sa.String(length=32), nullable=True),
    sa.Column('run_platform', sa.String(length=64), nullable=True),
    sa.Column('client_environment', sa.String(length=16), nullable=False),
    sa.Column('server_environment', sa.String(length=16), nullable=False),
    sa.Column('client_install_path', sa.String(length=255), nullable=True),
    sa.Column('server_install_path', sa.String(length=255), nullable=True),
    sa.Column('server_installable', sa.Boolean(), nullable=True),
    sa.Column('resource_version', sa.String(length=64), nullable=True),
    sa.Column('resource_state', sa.String(length=16), nullable=False),
    sa.Column('is_paid', sa.Boolean(), nullable=False),
    sa.Column('price_amount', sa.Numeric(precision=20, scale=4), nullable=True),
    sa.Column('price_currency_code', sa.String(length=3), nullable=True),
    sa.Column('content_copyright', sa.Text(), nullable=True),
    sa.Column('resource_copyright', sa.Text(), nullable=True),
    sa.Column('creation_type', sa.String(length=32), nullable=True),
    sa.Column('source_state', sa.String(length=16), nullable=True),
    sa.Column('ref_link', sa.Text(), nullable=True),
    sa.Column('visibility', sa.String(length=16), nullable=False),
    sa.Column('download_permission', sa.String(length=16), nullable=False),
    sa.Column('comment_permission', sa.String(length=16), nullable=False),
    sa.Column('post_version', sa.Integer(), nullable=False),
    sa.Column('parent_post_id', sa.Integer(), nullable=True),
    sa.Column('display_images', sa.JSON(), nullable=False),
    sa.Column('enable_version_grouping', sa.Boolean(), nullable=True),
    sa.Column('description_html', sa.Text(), nullable=True),
    sa.Column('description_md', sa.Text(), nullable=True),
    sa.Column('install_script', sa.Text(), nullable=True),
    sa.Column('tags', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('views_count', sa.Integer(), nullable=False),
    sa.Column('download_count', sa.Integer(), nullable=False),
    sa.Column('like_count', sa.Integer(), nullable=False),
    sa.Column('collection_count', sa.Integer(), nullable=False),
    sa.Column('comment_count', sa.Integer(), nullable=False),
    sa.Column('rating_count', sa.Integer(), nullable=False),
    sa.Column('rating_total', sa.Integer(), nullable=False),
    sa.Column('publish_time', sa.DateTime(timezone=True), nullable=True),
    sa.Column('update_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.Column('delete_time', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_resource_post_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_resource_post'))
    )
    op.create_index('ix_resource_post_listing', 'resource_post', ['section_code', 'status', 'is_delete'], unique=False)
    op.create_index(op.f('ix_resource_post_parent_post_id'), 'resource_post', ['parent_post_id'], unique=False)
    op.create_index('ix_resource_post_sync', 'resource_post', ['update_time', 'id'], unique=False)
    op.create_index(op.f('ix_resource_post_user_id'), 'resource_post', ['user_id'], unique=False)
    op.create_table('server_post',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('section_code', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('main_name', sa.String(length=255), nullable=False),
    sa.Column('server_ip', sa.String(length=255), nullable=True),
    sa.Column('server_port', sa.Integer(), nullable=True),
    sa.Column('query_enabled', sa.Boolean(), nullable=False),
    sa.Column('query_type', sa.String(length=32), nullable=True),
    sa.Column('current_players', sa.Integer(), nullable=False),
    sa.Column('max_players', sa.Integer(), nullable=False),
    sa.Column('server_status', sa.String(length=16), nullable=False),
    sa.Column('server_motd', sa.Text(), nullable=True),
    sa.Column('latency_ms', sa.Integer(), nullable=True),
    sa.Column('last_heartbeat_time', sa.DateTime(timezone=True), nullable=True),
    sa.Column('publish_time', sa.DateTime(timezone=True), nullable=True),
    sa.Column('update_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_server_post_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_server_post'))
    )
    op.create_index(op.f('ix_server_post_user_id'), 'server_post', ['user_id'], unique=False)
    op.create_table('rating',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('score', sa.Integer(), nullable=False),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['post_id'], ['resource_post.id'], name=op.f('fk_rating_post_id_resource_post')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_rating_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rating')),
    sa.UniqueConstraint('post_id', 'user_id', name='uq_rating_post_user')
    )
    op.create_index(op.f('ix_rating_post_id'), 'rating', ['post_id'], unique=False)
    op.create_table('resource_author',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('sort_order', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['post_id'], ['resource_post.id'], name=op.f('fk_resource_author_post_id_resource_post')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_resource_author_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_resource_author')),
    sa.UniqueConstraint('post_id', 'user_id', name='uq_resource_author_post_user')
    )
    op.create_index(op.f('ix_resource_author_post_id'), 'resource_author', ['post_id'], unique=False)
    op.create_table('resource_daily_stat',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('views', sa.Integer(), nullable=False),
    sa.Column('downloads', sa.Integer(), nullable=False),
    sa.Column('collects', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['post_id'], ['resource_post.id'], name=op.f('fk_resource_daily_stat_post_id_resource_post')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_resource_daily_stat')),
    sa.UniqueConstraint('post_id', 'day', name='uq_resource_daily_stat_post_day')
    )
    op.create_index(op.f('ix_resource_daily_stat_post_id'), 'resource_daily_stat', ['post_id'], unique=False)
    op.create_table('resource_file',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('title', sa.String(length=255), nullable=False),
    sa.Column('file_name', sa.String(length=255), nullable=True),
    sa.Column('file_version', sa.String(length=64), nullable=True),
    sa.Column('resource_versions', sa.JSON(), nullable=False),
    sa.Column('run_platform', sa.String(length=64), nullable=True),
    sa.Column('environment_side', sa.String(length=8), nullable=False),
    sa.Column('storage_type', sa.String(length=16), nullable=False),
    sa.Column('object_key', sa.String(length=512), nullable=True),
    sa.Column('external_url', sa.String(length=1024), nullable=True),
    sa.Column('down_info', sa.JSON(), nullable=False),
    sa.Column('file_size', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('sha256', sa.String(length=64), nullable=True),
    sa.Column('file_status', sa.String(length=16), nullable=False),
    sa.Column('download_count', sa.Integer(), nullable=False),
    sa.Column('sort_order', sa.Integer(), nullable=False),
    sa.Column('publish_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('update_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['post_id'], ['resource_post.id'], name=op.f('fk_resource_file_post_id_resource_post')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_resource_file'))
    )
    op.create_index(op.f('ix_resource_file_post_id'), 'resource_file', ['post_id'], unique=False)
    op.create_table('resource_link',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('link_type', sa.String(length=32), nullable=False),
    sa.Column('url', sa.String(length=1024), nullable=False),
    sa.Column('label', sa.String(length=128), nullable=True),
    sa.Column('sort_order', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['post_id'], ['resource_post.id'], name=op.f('fk_resource_link_post_id_resource_post')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_resource_link'))
    )
    op.create_index(op.f('ix_resource_link_post_id'), 'resource_link', ['post_id'], unique=False)
    op.create_table('resource_relation',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('relation_type', sa.String(length=32), nullable=False),
    sa.Column('target_post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('is_required', sa.Boolean(), nullable=False),
    sa.Column('sort_order', sa.Integer(), nullable=False),
    sa.Column('data_source', sa.String(length=16), nullable=False),
    sa.ForeignKeyConstraint(['post_id'], ['resource_post.id'], name=op.f('fk_resource_relation_post_id_resource_post')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_resource_relation'))
    )
    op.create_index(op.f('ix_resource_relation_post_id'), 'resource_relation', ['post_id'], unique=False)
    op.create_table('resource_version',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('version_post_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('version_number', sa.Integer(), nullable=False),
    sa.Column('resource_version', sa.String(length=64), nullable=True),
    sa.Column('update_commit', sa.Text(), nullable=True),
    sa.Column('approved', sa.Boolean(), nullable=False),
    sa.Column('publish_time', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['post_id'], ['resource_post.id'], name=op.f('fk_resource_version_post_id_resource_post')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_resource_version'))
    )
    op.create_index(op.f('ix_resource_version_post_id'), 'resource_version', ['post_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_resource_version_post_id'), table_name='resource_version')
    op.drop_table('resource_version')
    op.drop_index(op.f('ix_resource_relation_post_id'), table_name='resource_relation')
    op.drop_table('resource_relation')
    op.drop_index(op.f('ix_resource_link_post_id'), table_name='resource_link')
    op.drop_table('resource_link')
    op.drop_index(op.f('ix_resource_file_post_id'), table_name='resource_file')
    op.drop_table('resource_file')
    op.drop_index(op.f('ix_resource_daily_stat_post_id'), table_name='resource_daily_stat')
    op.drop_table('resource_daily_stat')
    op.drop_index(op.f('ix_resource_author_post_id'), table_name='resource_author')
    op.drop_table('resource_author')
    op.drop_index(op.f('ix_rating_post_id'), table_name='rating')
    op.drop_table('rating')
    op.drop_index(op.f('ix_server_post_user_id'), table_name='server_post')
    op.drop_table('server_post')
    op.drop_index(op.f('ix_resource_post_user_id'), table_name='resource_post')
    op.drop_index('ix_resource_post_sync', table_name='resource_post')
    op.drop_index(op.f('ix_resource_post_parent_post_id'), table_name='resource_post')
    op.drop_index('ix_resource_post_listing', table_name='resource_post')
    op.drop_table('resource_post')
    op.drop_index('ix_comment_entity', table_name='comment')
    op.drop_table('comment')
    op.drop_table('tag')
    op.drop_table('section')
    op.drop_table('run_platform')
    op.drop_index(op.f('ix_category_section_code'), table_name='category')
    op.drop_index(op.f('ix_category_parent_code'), table_name='category')
    op.drop_table('category')
