"""Helpers of the catalog tests (imported by their conftest and by any test that needs them)."""

from __future__ import annotations

import datetime as dt
import io
import itertools

from models.catalog.tables import (
    Category,
    DailyStat,
    Rating,
    ResourceAuthor,
    ResourceFile,
    ResourceLink,
    ResourcePost,
    ResourceRelation,
    ResourceVersion,
    RunPlatform,
    Section,
    ServerPost,
    Tag,
)
from models.community.tables import Comment

NOW = dt.datetime(2026, 5, 1, 4, 0, tzinfo=dt.UTC)  # 12:00 in Asia/Shanghai


_n = itertools.count(1)


ALIASES = {"mods": "resource", "resource": "mods"}


class Catalogue:
    """Writes catalogue rows, committed inside the test's rolled-back transaction."""

    def __init__(self, db):
        self.db = db

    def add(self, model, **fields):
        """Insert one row of any model; returns its id."""
        with self.db.session() as session:
            row = model(**fields)
            session.add(row)
            session.commit()
            return row.id

    def section(self, code: str = "minecraft", **fields) -> int:
        """A section (game)."""
        return self.add(
            Section,
            **{
                "code": code,
                "description": "我的世界",
                "english_name": "Minecraft",
                "icon": f"icons/{code}.png",
                **fields,
            },
        )

    def platform(self, code: str = "forge", **fields) -> int:
        """A run platform."""
        return self.add(
            RunPlatform, **{"code": code, "name": code.title(), "icon": f"p/{code}.png", **fields}
        )

    def category(self, code: str, parent: str | None = None, **fields) -> int:
        """A category under a parent code."""
        return self.add(Category, **{"code": code, "name": f"名称 {code}", "parent_code": parent, **fields})

    def tag(self, name: str, section: str = "minecraft") -> int:
        """A tag of a section."""
        return self.add(Tag, section_code=section, name=name)

    def post(self, **fields) -> int:
        """A listed resource post unless fields say otherwise."""
        n = next(_n)
        row = {
            "section_code": "minecraft",
            "main_name": f"机械动力 Create {n}",
            "sub_name": "Create",
            "introduction": "简介 intro",
            "abbr_name": f"create{n}",
            "cover_image": "covers/1.jpg",
            "resource_type": "mod",
            "main_categories": ["mod-tech"],
            "run_platform": "forge",
            "status": "PUBLISHED",
            "visibility": "PUBLIC",
            "publish_time": NOW,
            "update_time": NOW,
            "tags": [],
        }
        return self.add(ResourcePost, **{**row, **fields})

    def author(self, post_id: int, user_id: int, role: str = "OWNER", order: int = 0) -> int:
        """An author of a post."""
        return self.add(ResourceAuthor, post_id=post_id, user_id=user_id, role=role, sort_order=order)

    def link(self, post_id: int, link_type: str = "SOURCE", **fields) -> int:
        """A structured link of a post."""
        return self.add(
            ResourceLink,
            **{"post_id": post_id, "link_type": link_type, "url": "https://git.example/x", **fields},
        )

    def relation(self, post_id: int, target: int, kind: str = "DEPENDENCY", **fields) -> int:
        """A relation of a post to another."""
        return self.add(
            ResourceRelation,
            **{"post_id": post_id, "target_post_id": target, "relation_type": kind, **fields},
        )

    def version(self, post_id: int, number: int, approved: bool = True, **fields) -> int:
        """A version of a post's chain."""
        return self.add(
            ResourceVersion,
            **{
                "post_id": post_id,
                "version_post_id": post_id,
                "version_number": number,
                "approved": approved,
                "resource_version": f"1.{number}",
                "publish_time": NOW,
                **fields,
            },
        )

    def file(self, post_id: int, **fields) -> int:
        """A file of a post."""
        return self.add(
            ResourceFile,
            **{
                "post_id": post_id,
                "title": "主文件 main",
                "file_name": "a.jar",
                "run_platform": "forge",
                "resource_versions": ["1.20.1"],
                "sha256": "ab" * 32,
                "file_size": 1234,
                "publish_time": NOW,
                "update_time": NOW,
                **fields,
            },
        )

    def stored_file(self, storage, post_id: int, content: bytes, **fields) -> int:
        """`content` put in `storage` (the app's) and recorded as a DIRECT_UPLOAD file of a post."""
        obj = storage.put(io.BytesIO(content))
        return self.add(
            ResourceFile,
            **{
                "post_id": post_id,
                "title": "主文件 main",
                "file_name": "模组-1.0.jar",
                "run_platform": "forge",
                "resource_versions": ["1.20.1"],
                "storage_type": "DIRECT_UPLOAD",
                "object_key": obj.key,
                "file_size": obj.size,
                "sha1": obj.sha1,
                "sha256": obj.sha256,
                "sha512": obj.sha512,
                **fields,
            },
        )

    def comment(self, post_id: int, user_id: int, **fields) -> int:
        """A comment on a resource post."""
        return self.add(
            Comment,
            **{
                "entity_type": "RESOURCE_POST",
                "entity_id": post_id,
                "user_id": user_id,
                "content": "<p>好评 great</p>",
                "create_time": NOW,
                **fields,
            },
        )

    def rating(self, post_id: int, user_id: int, score: int) -> int:
        """A user's rating of a post."""
        return self.add(Rating, post_id=post_id, user_id=user_id, score=score)

    def daily(self, post_id: int, day: dt.date, views=0, downloads=0, collects=0) -> int:
        """One day of counters of a post."""
        return self.add(
            DailyStat, post_id=post_id, day=day, views=views, downloads=downloads, collects=collects
        )

    def server(self, **fields) -> int:
        """A server post."""
        return self.add(
            ServerPost,
            **{
                "section_code": "minecraft",
                "main_name": "服务器 Server",
                "server_ip": "play.example.net",
                "server_port": 25565,
                "server_status": "ONLINE",
                "current_players": 5,
                "max_players": 50,
                "last_heartbeat_time": NOW,
                "publish_time": NOW,
                **fields,
            },
        )


def both(path: str) -> list[str]:
    """A /openapi/v2 path under both its aliases (mods and resource)."""
    return [path, path.replace("/mods/", "/resource/", 1)] if "/mods/" in path else [path]


def data(response) -> object:
    """The envelope's data of a successful answer."""
    body = response.json()
    assert response.status_code == 200 and body["code"] == 0, response.text
    return body["data"]


def error_code(response, status: int) -> int:
    """The envelope's code of an error answer with the given HTTP status."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["ok"] is False and body["data"] is None
    return body["code"]
