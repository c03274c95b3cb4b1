"""VO builders of the community records (authors are loaded by the caller, one query a page)."""

from __future__ import annotations

import datetime as dt

from models.community.tables import Answer, Comment, CommunityPost, CommunityProfile, Moment
from models.community.vos import (
    AnswerVO,
    CommentVO,
    FollowUserVO,
    MomentVO,
    PostDetailVO,
    PostSummaryVO,
    ProfileVO,
    QuestionVO,
)
from models.identity.tables import User
from modhub.core.display import Display, display_url, format_time
from modhub.core.sanitize import clean_html


def user_name(user: User | None) -> str | None:
    """The name shown for a user (login name, else username)."""
    return (user.login_name or user.username) if user else None


def _avatar(user: User | None, display: Display) -> str | None:
    return display_url(user.avatar, display.cdn_base_url) if user else None


def post_summary(post: CommunityPost, author: User | None, *, display: Display) -> PostSummaryVO:
    """CommunityPostSummaryVO of a discussion post."""
    zone = display.time_zone
    return {
        "postId": post.id,
        "title": post.title,
        "sectionCode": post.section_code,
        "authorId": post.user_id,
        "authorName": user_name(author),
        "authorAvatarUrl": _avatar(author, display),
        "summary": post.summary,
        "viewsCount": post.views_count,
        "likeCount": post.like_count,
        "commentCount": post.comment_count,
        "collectionCount": post.collection_count,
        "publishTime": format_time(post.publish_time, zone),
        "updateTime": format_time(post.update_time, zone),
    }


def post_detail(post: CommunityPost, author: User | None, *, display: Display) -> PostDetailVO:
    """CommunityPostDetailVO: the summary plus XSS-filtered HTML and the Markdown source."""
    return {
        **post_summary(post, author, display=display),
        "content": clean_html(post.content_html),
        "mdContent": post.content_md,
    }


def question(
    post: CommunityPost, author: User | None, *, display: Display, detail: bool = False
) -> QuestionVO:
    """CommunityQuestionVO; content and mdContent only in the detail (null in lists)."""
    zone = display.time_zone
    return {
        "postId": post.id,
        "title": post.title,
        "sectionCode": post.section_code,
        "authorId": post.user_id,
        "authorName": user_name(author),
        "authorAvatarUrl": _avatar(author, display),
        "questionStatus": post.question_status,
        "isResolved": post.question_status == "RESOLVED",
        "acceptedAnswerId": post.accepted_answer_id,
        "voteScore": post.vote_score,
        "difficulty": post.difficulty,
        "tags": list(post.tags or []),
        "rewardAmount": float(post.reward_amount) if post.reward_amount is not None else None,
        "rewardCurrency": post.reward_currency if post.reward_amount is not None else None,
        "viewsCount": post.views_count,
        "commentCount": post.answer_count,
        "content": clean_html(post.content_html) if detail else None,
        "mdContent": post.content_md if detail else None,
        "publishTime": format_time(post.publish_time, zone),
        "updateTime": format_time(post.update_time, zone),
    }


def answer(row: Answer, author: User | None, *, accepted_id: int | None, display: Display) -> AnswerVO:
    """CommunityAnswerVO; isAccepted compares with the question's acceptedAnswerId."""
    return {
        "answerId": row.id,
        "questionId": row.question_id,
        "parentAnswerId": row.parent_answer_id,
        "authorId": row.user_id,
        "authorName": user_name(author),
        "authorAvatarUrl": _avatar(author, display),
        "content": clean_html(row.content_html),
        "mdContent": row.content_md,
        "isAccepted": row.id == accepted_id,
        "upvoteCount": row.upvote_count,
        "downvoteCount": row.downvote_count,
        "voteScore": row.upvote_count - row.downvote_count,
        "commentCount": row.comment_count,
        "createTime": format_time(row.create_time, display.time_zone),
    }


def moment(row: Moment, author: User | None, *, display: Display) -> MomentVO:
    """CommunityMomentVO of a moment."""
    return {
        "momentId": row.id,
        "userId": row.user_id,
        "userName": user_name(author),
        "avatarUrl": _avatar(author, display),
        "momentType": row.moment_type,
        "content": clean_html(row.content),
        "likeCount": row.like_count,
        "commentCount": row.comment_count,
        "collectCount": row.collect_count,
        "viewCount": row.view_count,
        "createTime": format_time(row.create_time, display.time_zone),
    }


def follow_user(user: User, follow_time: dt.datetime, *, display: Display) -> FollowUserVO:
    """CommunityFollowUserVO of a user and when the follow began."""
    return {
        "userId": user.id,
        "nickname": user_name(user),
        "avatarUrl": _avatar(user, display),
        "bio": user.bio,
        "followTime": format_time(follow_time, display.time_zone),
    }


def profile(user: User, extra: CommunityProfile | None, *, display: Display) -> ProfileVO:
    """CommunityUserProfileVO: the identity user plus its community profile row."""
    return {
        "userId": user.id,
        "nickname": user_name(user),
        "avatarUrl": _avatar(user, display),
        "coverImageUrl": display_url(extra.cover_image, display.cdn_base_url) if extra else None,
        "bio": user.bio,
        "location": user.location,
        "gender": user.gender,
        "equippedTitleId": extra.equipped_title_id if extra else None,
        "avatarFrameId": extra.avatar_frame_id if extra else None,
        "followingCount": extra.following_count if extra else 0,
        "followerCount": extra.follower_count if extra else 0,
    }


def comment_vo(comment: Comment, user: User | None, *, display: Display) -> CommentVO:
    """CommentVO of a comment and its author."""
    return {
        "commentId": comment.id,
        "userId": comment.user_id,
        "userName": (user.login_name or user.username) if user else None,
        "avatarUrl": display.url(user.avatar) if user else None,
        "content": clean_html(comment.content),
        "parentId": comment.parent_id,
        "replyCount": comment.reply_count,
        "likeCount": comment.like_count,
        "createTime": display.time(comment.create_time),
    }
