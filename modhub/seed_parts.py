"""Parts of the demo seed (modhub.seed): the background store of demo file bytes, server rows."""

from __future__ import annotations

import datetime as dt
import io
import queue
import random
import threading

from modhub import seed_data as V
from modhub import seed_rows as R


class FileStore:
    """Puts demo file bytes into a storage from one background thread, each (name, size) once.

    The storage is content-addressed and `put` idempotent: if the seed's transaction fails, the
    blobs already put stay unreferenced and a new seed puts the same bytes again harmlessly.
    """

    def __init__(self, storage):
        self.storage = storage
        self.seen: set[tuple[str, int]] = set()
        self.queue: queue.Queue = queue.Queue(maxsize=4096)
        self.error: BaseException | None = None
        self.thread = None
        if storage is not None:
            self.thread = threading.Thread(target=self._run, name="seed-files", daemon=True)
            self.thread.start()

    def add(self, name: str, size: int) -> None:
        if self.error is not None:
            raise self.error
        if (name, size) not in self.seen:
            self.seen.add((name, size))
            self.queue.put((name, size))

    def _run(self) -> None:
        while (item := self.queue.get()) is not None:
            if self.error is None:
                try:
                    self.storage.put(io.BytesIO(R.demo_content(*item)))
                except BaseException as exc:  # noqa: BLE001 - re-raised in the seeding thread
                    self.error = exc

    def close(self) -> None:
        """Wait for the puts queued so far; raise the first failure."""
        if self.thread is not None:
            self.queue.put(None)
            self.thread.join()
            self.thread = None
        if self.error is not None:
            raise self.error


def server_rows(rng: random.Random, now: dt.datetime, user_ids: list[int], count: int) -> list[dict]:
    sections = [s for s in V.SECTIONS if s[4]]
    rows = []
    for i in range(count):
        section = rng.choice(sections)[0]
        status = rng.choice(V.SERVER_STATUSES)
        cap = rng.choice([20, 50, 100, 200])
        rows.append(
            {
                "section_code": section,
                "user_id": rng.choice(user_ids),
                "main_name": f"{rng.choice(V.ZH_PREFIX)}服务器 #{i + 1} {rng.choice(V.EN_SUFFIX)} Server",
                "server_ip": f"play{i + 1}.example.net",
                "server_port": 25565 + i % 7,
                "query_enabled": rng.random() < 0.85,
                "query_type": rng.choice(["MINECRAFT", "A2S", "NONE"]),
                "current_players": rng.randint(0, cap) if status == "ONLINE" else 0,
                "max_players": cap,
                "server_status": status,
                "server_motd": "欢迎 Welcome!",
                "latency_ms": rng.randint(5, 300) if status == "ONLINE" else None,
                "last_heartbeat_time": now - rng.uniform(0, 48) * dt.timedelta(hours=1),
                "publish_time": now - rng.uniform(1, 400) * R.DAY,
                "update_time": now,
                "is_delete": rng.random() < 0.05,
            }
        )
    return rows
