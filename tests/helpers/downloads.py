"""Helpers of the downloads tests (imported by their conftest and by any test that needs them)."""

from __future__ import annotations


def fetch(client, url: str, **kwargs):
    """GET a link the way a download manager does (relative or absolute), following nothing."""
    path = url.split("://", 1)[-1].split("/", 1)[-1] if "://" in url else url.lstrip("/")
    return client.get("/" + path, **kwargs)
