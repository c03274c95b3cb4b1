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
from modhub.seed_community_parts import (
    ANSWERS,
    COMMENTS,
    MESSAGES,
    MOMENTS,
    QUESTIONS,
    REPLIES,
    SECTIONS,
    TAGS,
    TOPICS_EN,
    TOPICS_ZH,
    PendingRows,
)

SEED = 20261123
DAY = dt.timedelta(days=1)
STAGES = 10


def seed_community(
    bulk: BulkWriter, *, resources: int, user_ids: list[int], now: dt.datetime, progress: bool = False
) -> dict:
    """Write the demo community; answers row counts by table (a progress bar of its stages)."""
    with tqdm(total=STAGES, file=sys.stderr, disable=not progress, unit="step", desc="community") as bar:
        pending = PendingRows(bulk)
        counts = _seed(pending, resources=resources, user_ids=user_ids, now=now, bar=bar)
        pending.flush()
        bar.update()
        return counts


def _seed(pending: PendingRows, *, resources: int, user_ids: list[int], now: dt.datetime, bar) -> dict:
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
