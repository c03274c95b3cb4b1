"""Demo community for `modhub demo seed`: Chinese and English discussion posts, questions with
answers (about half resolved by an accepted answer), moments, comment threads, likes, follows,
messages and notifications. Counters are computed from the rows written, so they always agree.

A random generator of its own keeps the catalogue rows identical to a seed without community.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter

from sqlalchemy import insert, update
from sqlalchemy.orm import Session

from models.catalog.tables import Comment
from models.community.tables import (
    Answer,
    CommunityPost,
    CommunityProfile,
    Follow,
    Moment,
    Notification,
    PrivateMessage,
    Reaction,
)
from modhub import seed_data as V

SEED = 20261123
DAY = dt.timedelta(days=1)
SECTIONS = ["minecraft", "terraria", "stardew", "skyrim", "factorio"]
TOPICS_ZH = ["整合包推荐", "红石电路教程", "服务器开服经验", "模组冲突排查", "光影设置分享", "新手入门指南"]
TOPICS_EN = ["Modpack picks", "Redstone tutorial", "Running a server", "Fixing mod conflicts",
             "Shader settings", "Beginner guide"]
QUESTIONS = [("Forge 启动崩溃怎么办?", "Forge crashes on launch"),
             ("如何安装光影?", "How to install shaders"),
             ("存档损坏能恢复吗?", "Can a broken save be recovered"),
             ("模组版本不兼容", "Mod version mismatch")]
MOMENTS = ["今天通关了! Finally beat the boss", "新存档开荒中", "Look at my base"]


def _ins(session: Session, model, rows: list[dict]) -> list[int]:
    if not rows:
        return []
    table = model.__table__
    if "id" not in table.c:
        session.execute(insert(table), rows)
        return []
    return list(session.scalars(insert(table).returning(table.c.id, sort_by_parameter_order=True), rows))


def seed_community(session: Session, *, resources: int, user_ids: list[int], now: dt.datetime) -> dict:
    """Write the demo community; answers row counts by table."""
    rng = random.Random(SEED + resources)
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
        title = (f"{TOPICS_ZH[topic]} #{i + 1}" if zh else f"{TOPICS_EN[topic]} #{i + 1}")
        body = f"{rng.choice(V.ZH_PREFIX)}{TOPICS_ZH[topic]}: {rng.choice(V.EN_INTRO)}"
        at = when(300)
        discuss.append({"post_type": "DISCUSS_POST", "section_code": rng.choice(SECTIONS),
                        "user_id": pick(), "title": title, "summary": None,
                        "content_html": f"<p>{body}</p>", "content_md": body, "tags": [],
                        "views_count": rng.randint(0, 5000), "publish_time": at, "update_time": at,
                        "is_delete": rng.random() < 0.03})
    questions = []
    for i in range(max(6, resources // 10)):
        zh, en = rng.choice(QUESTIONS)
        at = when(200)
        bounty = rng.random() < 0.2
        questions.append({"post_type": "QUESTION_POST", "section_code": rng.choice(SECTIONS),
                          "user_id": pick(), "title": f"{zh} {en} #{i + 1}",
                          "content_html": f"<p>{zh}</p>", "content_md": f"{zh}\n\n{en}",
                          "question_status": "OPEN", "difficulty": rng.randint(1, 5),
                          "tags": rng.sample(["forge", "fabric", "光影", "存档", "服务器"], 2),
                          "reward_amount": rng.choice([10, 50, 100]) if bounty else None,
                          "reward_currency": "GOLD_COIN" if bounty else None,
                          "views_count": rng.randint(0, 3000), "publish_time": at, "update_time": at})
    discuss_ids = _ins(session, CommunityPost, discuss)
    question_ids = _ins(session, CommunityPost, questions)
    post_ids = discuss_ids + question_ids
    live_discuss = [pid for pid, row in zip(discuss_ids, discuss, strict=True) if not row["is_delete"]]

    answers, answer_of = [], []
    for qid, q in zip(question_ids, questions, strict=True):
        for _ in range(rng.randint(0, 4)):
            answers.append({"question_id": qid, "user_id": pick(), "content_html": "<p>试试更新 Forge</p>",
                            "content_md": "试试更新 Forge / try updating Forge",
                            "upvote_count": rng.randint(0, 30), "downvote_count": rng.randint(0, 5),
                            "create_time": q["publish_time"] + rng.uniform(0, 5) * DAY})
            answer_of.append(qid)
    answer_ids = _ins(session, Answer, answers)
    by_question: dict[int, list[int]] = {}
    for aid, qid in zip(answer_ids, answer_of, strict=True):
        by_question.setdefault(qid, []).append(aid)
    author_of = {aid: row["user_id"] for aid, row in zip(answer_ids, answers, strict=True)}
    notes, changes = [], []
    for qid, q in zip(question_ids, questions, strict=True):
        mine = by_question.get(qid, [])
        values = {"id": qid, "answer_count": len(mine), "question_status": "OPEN",
                  "accepted_answer_id": None}
        if mine and rng.random() < 0.5:
            accepted = rng.choice(mine)
            values |= {"question_status": "RESOLVED", "accepted_answer_id": accepted}
            notes.append(_note(author_of[accepted], "ANSWER_ACCEPTED", q["user_id"],
                               "QUESTION_POST", qid, now))
        changes.append(values)
    _update(session, changes)

    moments = [{"user_id": pick(), "moment_type": rng.choice(["TEXT", "IMAGE", "SHARE"]),
                "content": rng.choice(MOMENTS),
                "view_count": rng.randint(0, 500), "create_time": when(60)}
               for _ in range(max(10, resources // 5))]
    moment_ids = _ins(session, Moment, moments)

    comments, comment_counts = [], Counter()
    for pid in live_discuss:
        for _ in range(rng.randint(0, 3)):
            comments.append({"entity_type": "DISCUSS_POST", "entity_id": pid, "user_id": pick(),
                             "content": rng.choice(["<p>写得好!</p>", "<p>Thanks, very helpful</p>"]),
                             "status": "NORMAL", "create_time": when(100)})
            comment_counts[("DISCUSS_POST", pid)] += 1
    _ins(session, Comment, comments)
    _update(session, [{"id": pid, "comment_count": n} for (_, pid), n in sorted(comment_counts.items())])

    reactions, likes = set(), Counter()
    owners = {pid: row["user_id"] for pid, row in zip(discuss_ids, discuss, strict=True)}
    for _ in range(len(live_discuss) * 3):
        pid, uid = rng.choice(live_discuss), pick()
        if (pid, uid) not in reactions:
            reactions.add((pid, uid))
            likes[pid] += 1
            notes.append(_note(owners[pid], "LIKE", uid, "DISCUSS_POST", pid, now))
    _ins(session, Reaction, [{"kind": "LIKE", "entity_type": "DISCUSS_POST", "entity_id": pid,
                              "user_id": uid, "create_time": when(30)} for pid, uid in sorted(reactions)])
    _update(session, [{"id": pid, "like_count": n} for pid, n in sorted(likes.items())])

    follows = {(a, b) for a, b in ((pick(), pick()) for _ in range(len(users) * 3)) if a != b}
    _ins(session, Follow, [{"follower_id": a, "followee_id": b, "create_time": when(200)}
                           for a, b in sorted(follows)])
    following, followers = Counter(a for a, _ in follows), Counter(b for _, b in follows)
    notes += [_note(b, "FOLLOW", a, None, None, now) for a, b in sorted(follows)]
    _ins(session, CommunityProfile, [{"user_id": u, "following_count": following[u],
                                      "follower_count": followers[u]} for u in users])
    messages = [(pick(), pick()) for _ in range(max(5, len(users) // 2))]
    messages = [(a, b) for a, b in messages if a != b]
    _ins(session, PrivateMessage, [{"sender_id": a, "recipient_id": b, "content": "你好, hello!",
                                    "status": "DELIVERED", "create_time": when(10)} for a, b in messages])
    notes += [_note(b, "PRIVATE_MESSAGE", a, None, None, now) for a, b in messages]
    for note in notes:
        note["read_flag"] = rng.random() < 0.6
    _ins(session, Notification, [n for n in notes if n["user_id"] != n["sender_id"]])
    counts.update({"community_post": len(post_ids), "community_answer": len(answer_ids),
                   "community_moment": len(moment_ids), "community_comment": len(comments),
                   "community_reaction": len(reactions), "community_follow": len(follows),
                   "community_private_message": len(messages),
                   "community_notification": sum(1 for n in notes if n["user_id"] != n["sender_id"])})
    return dict(counts)


def _update(session: Session, rows: list[dict]) -> None:
    """Bulk UPDATE of community posts by primary key (one executemany)."""
    if rows:
        session.execute(update(CommunityPost), rows)


def _note(user_id, kind, sender_id, entity_type, entity_id, now) -> dict:
    return {"user_id": user_id, "message_type": kind, "sender_id": sender_id,
            "entity_type": entity_type, "entity_id": entity_id, "create_time": now}
