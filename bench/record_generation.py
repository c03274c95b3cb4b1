"""What the catalogue generation costs a request in the embedded default (SQLite, no Redis).

    .venv/bin/python bench/record_generation.py [--requests 2000]

Without Redis the generation is one row of the database (models.record_cache), read on the
request's own session by a read that consults the record cache. Measured in one run, in process
(Flask's test client, no network): a signed detail read served from the kept record, and the
generation read alone on an open session; printed with their ratio.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from models.catalog.tables import ResourcePost
from models.identity import applications
from models.record_cache import read_generation
from models.types import utcnow
from modhub.app import create_app
from modhub.migrate import upgrade
from modhub.request_signing import sign
from modhub.settings import Settings, finalize


def main() -> None:
    """Print the per-request cost of a kept detail read and of the generation read alone."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    n = parser.parse_args().requests
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder)}/m.db"
        upgrade(url)
        settings = finalize(Settings(data_dir=Path(folder), database_url=url, record_cache_seconds=600))
        app = create_app(settings)
        platform = app.app.extensions["modhub"]
        with platform.db.session() as session, session.begin():
            made = applications.create(
                session, platform.secrets, name="bench", approve=True, per_minute=10**9
            )
            post = ResourcePost(
                section_code="minecraft", main_name="bench", sub_name="s", introduction="i", abbr_name="b",
                cover_image="c.jpg", resource_type="mod", run_platform="forge", status="PUBLISHED",
                visibility="PUBLIC", main_categories=[], tags=[], publish_time=utcnow(), update_time=utcnow(),
            )  # fmt: skip
            session.add(post)
        path = f"/openapi/v2/mods/{post.id}"

        def headers() -> dict:
            ts = str(int(time.time() * 1000))
            return {
                "X-API-Key": made.api_key,
                "X-Timestamp": ts,
                "X-Signature": sign(made.secret_key, "GET", path, ts),
            }

        with app.test_client() as client:
            assert client.get(path, headers=headers()).status_code == 200  # kept now
            started = time.perf_counter()
            for _ in range(n):
                client.get(path, headers=headers())
            request_us = (time.perf_counter() - started) / n * 1e6
        with platform.db.session() as session:
            read_generation(session)
            started = time.perf_counter()
            for _ in range(n):
                read_generation(session)
            read_us = (time.perf_counter() - started) / n * 1e6
    print(f"kept detail read, whole request: {request_us:,.0f} us")
    print(f"generation read alone:           {read_us:,.0f} us ({read_us / request_us:.1%} of the request)")


if __name__ == "__main__":
    main()
