"""Community content, interactions, notifications, search and user pages."""

from models.community import comments, messages, notifications, posts, social
from models.community import search as community_search
from modhub.web import ok, ok_tagged, platform, proxy_user_id, session


def _settings():
    return platform().settings


def toggle_collect(body: dict, **_):
    """Boolean: new collect state (toggleCollect)."""
    return ok(
        social.toggle_reaction(
            session(),
            kind="COLLECT",
            user_id=proxy_user_id(),
            entity_type=body["entityType"],
            entity_id=body["entityId"],
        )
    )


def toggle_like(body: dict, **_):
    """Boolean: new like state (toggleLike)."""
    return ok(
        social.toggle_reaction(
            session(),
            kind="LIKE",
            user_id=proxy_user_id(),
            entity_type=body["entityType"],
            entity_id=body["entityId"],
        )
    )


def toggle_follow(body: dict, **_):
    """Boolean: new follow state (toggleFollow)."""
    return ok(social.toggle_follow(session(), user_id=proxy_user_id(), target_user_id=body["targetUserId"]))


def list_comments(entity_type: str, entity_id: int, page_num: int = 1, page_size: int = 20, **_):
    """PageResultCommentVO of one record (listComments)."""
    return ok_tagged(
        comments.list_comments(
            session(),
            entity_type=entity_type,
            entity_id=entity_id,
            page_num=page_num,
            page_size=page_size,
            display=platform().display,
        )
    )


def query_discuss_posts(
    section_code: str | None = None, keyword: str | None = None, page_num: int = 1, page_size: int = 20, **_
):
    """PageResultCommunityPostSummaryVO of discussion posts (queryDiscussPosts)."""
    return ok_tagged(
        posts.query_discuss(
            session(),
            section_code=section_code,
            keyword=keyword,
            page_num=page_num,
            page_size=page_size,
            display=platform().display,
        )
    )


def get_discuss_post(post_id: int, **_):
    """CommunityPostDetailVO of one discussion post (getDiscussPost)."""
    return ok_tagged(posts.get_discuss(session(), post_id=post_id, display=platform().display))


def query_moments(user_id: int | None = None, page_num: int = 1, page_size: int = 20, **_):
    """PageResultCommunityMomentVO of moments (queryMoments)."""
    return ok_tagged(
        posts.query_moments(
            session(), user_id=user_id, page_num=page_num, page_size=page_size, display=platform().display
        )
    )


def get_moment(moment_id: int, **_):
    """CommunityMomentVO of one moment (getMoment)."""
    return ok_tagged(posts.get_moment(session(), moment_id=moment_id, display=platform().display))


def query_questions(
    section_code: str | None = None,
    keyword: str | None = None,
    is_resolved: bool | None = None,
    page_num: int = 1,
    page_size: int = 20,
    **_,
):
    """PageResultCommunityQuestionVO of questions (queryQuestions)."""
    return ok_tagged(
        posts.query_questions(
            session(),
            section_code=section_code,
            keyword=keyword,
            is_resolved=is_resolved,
            page_num=page_num,
            page_size=page_size,
            display=platform().display,
        )
    )


def get_question(post_id: int, **_):
    """CommunityQuestionVO of one question (getQuestion)."""
    return ok_tagged(posts.get_question(session(), post_id=post_id, display=platform().display))


def list_answers(post_id: int, page_num: int = 1, page_size: int = 20, **_):
    """PageResultCommunityAnswerVO of a question (listAnswers)."""
    return ok_tagged(
        posts.list_answers(
            session(), post_id=post_id, page_num=page_num, page_size=page_size, display=platform().display
        )
    )


def get_user_profile(user_id: int, **_):
    """CommunityUserProfileVO of one user (getUserProfile)."""
    return ok_tagged(social.get_profile(session(), user_id=user_id, display=platform().display))


def list_followers(user_id: int, page_num: int = 1, page_size: int = 20, **_):
    """PageResultCommunityFollowUserVO of a user's followers (listFollowers)."""
    return ok_tagged(
        social.list_follows(
            session(),
            user_id=user_id,
            followers=True,
            page_num=page_num,
            page_size=page_size,
            display=platform().display,
        )
    )


def list_following(user_id: int, page_num: int = 1, page_size: int = 20, **_):
    """PageResultCommunityFollowUserVO of users a user follows (listFollowing)."""
    return ok_tagged(
        social.list_follows(
            session(),
            user_id=user_id,
            followers=False,
            page_num=page_num,
            page_size=page_size,
            display=platform().display,
        )
    )


def list_user_posts(user_id: int, page_num: int = 1, page_size: int = 20, **_):
    """PageResultCommunityPostSummaryVO of a user's posts (listUserPosts)."""
    social.live_user(session(), user_id)
    return ok_tagged(
        posts.query_discuss(
            session(),
            section_code=None,
            keyword=None,
            page_num=page_num,
            page_size=page_size,
            display=platform().display,
            user_id=user_id,
        )
    )


def publish_comment(body: dict, **_):
    """Boolean: comment published (publishComment)."""
    comments.publish(
        session(),
        user_id=proxy_user_id(),
        entity_type=body["entityType"],
        entity_id=body["entityId"],
        content=body["content"],
        parent_comment_id=body.get("parentCommentId"),
        mentioned_user_ids=body.get("mentionedUserIds"),
    )
    return ok(True)


def list_notifications(read_flag: bool | None = None, page_num: int = 1, page_size: int = 20, **_):
    """PageResultMessageVO of the proxy user (listNotifications)."""
    return ok(
        notifications.list_notifications(
            session(),
            user_id=proxy_user_id(),
            read_flag=read_flag,
            page_num=page_num,
            page_size=page_size,
            display=platform().display,
        )
    )


def mark_notifications_read(body: dict | None = None, **_):
    """Nothing (void); marks notifications read (markNotificationsRead)."""
    notifications.mark_read(session(), user_id=proxy_user_id(), message_ids=(body or {}).get("messageIds"))
    return ok(None)


def count_unread_notifications(**_):
    """Integer: unread notifications of the proxy user (countUnreadNotifications)."""
    return ok(notifications.unread_count(session(), user_id=proxy_user_id()))


def send_message(body: dict, **_):
    """OpenApiPrivateMessageResultVO of a sent message (sendMessage)."""
    return ok(
        messages.send(
            session(),
            sender_id=proxy_user_id(),
            to_user_id=body["toUserId"],
            content=body["content"],
            words=_settings().sensitive_words,
        )
    )


def search(
    keyword: str,
    entity_type: str | None = None,
    section_code: str | None = None,
    page_num: int = 1,
    page_size: int = 20,
    **_,
):
    """PageResultFullTextSearchResultVo of a full-text search (searchCommunity)."""
    return ok_tagged(
        community_search.search(
            session(),
            keyword=keyword,
            entity_type=entity_type,
            section_code=section_code,
            page_num=page_num,
            page_size=page_size,
            display=platform().display,
        )
    )


def suggest(keyword: str, **_):
    """List of search completion strings (suggestSearch)."""
    return ok_tagged(community_search.suggest(session(), keyword=keyword))
