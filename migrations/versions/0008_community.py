"""community: posts, answers, moments, follows, reactions, profiles, notifications, messages

Revision ID: 0008_community
Revises: 0007
Create Date: 2026-11-23
"""

from alembic import op
import sqlalchemy as sa


revision = '0008_community'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('community_follow',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('follower_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('followee_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['followee_id'], ['app_user.id'], name=op.f('fk_community_follow_followee_id_app_user')),
    sa.ForeignKeyConstraint(['follower_id'], ['app_user.id'], name=op.f('fk_community_follow_follower_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_community_follow')),
    sa.UniqueConstraint('follower_id', 'followee_id', name='uq_community_follow_pair')
    )
    with op.batch_alter_table('community_follow', schema=None) as batch_op:
        batch_op.create_index('ix_community_follow_followee', ['followee_id', 'create_time'], unique=False)

    op.create_table('community_moment',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('moment_type', sa.String(length=16), nullable=False),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('like_count', sa.Integer(), nullable=False),
    sa.Column('comment_count', sa.Integer(), nullable=False),
    sa.Column('collect_count', sa.Integer(), nullable=False),
    sa.Column('view_count', sa.Integer(), nullable=False),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_community_moment_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_community_moment'))
    )
    with op.batch_alter_table('community_moment', schema=None) as batch_op:
        batch_op.create_index('ix_community_moment_listing', ['is_delete', 'create_time'], unique=False)
        batch_op.create_index('ix_community_moment_user', ['user_id', 'create_time'], unique=False)

    op.create_table('community_notification',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('message_type', sa.String(length=16), nullable=False),
    sa.Column('title', sa.String(length=255), nullable=True),
    sa.Column('content', sa.Text(), nullable=True),
    sa.Column('sender_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('entity_type', sa.String(length=32), nullable=True),
    sa.Column('entity_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('read_flag', sa.Boolean(), nullable=False),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_community_notification_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_community_notification'))
    )
    with op.batch_alter_table('community_notification', schema=None) as batch_op:
        batch_op.create_index('ix_community_notification_listing', ['user_id', 'create_time'], unique=False)
        batch_op.create_index('ix_community_notification_unread', ['user_id', 'read_flag'], unique=False)

    op.create_table('community_post',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('post_type', sa.String(length=32), nullable=False),
    sa.Column('section_code', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('title', sa.String(length=255), nullable=False),
    sa.Column('summary', sa.Text(), nullable=True),
    sa.Column('content_html', sa.Text(), nullable=True),
    sa.Column('content_md', sa.Text(), nullable=True),
    sa.Column('question_status', sa.String(length=16), nullable=True),
    sa.Column('accepted_answer_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('vote_score', sa.Integer(), nullable=False),
    sa.Column('difficulty', sa.Integer(), nullable=True),
    sa.Column('tags', sa.JSON(), nullable=False),
    sa.Column('reward_amount', sa.Numeric(precision=20, scale=4), nullable=True),
    sa.Column('reward_currency', sa.String(length=16), nullable=True),
    sa.Column('views_count', sa.Integer(), nullable=False),
    sa.Column('like_count', sa.Integer(), nullable=False),
    sa.Column('comment_count', sa.Integer(), nullable=False),
    sa.Column('collection_count', sa.Integer(), nullable=False),
    sa.Column('answer_count', sa.Integer(), nullable=False),
    sa.Column('publish_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('update_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.Column('delete_time', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_community_post_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_community_post'))
    )
    with op.batch_alter_table('community_post', schema=None) as batch_op:
        batch_op.create_index('ix_community_post_author', ['user_id', 'post_type', 'publish_time'], unique=False)
        batch_op.create_index('ix_community_post_listing', ['post_type', 'is_delete', 'publish_time'], unique=False)

    op.create_table('community_private_message',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('sender_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('recipient_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('has_sensitive_words', sa.Boolean(), nullable=False),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['recipient_id'], ['app_user.id'], name=op.f('fk_community_private_message_recipient_id_app_user')),
    sa.ForeignKeyConstraint(['sender_id'], ['app_user.id'], name=op.f('fk_community_private_message_sender_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_community_private_message'))
    )
    with op.batch_alter_table('community_private_message', schema=None) as batch_op:
        batch_op.create_index('ix_community_private_message_pair', ['recipient_id', 'sender_id', 'create_time'], unique=False)

    op.create_table('community_profile',
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('cover_image', sa.String(length=512), nullable=True),
    sa.Column('equipped_title_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('avatar_frame_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('following_count', sa.Integer(), nullable=False),
    sa.Column('follower_count', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_community_profile_user_id_app_user')),
    sa.PrimaryKeyConstraint('user_id', name=op.f('pk_community_profile'))
    )
    op.create_table('community_reaction',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('entity_type', sa.String(length=32), nullable=False),
    sa.Column('entity_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_community_reaction_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_community_reaction')),
    sa.UniqueConstraint('kind', 'entity_type', 'entity_id', 'user_id', name='uq_community_reaction_once')
    )
    op.create_table('community_user_block',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('blocker_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('blocked_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['blocked_id'], ['app_user.id'], name=op.f('fk_community_user_block_blocked_id_app_user')),
    sa.ForeignKeyConstraint(['blocker_id'], ['app_user.id'], name=op.f('fk_community_user_block_blocker_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_community_user_block')),
    sa.UniqueConstraint('blocker_id', 'blocked_id', name='uq_community_user_block_pair')
    )
    op.create_table('community_answer',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('question_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('parent_answer_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('content_html', sa.Text(), nullable=True),
    sa.Column('content_md', sa.Text(), nullable=True),
    sa.Column('upvote_count', sa.Integer(), nullable=False),
    sa.Column('downvote_count', sa.Integer(), nullable=False),
    sa.Column('comment_count', sa.Integer(), nullable=False),
    sa.Column('create_time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('is_delete', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['question_id'], ['community_post.id'], name=op.f('fk_community_answer_question_id_community_post')),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_community_answer_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_community_answer'))
    )
    with op.batch_alter_table('community_answer', schema=None) as batch_op:
        batch_op.create_index('ix_community_answer_question', ['question_id', 'is_delete'], unique=False)


    if op.get_bind().dialect.name == "postgresql":  # unmodelled: models/search_schema.py
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        op.execute("CREATE INDEX ix_community_post_search_trgm ON community_post USING gin "
                   "((lower(title || ' ' || coalesce(content_md, ''))) gin_trgm_ops)")
        op.execute("CREATE INDEX ix_community_post_suggest ON community_post "
                   "(lower(title) text_pattern_ops)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX ix_community_post_suggest")
        op.execute("DROP INDEX ix_community_post_search_trgm")
    with op.batch_alter_table('community_answer', schema=None) as batch_op:
        batch_op.drop_index('ix_community_answer_question')

    op.drop_table('community_answer')
    op.drop_table('community_user_block')
    op.drop_table('community_reaction')
    op.drop_table('community_profile')
    with op.batch_alter_table('community_private_message', schema=None) as batch_op:
        batch_op.drop_index('ix_community_private_message_pair')

    op.drop_table('community_private_message')
    with op.batch_alter_table('community_post', schema=None) as batch_op:
        batch_op.drop_index('ix_community_post_listing')
        batch_op.drop_index('ix_community_post_author')

    op.drop_table('community_post')
    with op.batch_alter_table('community_notification', schema=None) as batch_op:
        batch_op.drop_index('ix_community_notification_unread')
        batch_op.drop_index('ix_community_notification_listing')

    op.drop_table('community_notification')
    with op.batch_alter_table('community_moment', schema=None) as batch_op:
        batch_op.drop_index('ix_community_moment_user')
        batch_op.drop_index('ix_community_moment_listing')

    op.drop_table('community_moment')
    with op.batch_alter_table('community_follow', schema=None) as batch_op:
        batch_op.drop_index('ix_community_follow_followee')

    op.drop_table('community_follow')
