"""Fresh request ids (modhub.envelope) and the remembered ETags of kept records (modhub.etags)."""

from __future__ import annotations

import os
import re

from modhub import envelope, etags


def test_fresh_request_ids_are_32_hex_digits_and_never_repeat():
    ids = {envelope.request_id_from(None) for _ in range(10_000)}
    assert len(ids) == 10_000
    assert all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)


def test_a_forked_child_draws_other_request_ids_than_its_parent():
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its first ids, to the parent
        os.write(write, " ".join(envelope.request_id_from(None) for _ in range(3)).encode())
        os._exit(0)
    os.close(write)
    child = os.read(read, 4096).decode().split()
    os.waitpid(pid, 0)
    os.close(read)
    parent = [envelope.request_id_from(None) for _ in range(3)]
    assert len(child) == 3 and not set(child) & set(parent)


def test_a_kept_records_etag_is_its_etag_and_the_memory_stays_bounded(monkeypatch):
    monkeypatch.setattr(etags, "_KEPT_TAGS", {})
    monkeypatch.setattr(etags, "KEPT_TAGS_MAX", 3)
    records = [b'{"postId":%d}' % i for i in range(5)]
    for record in records:
        assert etags.etag_of_kept(record) == etags.etag_of(record)
        assert etags.etag_of_kept(record) == etags.etag_of(record)  # remembered
        assert len(etags._KEPT_TAGS) <= 3
    assert etags.etag_of_kept(b'{"postId":0}') == etags.etag_of(records[0])  # equal bytes, any object
