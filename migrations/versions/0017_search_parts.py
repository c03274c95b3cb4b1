"""search parts: the words of resource_search_doc also indexed in eight parts by postId (PostgreSQL)

A keyword search counts its matches up to the cap (10,001 rows). With one GIN index, PostgreSQL
builds the bitmap of every match before it reads the first row: a common phrase of the demo
catalogue at a million resources matches 150,803 documents, while the cap needs 10,001. Eight
partial indexes of search_tsv (ix_resource_search_doc_tsv_0 to _7), each over the stripes of 8,192
consecutive postIds numbered its part modulo 8, let a broad catalogue count a keyword's words one
part after the other and stop at the part that reaches the cap: the other parts' bitmaps are never
built (models/search/tier_count.py). The whole index stays for the tiers, which read a tier's
newest matches in one bitmap. Together the eight parts are about the size of the whole index; a
document's write updates one of them.

Revision ID: 0017_search_parts
Revises: 0016_search_lowered
Create Date: 2026-11-28
"""

from alembic import op

revision = "0017_search_parts"
down_revision = "0016_search_lowered"
branch_labels = None
depends_on = None

PARTS, STRIPE = 8, 8192  # models/search/tier_count.py: the same numbers


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("SET LOCAL maintenance_work_mem = '256MB'")
        for part in range(PARTS):
            op.execute(
                f"CREATE INDEX ix_resource_search_doc_tsv_{part} ON resource_search_doc USING gin (search_tsv) "
                f"WHERE ((id / {STRIPE}) % {PARTS}) = {part}"
            )
        op.execute("ANALYZE resource_search_doc")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for part in range(PARTS):
            op.execute(f"DROP INDEX ix_resource_search_doc_tsv_{part}")
