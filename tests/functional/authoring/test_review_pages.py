"""The review queue pages: moderators only, CSRF on every form, diff, approve and reject; and the
same pages in real Chromium, styled by the one stylesheet under the strict CSP."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from models.authoring import service
from models.authoring.tables import ResourceDraft
from models.catalog.tables import Category, ResourcePost, Section
from models.community.tables import Notification
from models.console.service import set_role
from models.identity import accounts
from models.identity.tables import User
from models.types import utcnow
from tests.functional.identity.test_identity_site import csrf
from tests.functional.site.browser import assert_styled, needs_chromium, wait

PASSWORD = "review-pass-1"


def seed(session) -> dict:
    """Moderator, plain user, author; a NEW draft and an EDIT draft of a published post, in review."""
    people = {
        name: User(username=name, login_name=f"{name}_login", password_hash=accounts.hash_password(PASSWORD))
        for name in ("mod", "plain", "author")
    }
    session.add_all([*people.values(), Section(code="minecraft", description="我的世界")])
    mod_type = Category(code="mod", name="模组")
    tech = Category(code="mod-tech", name="科技", parent_code="mod")
    session.add_all([mod_type, tech])
    session.flush()
    set_role(session, user_id=people["mod"].id, role="moderator")
    author = people["author"].id
    post = ResourcePost(
        section_code="minecraft",
        main_name="旧名 Old",
        user_id=author,
        status="PUBLISHED",
        publish_time=utcnow(),
        main_categories=["mod-tech"],
        tags=[],
        display_images=[],
    )
    session.add(post)
    session.flush()
    body = {
        "mainName": "新资源 New",
        "sectionCode": "minecraft",
        "resourceTypeId": mod_type.id,
        "mainCategory": str(tech.id),
    }
    new = service.save_draft(session, user_id=author, draft_id=0, body=body)
    service.publish_draft(session, user_id=author, draft_id=new.id, body={})
    service.edit_resource(session, user_id=author, post_id=post.id, body={"mainName": "新名 Renamed"})
    edit = session.scalar(select(ResourceDraft.id).where(ResourceDraft.parent_post_id == post.id))
    return {
        "post": post.id,
        "new": new.id,
        "edit": edit,
        "author": author,
        **{name: u.id for name, u in people.items()},
    }


@pytest.fixture()
def settings(settings):
    """Plain-HTTP site URL, so the test client sends the session cookie back."""
    return settings.replace(site_url="http://testserver")


@pytest.fixture()
def ids(db):
    with db.session() as session, session.begin():
        return seed(session)


def log_in(client, name):
    client.cookies.clear()
    page = client.get("/login")
    done = client.post(
        "/login",
        data={"csrf_token": csrf(page), "login": f"{name}_login", "password": PASSWORD},
        follow_redirects=False,
    )
    assert done.status_code == 302


def test_queue_is_for_moderators_only(client, ids):
    assert client.get("/moderation", follow_redirects=False).status_code == 302  # log in first
    log_in(client, "plain")
    assert client.get("/moderation").status_code == 403
    assert client.get(f"/moderation/{ids['new']}").status_code == 403
    log_in(client, "mod")
    page = client.get("/moderation")
    assert page.status_code == 200 and f'id="queue-{ids["new"]}"' in page.text
    assert f'id="queue-{ids["edit"]}"' in page.text and "<script" not in page.text
    detail = client.get(f"/moderation/{ids['edit']}")
    assert "旧名 Old" in detail.text and "新名 Renamed" in detail.text
    assert client.get("/moderation/99999999").status_code == 404


def test_decisions_need_the_csrf_token_and_a_reason(client, db, ids):
    log_in(client, "mod")
    refused = client.post(f"/moderation/{ids['new']}/approve", data={"csrf_token": "forged"})
    assert refused.status_code == 400
    page = client.get(f"/moderation/{ids['new']}")
    no_reason = client.post(
        f"/moderation/{ids['new']}/reject", data={"csrf_token": csrf(page), "reason": " "}
    )
    assert no_reason.status_code == 400
    with db.session() as s:
        assert s.get(ResourceDraft, ids["new"]).state == "PENDING_REVIEW"
    done = client.post(
        f"/moderation/{ids['new']}/approve", data={"csrf_token": csrf(page)}, follow_redirects=False
    )
    assert done.status_code == 302
    with db.session() as s:
        assert s.get(ResourcePost, ids["new"]).status == "PUBLISHED"
        assert s.get(ResourceDraft, ids["new"]).reviewer_id == ids["mod"]
    again = client.post(f"/moderation/{ids['new']}/approve", data={"csrf_token": csrf(page)})
    assert again.status_code == 409  # REVIEW_NOT_PENDING, on the error page


@needs_chromium
def test_review_queue_in_chromium(browser, site, shots):
    base, platform = site
    with platform.db.session() as session, session.begin():
        ids = seed(session)
    browser.get(f"{base}/login?next=/moderation")
    wait(browser, "#login").send_keys("mod_login")
    browser.find_element("css selector", "#password").send_keys(PASSWORD)
    browser.find_element("css selector", "#submit").click()
    wait(browser, f"#queue-{ids['edit']}")
    assert_styled(browser, shots, "moderation-queue")
    browser.find_element("css selector", f"#open-{ids['edit']}").click()
    row = wait(browser, "#change-main_name")
    assert row.find_element("css selector", ".was").text == "旧名 Old"
    assert row.find_element("css selector", ".now").text == "新名 Renamed"
    color = browser.execute_script(
        "return getComputedStyle(document.querySelector('#change-main_name .was')).textDecorationLine;"
    )
    assert color == "line-through"  # the stylesheet's diff colours apply
    assert_styled(browser, shots, "moderation-diff")
    browser.find_element("css selector", "#approve").click()
    assert ids["edit"] and wait(browser, "#done")
    browser.find_element("css selector", f"#open-{ids['new']}").click()
    wait(browser, "#reason").send_keys("分类不对 wrong category")
    browser.find_element("css selector", "#reject").click()
    wait(browser, "#queue-empty")
    assert_styled(browser, shots, "moderation-empty")
    with platform.db.session() as s:
        post = s.get(ResourcePost, ids["post"])
        assert (post.main_name, post.post_version) == ("新名 Renamed", 2)
        draft = s.get(ResourceDraft, ids["new"])
        assert (draft.state, draft.reject_reason) == ("REJECTED", "分类不对 wrong category")
        notes = s.scalars(select(Notification.content).where(Notification.user_id == ids["author"])).all()
        assert any("分类不对 wrong category" in n for n in notes)
