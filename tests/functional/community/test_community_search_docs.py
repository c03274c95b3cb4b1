"""PostgreSQL: the search documents of migration 0012 (community_search_doc, resource_search_doc)
follow every write of their sources in the same transaction, as the search sees them."""

import datetime as dt
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import create_engine, text, update
from sqlalchemy.orm import Session

from models.catalog.tables import ResourcePost
from models.community.tables import Answer, CommunityPost, Moment
from models.identity.tables import User
from tests.functional.identity.live import scratch_database
from tests.helpers.catalog import data
from tests.helpers.community import NOW

V2 = "/openapi/v2/community"

# What the documents must hold: the live sources, exactly as migration 0012 backfills them.
EXPECTED_COMMUNITY = """
SELECT post_type, id, section_code, publish_time, lower(title), search_tsv,
       lower(title || ' ' || coalesce(content_md, '')) FROM community_post WHERE is_delete IS false
UNION ALL
SELECT 'QUESTION_ANSWER', a.id, q.section_code, a.create_time, NULL, a.search_tsv,
       lower(coalesce(a.content_md, '')) FROM community_answer a JOIN community_post q ON q.id = a.question_id
WHERE a.is_delete IS false AND q.is_delete IS false AND q.post_type = 'QUESTION_POST'
UNION ALL
SELECT 'USER_MOMENT', id, NULL, create_time, NULL, search_tsv, lower(content) FROM community_moment
WHERE is_delete IS false"""
ACTUAL_COMMUNITY = (
    "SELECT kind, entity_id, section_code, at, title, search_tsv, search_text FROM community_search_doc"
)
EXPECTED_RESOURCE = (  # titles and text lower-cased (migration 0016)
    "SELECT id, section_code, publish_time, lower(main_name), lower(search_doc), search_tsv "
    "FROM resource_post WHERE status = 'PUBLISHED' AND visibility = 'PUBLIC' "
    "AND is_delete IS false"
)
ACTUAL_RESOURCE = (
    "SELECT id, section_code, publish_time, main_name, search_doc, search_tsv FROM resource_search_doc"
)


def _rows(db, statement: str) -> list:
    with db.session() as session:
        return sorted(tuple(str(v) for v in row) for row in session.execute(text(statement)))


def _in_step(db) -> None:
    """The documents equal the live sources (every column)."""
    assert _rows(db, ACTUAL_COMMUNITY) == _rows(db, EXPECTED_COMMUNITY)
    assert _rows(db, ACTUAL_RESOURCE) == _rows(db, EXPECTED_RESOURCE)


def _set(db, model, row_id: int, **values) -> None:
    with db.session() as session:
        session.execute(update(model).where(model.id == row_id).values(**values))
        session.commit()


def _found(signed, keyword: str, **params) -> set:
    query = "&".join(f"{k}={v}" for k, v in {"keyword": keyword, "pageSize": 50, **params}.items())
    return {(h["entityType"], h["entityId"]) for h in data(signed.get(f"{V2}/search?{query}"))["list"]}


@pytest.fixture()
def world(com, make_user):
    author = make_user(username="文档")
    question = com.question(author, title="Zephyrine 问题", content_md="question body")
    ids = {
        "author": author,
        "question": question,
        "discuss": com.discuss(author, title="Quaskel 讨论", content_md="alpha body"),
        "answer": com.answer(question, author, content_md="Zephyrine answer 答复"),
        "other_answer": com.answer(question, author, content_md="Zephyrine second"),
        "moment": com.moment(author, content="<p>Morvantel moment</p>"),
        "resource": com.post(main_name="Quaskel Resource", introduction="Quaskel intro"),
    }
    _in_step(com.db)
    return ids


