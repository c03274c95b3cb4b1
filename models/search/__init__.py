"""Search domain: keyword search over listed posts and the incremental sync feed (no tables of its own).

service.py the resource search; sync.py the sync feed; backends.py the one small search interface
with its PostgreSQL and SQLite implementations; schema.py the search/sync database artifacts that
migration 0005 builds outside the mapped classes (Alembic's include_object).
"""
