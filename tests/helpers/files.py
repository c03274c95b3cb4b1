"""Helpers of the files tests (imported by their conftest and by any test that needs them)."""

from __future__ import annotations

import socket


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def s3_client(endpoint: str):
    """A boto3 client of the moto server with dummy credentials."""
    import boto3
    from botocore.config import Config

    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
        config=Config(signature_version="s3v4", s3={"addressing_style": "path"}),
    )


def file_paths(post_id: int, file_id: int, suffix: str = "") -> list[str]:
    """A file path under both aliases: /mods/{p}/files/{f} and /resource/{p}/file/{f}."""
    return [
        f"/openapi/v2/mods/{post_id}/files/{file_id}{suffix}",
        f"/openapi/v2/resource/{post_id}/file/{file_id}{suffix}",
    ]
