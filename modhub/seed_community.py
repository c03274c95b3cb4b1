"""Demo community for `modhub demo seed`: Chinese and English discussion posts, questions with
answers (about half resolved by an accepted answer), moments, comment threads, likes, follows,
messages and notifications. Counters are computed from the rows written, so they always agree.

A random generator of its own keeps the catalogue rows identical to a seed without community.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from collections import Counter

from tqdm import tqdm

from models.community.tables import (
    Answer,
    Comment,
    CommunityPost,
    CommunityProfile,
    Follow,
    Moment,
    Notification,
    PrivateMessage,
    Reaction,
)
from modhub import seed_data as V
from modhub.seed_bulk import BulkWriter

SEED = 20261123
DAY = dt.timedelta(days=1)
SECTIONS = ["minecraft", "terraria", "stardew", "skyrim", "factorio"]
TOPICS_ZH = ["整合包推荐", "红石电路教程", "服务器开服经验", "模组冲突排查", "光影设置分享", "新手入门指南"]
TOPICS_EN = [
    "Modpack picks",
    "Redstone tutorial",
    "Running a server",
    "Fixing mod conflicts",
    "Shader settings",
    "Beginner guide",
]
QUESTIONS = [
    ("Forge 启动崩溃怎么办?", "Forge crashes on launch"),
    ("如何安装光影?", "How to install shaders"),
    ("存档损坏能恢复吗?", "Can a broken save be recovered"),
    ("模组版本不兼容", "Mod version mismatch"),
]
MOMENTS = [
    "今天通关了! Finally beat the boss",
    "新存档开荒中",
    "Look at my base",
    "第一次打败末影龙 🐉",
    "Built a fully automatic iron farm today",
    "光影开了之后帧数掉到 20 了…",
    "服务器今晚八点开新档, 欢迎来玩",
    "Trying the new Create update, the trains are amazing",
    "整合包终于调好了, 模组冲突全部解决",
    "Screenshot of my Terraria boss arena",
]
ANSWERS = [
    "试试更新 Forge 到最新版本, 然后删除 config 文件夹重新生成。\n\nTry updating Forge first.",
    "看一下 `logs/latest.log` 里的报错, 一般是某个模组版本不对。",
    "You need Java 17 for 1.18+; check the launcher's Java path.",
    "安装 OptiFine 或 Iris 之后把光影包放进 shaderpacks 文件夹即可。",
    "Back up the world folder, then run the region fixer on the broken chunks.",
    "两个模组都改了同一个类, 去掉其中一个就好了 / remove one of the two conflicting mods.",
]
COMMENTS = [
    "写得好!",
    "Thanks, very helpful",
    "收藏了, 回头试试",
    "Does this work on 1.20?",
    "我也遇到了同样的问题",
    "Great guide, the screenshots help a lot",
    "顶一下",
    "+1, same here",
]
REPLIES = ["可以的, 我在 1.20.1 上测试过", "Glad it helped!", "试试先删掉 config", "谢谢!"]
MESSAGES = [
    "你好, hello!",
    "你的整合包能分享一下吗?",
    "Want to join our server tonight?",
    "谢谢你的回答, 问题解决了",
    "Can I use your texture pack in my modpack?",
]
TAGS = ["forge", "fabric", "光影", "存档", "服务器", "红石", "整合包", "教程", "tutorial", "performance"]
STAGES = 10


class _Pending:
    """Rows built with reserved ids, written together at the end (counters final by then)."""

    def __init__(self, bulk: BulkWriter):
        self.bulk = bulk
        self.batches: list[tuple[type, list[dict]]] = []
        self.by_id: dict[int, dict] = {}  # community posts, for their counters

    def add(self, model, rows: list[dict]) -> list[int]:
        ids = self.bulk.with_ids(model, rows) if "id" in model.__table__.c else []
        self.batches.append((model, rows))
        if model is CommunityPost:
            self.by_id.update(zip(ids, rows, strict=True))
        return ids

    def update(self, changes: list[dict]) -> None:
        """Set counters of community posts (by id) before they are written."""
        for values in changes:
            self.by_id[values["id"]].update(values)

    def flush(self) -> None:
        for model, rows in self.batches:
            self.bulk.write(model, rows)


def seed_community(
    bulk: BulkWriter, *, resources: int, user_ids: list[int], now: dt.datetime, progress: bool = False
) -> dict:
    """Write the demo community; answers row counts by table (a progress bar of its stages)."""
    with tqdm(total=STAGES, file=sys.stderr, disable=not progress, unit="step", desc="community") as bar:
        pending = _Pending(bulk)
        counts = _seed(pending, resources=resources, user_ids=user_ids, now=now, bar=bar)
        pending.flush()
        bar.update()
        return counts


def _seed(pending: _Pending, *, resources: int, user_ids: list[int], now: dt.datetime, bar) -> dict:
    rng = random.Random(SEED + resources)
    _ins = pending.add
    users = user_ids
    counts: Counter = Counter()

    def when(days: float) -> dt.datetime:
        return now - rng.uniform(0, days) * DAY

    def pick() -> int:
        return rng.choice(users)

    discuss = []
    for i in range(max(10, resources // 5)):
        zh = rng.random() < 0.6
        topic = rng.randrange(len(TOPICS_ZH))
        title = f"{TOPICS_ZH[topic]} #{i + 1}" if zh else f"{TOPICS_EN[topic]} #{i + 1}"
        body = f"{rng.choice(V.ZH_PREFIX)}{TOPICS_ZH[topic]}: {rng.choice(V.EN_INTRO)}"
        at = when(300)
        discuss.append(
            {
                "post_type": "DISCUSS_POST",
                "section_code": rng.choice(SECTIONS),
                "user_id": pick(),
                "title": title,
                "summary": None,
                "content_html": f"<p>{body}</p>",
                "content_md": body,
                "tags": rng.sample(TAGS, rng.randint(0, 2)),
                "views_count": rng.randint(0, 5000),
                "publish_time": at,
                "update_time": at,
                "is_delete": rng.random() < 0.03,
                "comment_count": 0,
                "like_count": 0,
            }
        )
    questions = []
    for i in range(max(6, resources // 10)):
        zh, en = rng.choice(QUESTIONS)
        at = when(200)
        bounty = rng.random() < 0.2
        questions.append(
            {
                "post_type": "QUESTION_POST",
                "section_code": rng.choice(SECTIONS),
                "user_id": pick(),
                "title": f"{zh} {en} #{i + 1}",
                "content_html": f"<p>{zh}</p>",
                "content_md": f"{zh}\n\n{en}",
                "question_status": "OPEN",
                "difficulty": rng.randint(1, 5),
                "tags": rng.sample(TAGS, 2),
                "reward_amount": rng.choice([10, 50, 100]) if bounty else None,
                "reward_currency": "GOLD_COIN" if bounty else None,
                "views_count": rng.randint(0, 3000),
                "publish_time": at,
                "update_time": at,
            }
        )
    discuss_ids = _ins(CommunityPost, discuss)
    question_ids = _ins(CommunityPost, questions)
    post_ids = discuss_ids + question_ids
    live_discuss = [pid for pid, row in zip(discuss_ids, discuss, strict=True) if not row["is_delete"]]
    bar.update()

    def answer_row(qid: int, after: dt.datetime, parent: int | None = None) -> dict:
        md = rng.choice(ANSWERS)
        return {
            "question_id": qid,
            "parent_answer_id": parent,
            "user_id": pick(),
            "content_html": "".join(f"<p>{line}</p>" for line in md.split("\n\n")),
            "content_md": md,
            "upvote_count": rng.randint(0, 30),
            "downvote_count": rng.randint(0, 5),
            "create_time": after + rng.uniform(0, 5) * DAY,
        }

    notes = []
    answers = [
        answer_row(qid, q["publish_time"])
        for qid, q in zip(question_ids, questions, strict=True)
        for _ in range(rng.randint(0, 4))
    ]
    answer_ids = _ins(Answer, answers)
    # about a quarter of the answers get a nested reply, and their authors a REPLY notification
    replies = [
        answer_row(a["question_id"], a["create_time"], parent=aid)
        for aid, a in zip(answer_ids, answers, strict=True)
        if rng.random() < 0.25
    ]
    author_of = {aid: row["user_id"] for aid, row in zip(answer_ids, answers, strict=True)}
    notes += [
        _note(
            author_of[r["parent_answer_id"]],
            "REPLY",
            r["user_id"],
            "QUESTION_POST",
            r["question_id"],
            r["create_time"],
        )
        for r in replies
    ]
    reply_ids = _ins(Answer, replies)
    by_question: dict[int, list[int]] = {}
    for aid, row in zip(answer_ids, answers, strict=True):
        by_question.setdefault(row["question_id"], []).append(aid)
    nested = Counter(r["question_id"] for r in replies)
    changes = []
    bar.update()
    for qid, q in zip(question_ids, questions, strict=True):
        mine = by_question.get(qid, [])
        values = {
            "id": qid,
            "answer_count": len(mine) + nested[qid],
            "question_status": "OPEN",
            "accepted_answer_id": None,
        }
        if mine and rng.random() < 0.5:
            accepted = rng.choice(mine)
            values |= {"question_status": "RESOLVED", "accepted_answer_id": accepted}
            notes.append(
                _note(
                    author_of[accepted],
                    "ANSWER_ACCEPTED",
                    q["user_id"],
                    "QUESTION_POST",
                    qid,
                    now - rng.uniform(0, 30) * DAY,
                )
            )
        changes.append(values)
    pending.update(changes)
    bar.update()

    moments = [
        {
            "user_id": pick(),
            "moment_type": rng.choice(["TEXT", "IMAGE", "SHARE"]),
            "content": rng.choice(MOMENTS),
            "view_count": rng.randint(0, 500),
            "create_time": when(60),
        }
        for _ in range(max(10, resources // 5))
    ]
    moment_ids = _ins(Moment, moments)
    bar.update()

    comments, comment_counts = [], Counter()
    owners = {pid: row["user_id"] for pid, row in zip(discuss_ids, discuss, strict=True)}
    for pid in live_discuss:
        for _ in range(rng.randint(0, 3)):
            comments.append(
                {
                    "entity_type": "DISCUSS_POST",
                    "entity_id": pid,
                    "user_id": pick(),
                    "content": f"<p>{rng.choice(COMMENTS)}</p>",
                    "status": "NORMAL",
                    "reply_count": 0,
                    "create_time": when(100),
                }
            )
            comment_counts[pid] += 1
            notes.append(
                _note(
                    owners[pid],
                    "COMMENT",
                    comments[-1]["user_id"],
                    "DISCUSS_POST",
                    pid,
                    comments[-1]["create_time"],
                )
            )
    comment_ids = _ins(Comment, comments)
    # comment threads: about a third of the comments get a reply (REPLY to the comment's author)
    threads = [
        (
            {
                "entity_type": "DISCUSS_POST",
                "entity_id": c["entity_id"],
                "user_id": pick(),
                "parent_id": cid,
                "content": f"<p>{rng.choice(REPLIES)}</p>",
                "status": "NORMAL",
                "create_time": c["create_time"] + rng.uniform(0, 2) * DAY,
            },
            c["user_id"],
        )
        for cid, c in zip(comment_ids, comments, strict=True)
        if rng.random() < 0.33
    ]
    _ins(Comment, [reply for reply, _ in threads])
    replied = {r["parent_id"] for r, _ in threads}
    for cid, c in zip(comment_ids, comments, strict=True):
        if cid in replied:
            c["reply_count"] = 1
    for reply, parent_author in threads:
        comment_counts[reply["entity_id"]] += 1
        notes.append(
            _note(
                parent_author,
                "REPLY",
                reply["user_id"],
                "POST_COMMENT",
                reply["parent_id"],
                reply["create_time"],
            )
        )
    pending.update([{"id": pid, "comment_count": n} for pid, n in sorted(comment_counts.items())])
    bar.update()

    reactions, likes = set(), Counter()
    for _ in range(len(live_discuss) * 3):
        pid, uid = rng.choice(live_discuss), pick()
        if (pid, uid) not in reactions:
            reactions.add((pid, uid))
            likes[pid] += 1
            notes.append(_note(owners[pid], "LIKE", uid, "DISCUSS_POST", pid, when(30)))
    _ins(
        Reaction,
        [
            {
                "kind": "LIKE",
                "entity_type": "DISCUSS_POST",
                "entity_id": pid,
                "user_id": uid,
                "create_time": when(30),
            }
            for pid, uid in sorted(reactions)
        ],
    )
    pending.update([{"id": pid, "like_count": n} for pid, n in sorted(likes.items())])
    bar.update()

    follows = {(a, b) for a, b in ((pick(), pick()) for _ in range(len(users) * 3)) if a != b}
    _ins(Follow, [{"follower_id": a, "followee_id": b, "create_time": when(200)} for a, b in sorted(follows)])
    following, followers = Counter(a for a, _ in follows), Counter(b for _, b in follows)
    notes += [_note(b, "FOLLOW", a, None, None, when(200)) for a, b in sorted(follows)]
    _ins(
        CommunityProfile,
        [{"user_id": u, "following_count": following[u], "follower_count": followers[u]} for u in users],
    )
    bar.update()
    messages = [(pick(), pick(), rng.choice(MESSAGES), when(10)) for _ in range(max(5, len(users) // 2))]
    messages = [m for m in messages if m[0] != m[1]]
    _ins(
        PrivateMessage,
        [
            {"sender_id": a, "recipient_id": b, "content": text, "status": "DELIVERED", "create_time": at}
            for a, b, text, at in messages
        ],
    )
    notes += [_note(b, "PRIVATE_MESSAGE", a, None, None, at, content=text) for a, b, text, at in messages]
    bar.update()
    for note in notes:  # the older, the likelier read
        note["read_flag"] = rng.random() < min(0.95, 0.3 + (now - note["create_time"]) / (60 * DAY))
    _ins(Notification, [n for n in notes if n["user_id"] != n["sender_id"]])
    bar.update()
    counts.update(
        {
            "community_post": len(post_ids),
            "community_answer": len(answer_ids) + len(reply_ids),
            "community_moment": len(moment_ids),
            "community_comment": len(comments) + len(threads),
            "community_reaction": len(reactions),
            "community_follow": len(follows),
            "community_private_message": len(messages),
            "community_notification": sum(1 for n in notes if n["user_id"] != n["sender_id"]),
        }
    )
    return dict(counts)


def _note(user_id, kind, sender_id, entity_type, entity_id, at, content=None) -> dict:
    return {
        "user_id": user_id,
        "message_type": kind,
        "sender_id": sender_id,
        "content": content,
        "entity_type": entity_type,
        "entity_id": entity_id,
        "create_time": at,
    }
