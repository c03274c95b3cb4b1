"""Private messages: delivery with its notification, the sensitive-word policy, refusals."""

import pytest
from sqlalchemy import select

from models.community.sensitive import Matcher
from models.community.tables import Notification, PrivateMessage, UserBlock
from tests.helpers.catalog import data, error_code

SEND = "/openapi/v2/community/message/send"


@pytest.fixture()
def settings(settings):
    """Settings with a small word list: one BLOCK word, one REVIEW word."""
    return settings.replace(sensitive_words=("赌博", "Casino:REVIEW"))


@pytest.fixture()
def sender(creds, make_user, make_token):
    user = make_user()
    return user, {"X-Proxy-User-Id": str(user), "X-Proxy-Access-Token": make_token(creds.app_id, user)}


def _message(com, message_id):
    with com.db.session() as session:
        row = session.get(PrivateMessage, message_id)
        notes = session.scalars(
            select(Notification.message_type).where(Notification.user_id == row.recipient_id)
        ).all()
        return row.status, row.has_sensitive_words, notes


@pytest.mark.parametrize(
    "text,status,hit",
    [
        ("你好 hello", "DELIVERED", False),
        ("来 CASINO 玩", "REVIEW", True),
        ("一起赌博吧 casino", "BLOCKED", True),
    ],
)
def test_send_applies_the_policy(signed, com, sender, make_user, text, status, hit):
    _, headers = sender
    to = make_user()
    result = data(signed.post(SEND, json={"toUserId": to, "content": text}, headers=headers))
    assert result["hasSensitiveWords"] is hit
    notes = ["PRIVATE_MESSAGE"] if status == "DELIVERED" else []
    assert _message(com, result["messageId"]) == (status, hit, notes)


def test_send_refusals(signed, com, sender, make_user):
    user, headers = sender
    blocker = make_user()
    com.add(UserBlock, blocker_id=blocker, blocked_id=user)
    assert (
        error_code(signed.post(SEND, json={"toUserId": blocker, "content": "hi"}, headers=headers), 403)
        == 200231
    )
    assert (
        error_code(signed.post(SEND, json={"toUserId": 999999, "content": "hi"}, headers=headers), 404)
        == 200404
    )
    assert (
        error_code(signed.post(SEND, json={"toUserId": user, "content": "hi"}, headers=headers), 400)
        == 200331
    )
    assert (
        error_code(signed.post(SEND, json={"toUserId": blocker, "content": ""}, headers=headers), 400)
        == 200301
    )
    assert (
        error_code(signed.post(SEND, json={"toUserId": make_user(), "content": "   "}, headers=headers), 400)
        == 200301
    )


def test_matcher_finds_overlapping_words_in_one_pass():
    m = Matcher(("she:REVIEW", "hers", "abcd", "bc:REVIEW", "", "x:UNKNOWN"))
    assert [m.action(t) for t in ("ushe", "ushers", "abce", "xabcd", "plain", "x")] == [
        "REVIEW",
        "BLOCK",
        "REVIEW",
        "BLOCK",
        None,
        None,
    ]
