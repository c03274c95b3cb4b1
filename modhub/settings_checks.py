"""The start-up checks of the settings: production's demands and every value's range and form;
one SettingsError (one line, exit 2) for the first thing wrong."""

from __future__ import annotations

from modhub.settings import Settings, SettingsError, _env


def check_production(settings: Settings) -> None:
    missing = [
        n
        for n, v in (
            ("DATABASE_URL", _env("DATABASE_URL") or not settings.embedded),
            ("ENCRYPTION_KEY", settings.encryption_key),
            ("REDIS_URL", settings.redis_url),
        )
        if not v
    ]
    if missing:
        raise SettingsError(
            "production mode needs "
            + ", ".join(f"MODHUB_{m}" for m in missing)
            + " (generate a key with: modhub keygen)"
        )
    if not settings.storage_url and not settings.allow_local_storage:
        raise SettingsError(
            "production mode needs MODHUB_STORAGE_URL=s3://bucket (files on one host's disk are not "
            "shared by other hosts); set MODHUB_ALLOW_LOCAL_STORAGE=true to keep the local folder"
        )
    if settings.webhook_allow_private:
        raise SettingsError("MODHUB_WEBHOOK_ALLOW_PRIVATE is for development: production mode refuses it")


def check_values(settings: Settings) -> None:
    """Every value that can be checked without a connection: one SettingsError naming the first bad one."""
    from urllib.parse import urlsplit
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(settings.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise SettingsError(f"MODHUB_TIME_ZONE is not an IANA time zone: {settings.time_zone!r}") from None
    if settings.webhook_lease_seconds <= settings.webhook_timeout_seconds:
        raise SettingsError(
            "MODHUB_WEBHOOK_LEASE_SECONDS must exceed MODHUB_WEBHOOK_TIMEOUT_SECONDS "
            "(a delivery's lease must outlive its request)"
        )
    for name, value in (("TRUSTED_PROXIES", "trusted_networks"), ("METRICS_ALLOW", "metrics_networks")):
        try:
            getattr(settings, value)
        except ValueError as exc:
            raise SettingsError(f"MODHUB_{name}: {exc}") from None
    for name, value in (("SITE_URL", settings.site_url), ("BASE_URL", settings.base_url)):
        parts = urlsplit(value)
        if value and (parts.scheme not in ("http", "https") or not parts.netloc):
            raise SettingsError(f"MODHUB_{name} must be an http(s) URL, got {value!r}")
    if settings.redis_url:
        _check_redis_url(settings.redis_url)
    if settings.storage_url:
        parts = urlsplit(settings.storage_url)
        if parts.scheme != "s3" or not parts.netloc:
            raise SettingsError(
                f"MODHUB_STORAGE_URL must be empty or s3://bucket[/prefix], got {settings.storage_url!r}"
            )
    if settings.shutdown_drain_seconds >= settings.shutdown_grace_seconds:
        raise SettingsError(
            "MODHUB_SHUTDOWN_DRAIN_SECONDS must be less than MODHUB_SHUTDOWN_GRACE_SECONDS "
            "(the drain is part of the grace period)"
        )
    if settings.log_format not in ("text", "json"):
        raise SettingsError(f"MODHUB_LOG_FORMAT must be text or json, got {settings.log_format!r}")
    if settings.log_level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise SettingsError(
            f"MODHUB_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {settings.log_level!r}"
        )
    if settings.install_signing_key:
        from modhub.core.script_signing import InstallSigner

        try:
            InstallSigner.from_pem(settings.install_signing_key.replace("\\n", "\n").encode())
        except (ValueError, TypeError) as exc:
            raise SettingsError(
                f"MODHUB_INSTALL_SIGNING_KEY is not an unencrypted RSA private key in PEM ({exc})"
            ) from None


def _check_redis_url(url: str) -> None:
    from redis.connection import parse_url

    try:
        parse_url(url)
    except ValueError as exc:
        raise SettingsError(f"MODHUB_REDIS_URL is not a Redis URL (redis://host:6379/0): {exc}") from None
