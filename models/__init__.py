"""SQLAlchemy 2.0 typed models and the domain functions that read and change them."""

from models.base import Base
from models.catalog import ResourcePost, ServerPost
from models.identity import Application, ProxyToken, User
from models.resource_parts import (
    Comment,
    DailyStat,
    Rating,
    ResourceAuthor,
    ResourceFile,
    ResourceLink,
    ResourceRelation,
    ResourceVersion,
)
from models.taxonomy import Category, RunPlatform, Section, Tag

__all__ = [
    "Base", "Application", "ProxyToken", "User", "ResourcePost", "ServerPost", "Comment",
    "DailyStat", "Rating", "ResourceAuthor", "ResourceFile", "ResourceLink", "ResourceRelation",
    "ResourceVersion", "Category", "RunPlatform", "Section", "Tag",
]
