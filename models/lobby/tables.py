"""Lobby tables: the lobby part of a server post, its resource rows, and the store-wide registry
of uploaded content (one row per sha256) that arbitrates deduplication and the sweep.

A lobby post IS a `server_post` row (address, port, status: the server status events apply to
it) plus a `lobby_post` row with the fields only a lobby post has.

Resource rows (`lobby_resource`):
- state PENDING: reserved, waiting for its upload (uploadToken hash set until the upload starts);
- state UPLOADED: its bytes are stored under object_key (= sha256), so it references them;
- state TOMBSTONE: an UPLOADED row that was cancelled: kept for history, references nothing;
- state LISTED: a COMMUNITY or BUILTIN item of a post's resource list (nothing uploaded here).
`listed` marks the rows that make up a post's resource list (the manifest); post_id NULL is a
user's staging area (reserved before the post was published).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import JSON, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base
from models.types import BigId, UTCDateTime, id_pk, str32, utc_time, utcnow

PENDING, UPLOADED, TOMBSTONE, LISTED = "PENDING", "UPLOADED", "TOMBSTONE", "LISTED"
STORED = "STORED"
SOURCES = ("COMMUNITY", "BUILTIN", "USER_UPLOAD")
SIDES = ("SERVER", "CLIENT", "BOTH")
RESOURCE_TYPES = ("mod", "modpack", "world", "plugin", "config", "core", "loader", "dataPack")


class LobbyPost(Base):
    """The lobby-only fields of a server post (same id as its server_post row)."""

    __tablename__ = "lobby_post"

    id: Mapped[int] = mapped_column(BigId, ForeignKey("server_post.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigId, ForeignKey("app_user.id"), index=True)
    post_title: Mapped[str] = mapped_column(String(255))
    server_password: Mapped[str | None] = mapped_column(String(255))
    server_versions: Mapped[list[str]] = mapped_column(JSON, default=list)
    main_play_type: Mapped[str | None] = mapped_column(String(64))
    server_type: Mapped[str | None] = mapped_column(String(64))
    run_platform: Mapped[str | None] = mapped_column(String(64))
    online_type: Mapped[str | None] = mapped_column(String(64))
    cover_image_url: Mapped[str | None] = mapped_column(String(1024))
    md_content: Mapped[str | None] = mapped_column(Text)
    is_req_down_client: Mapped[bool] = mapped_column(default=False)
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)
    update_time: Mapped[utc_time] = mapped_column(default=utcnow)
    is_delete: Mapped[bool] = mapped_column(default=False)


class LobbyResource(Base):
    """A reserved, uploaded, cancelled or listed resource of a lobby post (see module doc)."""

    __tablename__ = "lobby_resource"
    __table_args__ = (
        Index("ix_lobby_resource_post_listed", "post_id", "listed"),
        Index("ix_lobby_resource_sha256_state", "sha256", "state"),
        Index("ix_lobby_resource_user_sha256", "user_id", "sha256"),
    )

    id: Mapped[id_pk]
    post_id: Mapped[int | None] = mapped_column(BigId, ForeignKey("server_post.id"))
    user_id: Mapped[int] = mapped_column(BigId, ForeignKey("app_user.id"))
    source: Mapped[str32] = mapped_column(default="USER_UPLOAD")
    state: Mapped[str32]
    listed: Mapped[bool] = mapped_column(default=False)
    sha256: Mapped[str | None] = mapped_column(String(64))
    size_bytes: Mapped[int | None] = mapped_column(BigId)
    object_key: Mapped[str | None] = mapped_column(String(512))
    name: Mapped[str | None] = mapped_column(String(255))
    version: Mapped[str | None] = mapped_column(String(128))
    resource_type: Mapped[str | None] = mapped_column(String(32))
    environment_side: Mapped[str32] = mapped_column(default="BOTH")
    client_install_path: Mapped[str | None] = mapped_column(String(512))
    extra_json: Mapped[str | None] = mapped_column(Text)
    community_post_id: Mapped[int | None] = mapped_column(BigId)
    community_file_id: Mapped[int | None] = mapped_column(BigId)
    download_url: Mapped[str | None] = mapped_column(Text)
    download_url_expires_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    claim_expires_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)
    update_time: Mapped[utc_time] = mapped_column(default=utcnow)
    is_delete: Mapped[bool] = mapped_column(default=False)


class LobbyBlob(Base):
    """One uploaded content (by sha256): PENDING while one reservation holds the upload claim,
    STORED once the bytes are in the storage. Reserve and sweep lock this row, so a sha256 is
    claimed by one upload at a time and bytes are never swept while a reserve reuses them."""

    __tablename__ = "lobby_blob"

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    state: Mapped[str32]
    size_bytes: Mapped[int | None] = mapped_column(BigId)
    sha1: Mapped[str | None] = mapped_column(String(40))
    sha512: Mapped[str | None] = mapped_column(String(128))
    claim_resource_id: Mapped[int | None] = mapped_column(BigId)
    claim_expires_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    create_time: Mapped[utc_time] = mapped_column(default=utcnow)
    touched_time: Mapped[utc_time] = mapped_column(default=utcnow)
