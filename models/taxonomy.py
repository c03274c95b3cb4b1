"""Sections (games), run platforms (mod loaders), categories and tags."""

from __future__ import annotations

from sqlalchemy import String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base
from models.types import id_pk, str64, str128


class Section(Base):
    """A section (game); resource and server posts belong to one."""

    __tablename__ = "section"

    id: Mapped[id_pk]
    code: Mapped[str64] = mapped_column(unique=True)
    description: Mapped[str128]
    english_name: Mapped[str | None] = mapped_column(String(128))
    parent_code: Mapped[str | None] = mapped_column(String(64))
    icon: Mapped[str | None] = mapped_column(String(512))
    sort_order: Mapped[int] = mapped_column(default=0)
    enable: Mapped[bool] = mapped_column(default=True)
    server_post_enabled: Mapped[bool] = mapped_column(default=True)
    resource_post_enabled: Mapped[bool] = mapped_column(default=True)
    is_delete: Mapped[bool] = mapped_column(default=False)


class RunPlatform(Base):
    """A run platform (mod loader such as Forge or Fabric)."""

    __tablename__ = "run_platform"

    id: Mapped[id_pk]
    code: Mapped[str64] = mapped_column(unique=True)
    name: Mapped[str128]
    description: Mapped[str | None] = mapped_column(Text)
    icon: Mapped[str | None] = mapped_column(String(512))
    sort_order: Mapped[int] = mapped_column(default=0)
    enable: Mapped[bool] = mapped_column(default=True)
    is_delete: Mapped[bool] = mapped_column(default=False)


class Category(Base):
    """A category; top-level categories are resource types, their children main categories.

    `section_code` null means the category applies to every section.
    """

    __tablename__ = "category"

    id: Mapped[id_pk]
    code: Mapped[str64] = mapped_column(unique=True)
    name: Mapped[str128]
    description: Mapped[str | None] = mapped_column(Text)
    icon: Mapped[str | None] = mapped_column(String(512))
    parent_code: Mapped[str | None] = mapped_column(String(64), index=True)
    section_code: Mapped[str | None] = mapped_column(String(64), index=True)
    sort_order: Mapped[int] = mapped_column(default=0)
    is_delete: Mapped[bool] = mapped_column(default=False)


class Tag(Base):
    """A tag of a section, attached to resource posts by name."""

    __tablename__ = "tag"
    __table_args__ = (UniqueConstraint("section_code", "name", name="uq_tag_section_name"),)

    id: Mapped[id_pk]
    section_code: Mapped[str64]
    name: Mapped[str64]
    is_delete: Mapped[bool] = mapped_column(default=False)
