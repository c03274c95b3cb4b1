"""Statements a draft save and an edit send to the database (the request path stays lean).

Measured on PostgreSQL: a full save 14 statements, an edit 13, counting the test wrapper's
SAVEPOINT / RELEASE and the gateway's own reads."""

from __future__ import annotations

import contextlib

from sqlalchemy import event

from models.authoring import review
from tests.helpers.authoring import EDIT, PUBLISH, SAVE, full_body, new_draft
from tests.helpers.catalog import data


@contextlib.contextmanager
def statements(engine, seen: list):
    def on(_conn, _cursor, statement, *_args):
        seen.append(statement.split(None, 1)[0].upper())

    event.listen(engine, "before_cursor_execute", on)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", on)


def test_save_and_edit_round_trips(signed, db, display, pg_engine, tax, author):
    draft_id = new_draft(signed, author, tax)
    body = full_body(tax)
    with statements(pg_engine, []) as seen:
        data(signed.post(SAVE[0].format(draft_id), json=body, headers=author.headers))
    # gateway (app, replay guard, token) + draft lock + section, type, categories, platform,
    # relation targets + update + savepoint handling: one transaction, no per-field queries
    assert len(seen) <= 16, seen
    signed.post(PUBLISH[0].format(draft_id), json={}, headers=author.headers)
    with db.session() as s, s.begin():
        review.approve(s, draft_id=draft_id, display=display)
    with statements(pg_engine, []) as seen:
        assert (
            data(
                signed.post(
                    EDIT[0].format(draft_id), json={"mainName": "n", "postVersion": 1}, headers=author.headers
                )
            )
            is True
        )
    assert len(seen) <= 16, seen
