"""Community content, interactions, notifications, search and user pages."""

from modhub.errors import not_implemented


def toggle_collect(**kwargs):
    """Boolean: new collect state (toggleCollect)."""
    raise not_implemented("toggleCollect")


def toggle_like(**kwargs):
    """Boolean: new like state (toggleLike)."""
    raise not_implemented("toggleLike")


def publish_comment(**kwargs):
    """Boolean: comment published (publishComment)."""
    raise not_implemented("publishComment")


def toggle_follow(**kwargs):
    """Boolean: new follow state (toggleFollow)."""
    raise not_implemented("toggleFollow")


def send_message(**kwargs):
    """OpenApiPrivateMessageResultVO of a sent message (sendMessage)."""
    raise not_implemented("sendMessage")


def list_comments(**kwargs):
    """PageResultCommentVO of one record (listComments)."""
    raise not_implemented("listComments")


def query_discuss_posts(**kwargs):
    """PageResultCommunityPostSummaryVO of discussion posts (queryDiscussPosts)."""
    raise not_implemented("queryDiscussPosts")


def get_discuss_post(**kwargs):
    """CommunityPostDetailVO of one discussion post (getDiscussPost)."""
    raise not_implemented("getDiscussPost")


def query_moments(**kwargs):
    """PageResultCommunityMomentVO of moments (queryMoments)."""
    raise not_implemented("queryMoments")


def get_moment(**kwargs):
    """CommunityMomentVO of one moment (getMoment)."""
    raise not_implemented("getMoment")


def query_questions(**kwargs):
    """PageResultCommunityQuestionVO of questions (queryQuestions)."""
    raise not_implemented("queryQuestions")


def get_question(**kwargs):
    """CommunityQuestionVO of one question (getQuestion)."""
    raise not_implemented("getQuestion")


def list_answers(**kwargs):
    """PageResultCommunityAnswerVO of a question (listAnswers)."""
    raise not_implemented("listAnswers")


def list_notifications(**kwargs):
    """PageResultMessageVO of the proxy user (listNotifications)."""
    raise not_implemented("listNotifications")


def mark_notifications_read(**kwargs):
    """Nothing (void); marks notifications read (markNotificationsRead)."""
    raise not_implemented("markNotificationsRead")


def count_unread_notifications(**kwargs):
    """Integer: unread notifications of the proxy user (countUnreadNotifications)."""
    raise not_implemented("countUnreadNotifications")


def search(**kwargs):
    """PageResultFullTextSearchResultVo of a full-text search (searchCommunity)."""
    raise not_implemented("searchCommunity")


def suggest(**kwargs):
    """List of search completion strings (suggestSearch)."""
    raise not_implemented("suggestSearch")


def get_user_profile(**kwargs):
    """CommunityUserProfileVO of one user (getUserProfile)."""
    raise not_implemented("getUserProfile")


def list_followers(**kwargs):
    """PageResultCommunityFollowUserVO of a user's followers (listFollowers)."""
    raise not_implemented("listFollowers")


def list_following(**kwargs):
    """PageResultCommunityFollowUserVO of users a user follows (listFollowing)."""
    raise not_implemented("listFollowing")


def list_user_posts(**kwargs):
    """PageResultCommunityPostSummaryVO of a user's posts (listUserPosts)."""
    raise not_implemented("listUserPosts")
