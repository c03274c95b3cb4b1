"""End to end over real processes: `modhub worker` (RQ, scheduler, sweep) on a private Redis, a
dedicated PostgreSQL database, the CLI raising every event kind, and the fault cases of issue 5:
a worker SIGKILLed mid-delivery and Redis restarted between commit and enqueue."""

from __future__ import annotations

import json
import logging
import threading

import pytest
from click.testing import CliRunner

from models.catalog.tables import ResourceAuthor, ResourcePost, ServerPost
from models.identity.tables import User
from models.webhooks.events import emit
from modhub.cli import main
from modhub.core.webhook_signing import EVENT_KINDS
from tests.functional.webhooks.processes import wait_until
from tests.functional.webhooks.receiver import Reply

pytestmark = pytest.mark.slow  # live servers, processes or migrations


def cli(stack, *args) -> str:
    """Run `modhub ...` in-process with the stack's environment; return its standard output."""
    result = CliRunner().invoke(main, list(args), env=stack.env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def _app_and_subscription(stack, url: str) -> tuple[int, dict]:
    app = json.loads(cli(stack, "app", "create", "--name", "Hook App", "--approve"))
    sub = json.loads(cli(stack, "webhook", "add", "--app", str(app["appId"]), "--url", url))
    assert sub["status"] == "ACTIVE" and sub["events"] == sorted(EVENT_KINDS)
    assert sub["secret"].startswith("whsec_") and len(sub["secret"]) >= 6 + 43
    assert sub["secret"] not in cli(stack, "webhook", "list")
    return app["appId"], sub


def _catalog(platform) -> tuple[int, int]:
    with platform.db.session() as s, s.begin():
        author = User(username="treewright", avatar="avatars/t.png")
        s.add(author)
        post = ResourcePost(section_code="minecraft", main_name="Better Trees", status="PENDING")
        server = ServerPost(section_code="minecraft", main_name="Lobby One", server_status="OFFLINE")
        s.add_all([post, server])
        s.flush()
        s.add(ResourceAuthor(post_id=post.id, user_id=author.id, role="OWNER"))
        return post.id, server.id


def _deliveries(stack) -> list[dict]:
    return [json.loads(line) for line in cli(stack, "webhook", "deliveries", "--limit", "100").splitlines()]


def test_every_event_kind_reaches_the_receiver_signed(stack, receiver):
    stack.start_worker()
    stack.start_worker()
    _, sub = _app_and_subscription(stack, receiver.url)
    platform = stack.platform()
    post_id, server_id = _catalog(platform)
    cli(stack, "admin", "resource", "publish", str(post_id))
    cli(
        stack,
        "admin",
        "resource",
        "update",
        str(post_id),
        "--set",
        "main_name=Better Trees 2",
        "--set",
        "resource_version=1.10",
    )
    cli(stack, "admin", "server", "status", str(server_id), "online")
    cli(stack, "admin", "server", "status", str(server_id), "offline")
    deleted = json.loads(cli(stack, "admin", "resource", "delete", str(post_id)))
    with platform.db.session() as s, s.begin():  # community posts have no domain function yet
        emit(s, kind="post.published", data={"postId": 91, "title": "Hello"})
        emit(s, kind="post.deleted", data={"postId": 91, "title": "Hello"})
    got = receiver.wait_for(7)
    by_kind = {r.headers["x-webhook-event"]: r for r in got}
    assert set(by_kind) == set(EVENT_KINDS) and len({r.headers["x-webhook-id"] for r in got}) == 7
    assert all(r.signed_by(sub["secret"]) and r.json["event"] == r.headers["x-webhook-event"] for r in got)
    updated = by_kind["resource.updated"].json["data"]
    assert updated["postId"] == post_id and updated["title"] == "Better Trees 2"
    assert updated["resourceVersion"] == "1.10" and updated["authors"][0]["userName"] == "treewright"
    gone = by_kind["resource.deleted"].json["data"]
    assert gone == deleted and gone["mainName"] == "Better Trees 2"
    assert by_kind["server.status.online"].json["data"]["serverStatus"] == "ONLINE"
    assert by_kind["server.status.offline"].json["data"]["postId"] == server_id
    wait_until(
        lambda: sum(d["status"] == "SUCCEEDED" for d in _deliveries(stack)) == 7,
        what="7 deliveries recorded as SUCCEEDED",
    )
    assert all(d["attempts"][0]["statusCode"] == 200 for d in _deliveries(stack))
    again = by_kind["resource.deleted"].headers["x-webhook-id"]
    assert json.loads(cli(stack, "webhook", "redeliver", again)) == {"eventId": again, "requeued": 1}
    assert receiver.wait_for(8)[7].headers["x-webhook-id"] == again


def test_a_worker_killed_mid_delivery_does_not_lose_the_event(stack, receiver):
    _, sub = _app_and_subscription(stack, receiver.url)
    platform = stack.platform()
    hang = Reply(hang=threading.Event())
    receiver.replies = [hang]
    doomed = stack.start_worker()
    with platform.db.session() as s, s.begin():
        event_id = emit(s, kind="resource.published", data={"postId": 1, "title": "T"}).event_id
    receiver.wait_for(1)  # the worker is inside the POST now
    doomed.kill()
    hang.hang.set()
    stack.start_worker()
    first, second = receiver.wait_for(2, timeout=40)
    assert first.headers["x-webhook-id"] == second.headers["x-webhook-id"] == event_id
    assert second.signed_by(sub["secret"])
    wait_until(
        lambda: [d for d in _deliveries(stack) if d["status"] == "SUCCEEDED"],
        what="the delivery recorded as SUCCEEDED",
    )


def test_redis_restarted_between_commit_and_enqueue_loses_nothing(stack, receiver, caplog):
    _, sub = _app_and_subscription(stack, receiver.url)
    platform = stack.platform()
    stack.start_worker()
    stack.redis.stop()
    with caplog.at_level(logging.WARNING), platform.db.session() as s, s.begin():
        event_id = emit(s, kind="server.status.online", data={"postId": 5, "title": "Lobby"}).event_id
    assert "could not hand 1 event(s)" in caplog.text  # the commit stood; Redis did not answer
    stack.redis.start()  # same port, empty: the relay job that was never enqueued is not there
    [got] = receiver.wait_for(1, timeout=40)
    assert got.headers["x-webhook-id"] == event_id and got.signed_by(sub["secret"])


def test_subscription_commands(stack, receiver):
    _, sub = _app_and_subscription(stack, receiver.url)
    sub_id = str(sub["subscriptionId"])
    assert json.loads(cli(stack, "webhook", "pause", sub_id))["status"] == "PAUSED"
    assert json.loads(cli(stack, "webhook", "resume", sub_id))["status"] == "ACTIVE"
    rotated = json.loads(cli(stack, "webhook", "rotate-secret", sub_id))
    assert rotated["secret"] != sub["secret"] and rotated["previousSecretValidUntil"]
    listed = cli(stack, "webhook", "list")
    assert sub["secret"] not in listed and rotated["secret"] not in listed
    replayed = json.loads(cli(stack, "webhook", "replay", "--since", "2026-01-01 08:00:00"))
    assert replayed == {"since": "2026-01-01T00:00:00+00:00", "requeued": 0}  # read in Asia/Shanghai
    cli(stack, "webhook", "remove", sub_id)
    assert cli(stack, "webhook", "list") == ""