def test_post_edits_deletes_and_restores(signed, com, world):
    discuss = world["discuss"]
    assert ("DISCUSS_POST", discuss) in _found(signed, "Quaskel")
    _set(com.db, CommunityPost, discuss, title="Vintrelle 讨论", content_md="beta text")
    _in_step(com.db)
    assert ("DISCUSS_POST", discuss) not in _found(signed, "Quaskel")
    assert _found(signed, "vintrelle") == {("DISCUSS_POST", discuss)}
    assert _found(signed, "intrel") == {("DISCUSS_POST", discuss)}  # partial word: trigram text
    _set(com.db, CommunityPost, discuss, tags=["Glimmerock"])  # tags are in the vector
    _in_step(com.db)
    assert _found(signed, "Glimmerock") == {("DISCUSS_POST", discuss)}
    _set(com.db, CommunityPost, discuss, is_delete=True, delete_time=NOW)
    _in_step(com.db)
    assert _found(signed, "vintrelle") == set()
    _set(com.db, CommunityPost, discuss, is_delete=False)
    _in_step(com.db)
    assert _found(signed, "vintrelle") == {("DISCUSS_POST", discuss)}
    with com.db.session() as session:  # a hard delete takes the document too
        session.execute(text("DELETE FROM community_post WHERE id = :id"), {"id": discuss})
        session.commit()
    _in_step(com.db)
    assert _found(signed, "vintrelle") == set()


def test_section_change_moves_the_question_and_its_answers(signed, com, world):
    question, answers = (
        world["question"],
        {("QUESTION_ANSWER", world["answer"]), ("QUESTION_ANSWER", world["other_answer"])},
    )
    everything = {("QUESTION_POST", question)} | answers
    assert _found(signed, "zephyrine", sectionCode="minecraft") == everything
    _set(com.db, CommunityPost, question, section_code="terraria")
    _in_step(com.db)
    assert _found(signed, "zephyrine", sectionCode="minecraft") == set()
    assert _found(signed, "zephyrine", sectionCode="terraria") == everything
    page = data(signed.get(f"{V2}/search?keyword=second"))["list"]
    assert [(h["entityId"], h["sectionCode"]) for h in page] == [(world["other_answer"], "terraria")]


def test_question_delete_hides_its_answers_and_restore_shows_the_live_ones(signed, com, world):
    question = world["question"]
    _set(com.db, Answer, world["other_answer"], is_delete=True)
    _in_step(com.db)
    assert _found(signed, "zephyrine") == {("QUESTION_POST", question), ("QUESTION_ANSWER", world["answer"])}
    _set(com.db, CommunityPost, question, is_delete=True, delete_time=NOW)
    _in_step(com.db)
    assert _found(signed, "zephyrine") == set()
    assert _found(signed, "答复", entityType="QUESTION_ANSWER") == set()
    _set(com.db, CommunityPost, question, is_delete=False)
    _in_step(com.db)
    assert _found(signed, "zephyrine") == {("QUESTION_POST", question), ("QUESTION_ANSWER", world["answer"])}
    # an answer added to a deleted question stays out until the question is restored
    _set(com.db, CommunityPost, question, is_delete=True)
    late = com.answer(question, world["author"], content_md="Zephyrine late")
    _in_step(com.db)
    assert _found(signed, "zephyrine") == set()
    _set(com.db, CommunityPost, question, is_delete=False)
    _in_step(com.db)
    assert ("QUESTION_ANSWER", late) in _found(signed, "zephyrine")


def test_answer_and_moment_edits_and_deletes(signed, com, world):
    answer, moment = world["answer"], world["moment"]
    later = NOW + dt.timedelta(days=1)
    _set(com.db, Answer, answer, content_md="Kelderwick 答复", create_time=later)
    _set(com.db, Moment, moment, content="<p>Kelderwick moment</p>")
    _in_step(com.db)
    page = data(signed.get(f"{V2}/search?keyword=kelderwick"))["list"]
    assert {(h["entityType"], h["entityId"]) for h in page} == {
        ("QUESTION_ANSWER", answer),
        ("USER_MOMENT", moment),
    }
    assert next(h for h in page if h["entityId"] == answer)["publishTime"] == "2026-05-02 12:00:00"
    assert _found(signed, "Morvantel") == set()
    _set(com.db, Answer, answer, is_delete=True)
    _set(com.db, Moment, moment, is_delete=True)
    _in_step(com.db)
    assert _found(signed, "kelderwick") == set()
    _set(com.db, Moment, moment, is_delete=False)
    _in_step(com.db)
    assert _found(signed, "kelderwick") == {("USER_MOMENT", moment)}


