"""Helpers of the community tests (imported by their conftest and by any test that needs them)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from models.community.tables import Answer, CommunityPost, CommunityProfile, Follow, Moment
from tests.helpers.catalog import Catalogue

NOW = dt.datetime(2026, 5, 1, 4, 0, tzinfo=dt.UTC)  # 12:00 in Asia/Shanghai


class Community(Catalogue):
    """Writes community rows (and, inherited, catalogue rows)."""

    def discuss(self, user_id: int, **fields) -> int:
        """A live discussion post."""
        row = {
            "post_type": "DISCUSS_POST",
            "section_code": "minecraft",
            "user_id": user_id,
            "title": "机械动力 讨论 Create talk",
            "summary": None,
            "content_html": "<p>正文 body</p>",
            "content_md": "正文 body",
            "publish_time": NOW,
            "update_time": NOW,
            "tags": [],
        }
        return self.add(CommunityPost, **{**row, **fields})

    def question(self, user_id: int, **fields) -> int:
        """A live OPEN question post."""
        row = {
            "post_type": "QUESTION_POST",
            "section_code": "minecraft",
            "user_id": user_id,
            "title": "如何安装 Forge? How to install",
            "content_html": "<p>问题</p>",
            "content_md": "问题",
            "question_status": "OPEN",
            "difficulty": 2,
            "tags": ["forge", "安装"],
            "reward_amount": Decimal("10.5"),
            "reward_currency": "GOLD_COIN",
            "publish_time": NOW,
            "update_time": NOW,
        }
        return self.add(CommunityPost, **{**row, **fields})

    def answer(self, question_id: int, user_id: int, **fields) -> int:
        """An answer to a question."""
        row = {
            "question_id": question_id,
            "user_id": user_id,
            "content_html": "<p>答案</p>",
            "content_md": "答案",
            "create_time": NOW,
        }
        return self.add(Answer, **{**row, **fields})

    def moment(self, user_id: int, **fields) -> int:
        """A TEXT moment."""
        return self.add(Moment, **{"user_id": user_id, "content": "今天 today", "create_time": NOW, **fields})

    def follow(self, follower: int, followee: int, **fields) -> int:
        """A follow row (counters are not touched)."""
        return self.add(
            Follow, **{"follower_id": follower, "followee_id": followee, "create_time": NOW, **fields}
        )

    def profile(self, user_id: int, **fields) -> int:
        """A community profile row; returns the user id."""
        with self.db.session() as session:
            session.add(CommunityProfile(user_id=user_id, **fields))
            session.commit()
        return user_id
