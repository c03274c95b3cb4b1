"""The shapes of the community's records (TypedDicts; keys and value types as the builders in
records.py, notifications.py, messages.py and search.py write them, named after the contract's VO
schemas). No behaviour: a dict with these keys is what the handlers answer.
"""

from __future__ import annotations

from typing import TypedDict


class PostSummaryVO(TypedDict):
    """CommunityPostSummaryVO."""

    postId: int
    title: str
    sectionCode: str
    authorId: int
    authorName: str | None
    authorAvatarUrl: str | None
    summary: str | None
    viewsCount: int
    likeCount: int
    commentCount: int
    collectionCount: int
    publishTime: str
    updateTime: str


class PostDetailVO(PostSummaryVO):
    """CommunityPostDetailVO: the summary plus the filtered HTML and the Markdown source."""

    content: str | None
    mdContent: str | None


class QuestionVO(TypedDict):
    """CommunityQuestionVO (content and mdContent null in lists)."""

    postId: int
    title: str
    sectionCode: str
    authorId: int
    authorName: str | None
    authorAvatarUrl: str | None
    questionStatus: str | None
    isResolved: bool
    acceptedAnswerId: int | None
    voteScore: int
    difficulty: int | None
    tags: list[str]
    rewardAmount: float | None
    rewardCurrency: str | None
    viewsCount: int
    commentCount: int
    content: str | None
    mdContent: str | None
    publishTime: str
    updateTime: str


class AnswerVO(TypedDict):
    """CommunityAnswerVO."""

    answerId: int
    questionId: int
    parentAnswerId: int | None
    authorId: int
    authorName: str | None
    authorAvatarUrl: str | None
    content: str | None
    mdContent: str | None
    isAccepted: bool
    upvoteCount: int
    downvoteCount: int
    voteScore: int
    commentCount: int
    createTime: str


class MomentVO(TypedDict):
    """CommunityMomentVO."""

    momentId: int
    userId: int
    userName: str | None
    avatarUrl: str | None
    momentType: str
    content: str | None
    likeCount: int
    commentCount: int
    collectCount: int
    viewCount: int
    createTime: str


class FollowUserVO(TypedDict):
    """CommunityFollowUserVO."""

    userId: int
    nickname: str | None
    avatarUrl: str | None
    bio: str | None
    followTime: str


class ProfileVO(TypedDict):
    """CommunityUserProfileVO."""

    userId: int
    nickname: str | None
    avatarUrl: str | None
    coverImageUrl: str | None
    bio: str | None
    location: str | None
    gender: str | None
    equippedTitleId: int | None
    avatarFrameId: int | None
    followingCount: int
    followerCount: int


class CommentVO(TypedDict):
    """CommentVO."""

    commentId: int
    userId: int
    userName: str | None
    avatarUrl: str | None
    content: str | None
    parentId: int | None
    replyCount: int
    likeCount: int
    createTime: str | None


class MessageVO(TypedDict):
    """MessageVO: a notification."""

    messageId: int
    messageType: str
    title: str | None
    content: str | None
    senderId: int | None
    senderName: str | None
    senderAvatarUrl: str | None
    entityType: str | None
    entityId: int | None
    readFlag: bool
    createTime: str


class PrivateMessageResultVO(TypedDict):
    """OpenApiPrivateMessageResultVO."""

    messageId: int
    hasSensitiveWords: bool


class SearchResultVO(TypedDict):
    """FullTextSearchResultVo (a resource post's author and time may be null)."""

    entityType: str
    entityId: int
    questionId: int | None
    title: str | None
    snippet: str | None
    sectionCode: str | None
    authorId: int | None
    authorName: str | None
    coverImageUrl: str | None
    score: float
    publishTime: str | None