def test_counter_updates_leave_the_documents_alone(com, world):
    def versions() -> list:  # xmin changes whenever a row is rewritten
        return _rows(com.db, "SELECT kind, entity_id, xmin FROM community_search_doc") + _rows(
            com.db, "SELECT id, xmin FROM resource_search_doc"
        )

    before = versions()
    _set(com.db, CommunityPost, world["question"], views_count=7, answer_count=2, like_count=3)
    _set(com.db, Answer, world["answer"], upvote_count=4)
    _set(com.db, Moment, world["moment"], like_count=5)
    _set(com.db, ResourcePost, world["resource"], download_count=9, views_count=11)
    assert versions() == before


def test_resource_documents_follow_listing_and_edits(signed, com, world):
    resource = world["resource"]
    assert ("RESOURCE_POST", resource) in _found(signed, "Quaskel")
    _set(com.db, ResourcePost, resource, main_name="Trevanion Resource", section_code="terraria")
    _in_step(com.db)
    assert _found(signed, "trevanion", sectionCode="terraria") == {("RESOURCE_POST", resource)}
    assert _found(signed, "revanio") == {("RESOURCE_POST", resource)}  # partial word: search_doc
    assert _found(signed, "trevanion", sectionCode="minecraft") == set()
    for hidden in ({"status": "DRAFT"}, {"visibility": "PRIVATE"}, {"is_delete": True}):
        _set(com.db, ResourcePost, resource, **hidden)
        _in_step(com.db)
        assert _found(signed, "trevanion") == set()
        _set(com.db, ResourcePost, resource, status="PUBLISHED", visibility="PUBLIC", is_delete=False)
        _in_step(com.db)
        assert _found(signed, "trevanion") == {("RESOURCE_POST", resource)}


@pytest.mark.slow
def test_a_question_change_and_an_answer_write_at_once_take_turns():
    """Two real transactions: an answer written while its question is being deleted (or moved)
    waits for that transaction, then sees the question as it was committed."""
    with scratch_database("search_docs") as url:
        engine = create_engine(url)
        try:
            with Session(engine) as session, session.begin():
                racer = User(username="racer")
                session.add(racer)
                session.flush()
                post = CommunityPost(
                    post_type="QUESTION_POST",
                    section_code="minecraft",
                    user_id=racer.id,
                    title="race",
                    tags=[],
                )
                session.add(post)
                session.flush()
                first = Answer(question_id=post.id, user_id=racer.id, content_md="first Wyvernquill")
                session.add(first)
                session.flush()
                user, question, answer = racer.id, post.id, first.id

            def answer_meanwhile(statement: str, **params):
                def run():
                    with engine.begin() as conn:
                        return (
                            _add_answer(conn, question, user, "late Wyvernquill")
                            if statement == "add"
                            else conn.execute(text(statement), params)
                        )

                return run

            with ThreadPoolExecutor(1) as pool:
                with engine.begin() as mover:  # the section change first, an answer edit meanwhile
                    mover.execute(
                        text("UPDATE community_post SET section_code = 'terraria' WHERE id = :q"),
                        {"q": question},
                    )
                    edit = pool.submit(
                        answer_meanwhile(
                            "UPDATE community_answer SET content_md = 'edited Wyvernquill' WHERE id = :a",
                            a=answer,
                        )
                    )
                    time.sleep(0.5)
                    assert not edit.done()  # it waits for the question's transaction
                edit.result(timeout=30)
                with engine.begin() as deleter:  # the question's delete first, a new answer meanwhile
                    deleter.execute(
                        text("UPDATE community_post SET is_delete = true WHERE id = :q"), {"q": question}
                    )
                    added = pool.submit(answer_meanwhile("add"))
                    time.sleep(0.5)
                    assert not added.done()
                added.result(timeout=30)
            with engine.connect() as conn:
                assert conn.execute(text("SELECT count(*) FROM community_search_doc")).scalar() == 0
                conn.execute(
                    text("UPDATE community_post SET is_delete = false WHERE id = :q"), {"q": question}
                )
                docs = conn.execute(
                    text(
                        "SELECT section_code, search_text FROM community_search_doc "
                        "WHERE kind = 'QUESTION_ANSWER' ORDER BY entity_id"
                    )
                ).all()
                assert docs == [("terraria", "edited wyvernquill"), ("terraria", "late wyvernquill")]
                conn.rollback()
        finally:
            engine.dispose()


def _add_answer(conn, question: int, user: int, content: str) -> int:
    with Session(conn) as session:
        row = Answer(question_id=question, user_id=user, content_md=content)
        session.add(row)
        session.flush()
        return row.id
