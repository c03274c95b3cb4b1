"""Moderators racing on committed data (PostgreSQL): of concurrent decisions on one draft exactly
one wins, the others get 200711, and one event is raised."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import sessionmaker

from models.authoring import review
from models.authoring.tables import ResourceDraft
from models.webhooks.tables import OutboxEvent
from modhub.core.errors import ApiError
from tests.functional.authoring.test_review_pages import seed
from tests.functional.identity.live import scratch_database

pytestmark = pytest.mark.slow  # live servers, processes or migrations


def _race(sessions, display, actions) -> list:
    barrier, results = threading.Barrier(len(actions)), [None] * len(actions)

    def run(i, action):
        with sessions() as s, s.begin():
            barrier.wait()
            try:
                action(s)
                results[i] = "won"
            except ApiError as exc:
                results[i] = exc.code

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_concurrent_decisions_on_one_draft(display):
    with scratch_database("authoring_race") as url:
        engine = create_engine(url, pool_size=6)
        sessions = sessionmaker(engine, expire_on_commit=False)
        with sessions() as s, s.begin():
            ids = seed(s)
        approve = [lambda s: review.approve(s, draft_id=ids["new"], display=display)] * 3
        reject = [lambda s: review.reject(s, draft_id=ids["edit"], reason="no")]
        results = _race(
            sessions,
            display,
            approve + reject + [lambda s: review.approve(s, draft_id=ids["edit"], display=display)],
        )
        assert sorted(map(str, results[:3])) == ["200711", "200711", "won"]
        assert sorted(map(str, results[3:])) == ["200711", "won"]
        with sessions() as s:
            kinds = [e.kind for e in s.scalars(select(OutboxEvent))]
            states = {d.id: d.state for d in s.scalars(select(ResourceDraft))}
        assert kinds.count("resource.published") == 1
        assert states[ids["new"]] == "PUBLISHED"
        assert (states[ids["edit"]] == "PUBLISHED") is ("resource.updated" in kinds)
        engine.dispose()
