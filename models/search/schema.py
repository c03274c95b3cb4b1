"""Database artifacts of search and sync that migration 0005 builds outside the models.

They are dialect-specific (PostgreSQL generated tsvector/trigram columns and an xid8 change
position; SQLite an FTS5 table and a change counter), maintained by triggers, and never written
by the ORM, so the models leave them out; `include_object` keeps the models-vs-migrations
comparison (migrations/env.py and tests/unit/test_migrations.py) from reporting them.
"""

from __future__ import annotations

from sqlalchemy import Column
from sqlalchemy.sql.schema import SchemaItem

UNMODELLED_COLUMNS = {
    ("resource_post", name) for name in ("search_doc", "search_tsv", "search_rating", "sync_xid", "sync_seq")
}
UNMODELLED_INDEXES = {"ix_resource_post_sync_xid", "ix_resource_post_sync_seq"} | {
    f"ix_resource_post_search_{name}"
    for name in (
        "tsv",
        "trgm",
        "categories",
        "filters",
        "updated",
        "downloads",
        "likes",
        "published",
        "rating",
    )
}
UNMODELLED_INDEXES |= {"ix_community_post_search_trgm", "ix_community_post_suggest"}  # 0008
COMMUNITY_SEARCHED = ("community_post", "community_answer", "community_moment")  # 0010
UNMODELLED_COLUMNS |= {(table, "search_tsv") for table in COMMUNITY_SEARCHED}
UNMODELLED_INDEXES |= {f"ix_{table}_search_tsv" for table in COMMUNITY_SEARCHED} | {
    "ix_community_answer_search_trgm",
    "ix_community_moment_search_trgm",
    "ix_resource_post_suggest",
    "ix_community_post_suggest_live",
}
UNMODELLED_TABLES = {"resource_post_fts"} | {f"{table}_fts" for table in COMMUNITY_SEARCHED}
UNMODELLED_TABLES |= {"community_search_doc", "resource_search_doc"}  # 0012: kept by triggers


def include_object(
    obj: SchemaItem, name: str | None, type_: str, reflected: bool, compare_to: SchemaItem | None
) -> bool:
    """Alembic hook (its include_object): False for the search and sync artifacts that only the
    database knows."""
    if type_ == "column" and isinstance(obj, Column):  # alembic passes Column objects for columns
        return (obj.table.name, name) not in UNMODELLED_COLUMNS
    if type_ == "index":
        return name not in UNMODELLED_INDEXES
    if type_ == "table" and name is not None:  # alembic names every table
        return not (name in UNMODELLED_TABLES or any(name.startswith(f"{fts}_") for fts in UNMODELLED_TABLES))
    return True
