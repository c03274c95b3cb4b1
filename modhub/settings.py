"""Settings: one object read from the environment once (`MODHUB_*`) and passed to create_app."""

from __future__ import annotations

import dataclasses
import ipaddress
import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography.fernet import Fernet

from modhub.db import database_url

log = logging.getLogger(__name__)


class SettingsError(RuntimeError):
    """A setting is missing or malformed; raised at start-up, never on a request."""


@dataclass(frozen=True)
class Settings:
    """Every tunable of the service. Defaults describe the embedded mode (SQLite, no Redis)."""

    data_dir: Path = Path("modhub-data")
    database_url: str = ""
    redis_url: str = ""
    encryption_key: str = ""
    site_url: str = ""
    base_url: str = ""
    cdn_base_url: str = ""
    time_zone: str = "Asia/Shanghai"
    trusted_proxies: tuple[str, ...] = ()
    max_body_bytes: int = 1024 * 1024
    max_upload_bytes: int = 512 * 1024 * 1024
    max_header_bytes: int = 32 * 1024
    timestamp_window_seconds: int = 300
    app_cache_seconds: float = 5.0
    record_cache_seconds: float = 30.0  # catalogue records kept per process (0: off)
    default_per_minute: int = 100
    default_per_day: int = 10_000
    validate_responses: bool = False
    production: bool = False
    webhook_allow_private: bool = False
    webhook_queue: str = "webhooks"
    webhook_timeout_seconds: float = 10.0
    webhook_lease_seconds: float = 30.0
    webhook_sweep_seconds: float = 10.0
    webhook_retention_days: int = 30  # finished deliveries and their events kept (0: forever)
    maintenance_interval_seconds: float = 3600.0  # `modhub worker` runs the maintenance jobs (0: off)
    webhook_batch_size: int = 50
    webhook_concurrency: int = 8
    storage_url: str = ""
    s3_endpoint_url: str = ""
    s3_region: str = ""
    s3_access_key_id: str = ""
    s3_secret_access_key: str = ""
    install_signing_key: str = ""
    # distinct reporters of unresolved download failures that hide a resource; 0 = never hide
    download_failure_hide_threshold: int = 5
    # new download-failure reports (distinct fingerprints) one application may open a day
    download_failure_reports_per_app_day: int = 500
    sensitive_words: tuple[str, ...] = ()  # private-message check: "word" (BLOCK) or "word:REVIEW"
    # operations (health, metrics, logs, bounded waits): described in DESCRIBED below
    allow_local_storage: bool = False
    spool_dir: Path | None = None
    shutdown_grace_seconds: float = 30.0
    shutdown_drain_seconds: float = 0.0
    ready_timeout_seconds: float = 2.0
    metrics_token: str = ""
    metrics_allow: tuple[str, ...] = ()
    metrics_dir: Path | None = None
    log_format: str = "text"
    log_level: str = "INFO"
    access_log: bool = True
    db_connect_timeout_seconds: float = 5.0
    db_statement_timeout_seconds: float = 30.0
    db_pool_size: int = 10
    db_max_overflow: int = 20
    db_pool_timeout_seconds: float = 5.0
    db_pre_ping: bool = False
    db_application_name: str = "modhub"
    redis_timeout_seconds: float = 1.0
    s3_connect_timeout_seconds: float = 3.0
    s3_read_timeout_seconds: float = 10.0
    s3_max_attempts: int = 3

    @property
    def embedded(self) -> bool:
        """True when the database is the embedded SQLite default."""
        return self.database_url.startswith("sqlite")

    @property
    def metrics_networks(self) -> tuple:
        """The addresses and networks /metrics answers (empty: any)."""
        return tuple(ipaddress.ip_network(p, strict=False) for p in self.metrics_allow)

    @property
    def trusted_networks(self) -> tuple:
        """The trusted proxy addresses and networks, parsed."""
        return tuple(ipaddress.ip_network(p, strict=False) for p in self.trusted_proxies)

    def replace(self, **changes) -> Settings:
        """A copy with some settings changed (tests pass their own settings this way)."""
        return dataclasses.replace(self, **changes)


# What every MODHUB_* variable means. docs/operate/settings.md is generated from this table
# (`python docs/generate.py`), and tests/unit/test_docs.py checks both ways that every MODHUB_*
# variable the code reads has a line here and that every line here is read: a new setting needs
# its read below (or where it is used) and one line here. (group, NAME without MODHUB_, default,
# meaning in Markdown).
DESCRIBED: tuple[tuple[str, str, str, str], ...] = (
    (
        "Mode and secrets",
        "PRODUCTION",
        "off",
        "`true`/`1`/`yes`/`on` (any case) or `false`/`0`/`no`/`off`; anything else is an error. On: "
        "refuse to start without `MODHUB_DATABASE_URL`, `MODHUB_REDIS_URL`, `MODHUB_ENCRYPTION_KEY`, "
        "an S3 `MODHUB_STORAGE_URL` (or `MODHUB_ALLOW_LOCAL_STORAGE`), with "
        "`MODHUB_WEBHOOK_ALLOW_PRIVATE`, or (`modhub serve`) without `MODHUB_INSTALL_SIGNING_KEY` or "
        "an install key in the database.",
    ),
    (
        "Mode and secrets",
        "ENCRYPTION_KEY",
        "generated into `<data>/encryption.key`",
        "Fernet key encrypting API secrets at rest and deriving the site's cookie key "
        "(`modhub keygen` prints one). Changing it makes every stored API secret unreadable.",
    ),
    (
        "Mode and secrets",
        "DATA_DIR",
        "`./modhub-data`",
        "The embedded mode's folder: SQLite database, generated keys, stored files.",
    ),
    (
        "Mode and secrets",
        "INSTALL_SIGNING_KEY",
        "generated once into the database",
        "RSA private key (PEM) signing install scripts. Unset: the first request that needs it stores"
        " one in the database, sealed with the encryption key, shared by every host; its public key "
        "is served at `GET /openapi/v2/meta/install-signing-key`.",
    ),
    (
        "Databases",
        "DATABASE_URL",
        "SQLite in the data folder",
        "SQLAlchemy URL, e.g. `postgresql+psycopg2://modhub@db/modhub`.",
    ),
    (
        "Databases",
        "REDIS_URL",
        "none (quotas counted per process)",
        "e.g. `redis://cache:6379/0`: shared quotas, replay nonces, download counts, record-cache "
        "generations and the RQ queues. Needed by `modhub worker` and in production.",
    ),
    (
        "Addresses",
        "SITE_URL",
        "none (`modhub run`: its own address)",
        "Public address of the platform site (login, consent, pairing and resource pages): the base "
        "of detailUrl and postUrl, empty / null without it.",
    ),
    (
        "Addresses",
        "BASE_URL",
        "none (`modhub run`: its own address)",
        "Public address of this API: the base of the signed `/storage/...` and `/dl/...` URLs and, "
        "without a CDN, of the display images (`/media/...`).",
    ),
    (
        "Addresses",
        "CDN_BASE_URL",
        "`MODHUB_BASE_URL/media` (images served by this server)",
        "Base of image and avatar display URLs.",
    ),
    (
        "Addresses",
        "TRUSTED_PROXIES",
        "none",
        "Proxies whose `X-Forwarded-For` is believed: IPs or CIDRs, comma or space separated.",
    ),
    (
        "Requests",
        "TIME_ZONE",
        "`Asia/Shanghai`",
        "Zone of every displayed time (`yyyy-MM-dd HH:mm:ss`); times are stored in UTC.",
    ),
    (
        "Requests",
        "MAX_BODY_BYTES",
        "1048576 (1 MiB)",
        "JSON request body limit; a larger body answers 413 / 200302.",
    ),
    (
        "Requests",
        "MAX_UPLOAD_BYTES",
        "536870912 (512 MiB)",
        "Multipart upload limit; a lobby file may be this less 16 KiB (multipart framing).",
    ),
    (
        "Requests",
        "MAX_HEADER_BYTES",
        "32768 (32 KiB)",
        "Request header limit, names plus values; a larger set answers 431 / 200308.",
    ),
    ("Requests", "TIMESTAMP_WINDOW_SECONDS", "300", "How far `X-Timestamp` may be from the server clock."),
    ("Requests", "DEFAULT_PER_MINUTE", "100", "Per-minute quota of an application that has none of its own."),
    ("Requests", "DEFAULT_PER_DAY", "10000", "Per-day quota of an application that has none of its own."),
    (
        "Caches",
        "APP_CACHE_SECONDS",
        "5",
        "How long a process keeps an application's snapshot (status, secret, quotas, allow-list); "
        "0 keeps nothing. A change made in the console or the CLI is seen by every process within "
        "this time.",
    ),
    (
        "Caches",
        "RECORD_CACHE_SECONDS",
        "30",
        "How long a process keeps catalogue detail and batch records (0: off). See "
        "[the record cache](../maintain/architecture.md#the-record-cache).",
    ),
    (
        "Storage",
        "STORAGE_URL",
        "empty: `<data>/files`",
        "Empty: a content-addressed folder served through HMAC-signed, expiring `/storage/<sha256>` "
        "URLs. `s3://bucket[/prefix]`: any S3-compatible store (presigned GET URLs).",
    ),
    ("Storage", "S3_ENDPOINT_URL", "boto3's default", "The S3 peer's endpoint."),
    ("Storage", "S3_REGION", "boto3's default", "The S3 region."),
    ("Storage", "S3_ACCESS_KEY_ID", "boto3's credential chain", "S3 access key id."),
    ("Storage", "S3_SECRET_ACCESS_KEY", "boto3's credential chain", "S3 secret access key."),
    (
        "Webhooks",
        "WEBHOOK_ALLOW_PRIVATE",
        "off",
        "`1`: accept callbacks on loopback and private addresses, and `http` to them (development only).",
    ),
    ("Webhooks", "WEBHOOK_QUEUE", "`webhooks`", "RQ queue of the webhook jobs."),
    ("Webhooks", "WEBHOOK_TIMEOUT_SECONDS", "10", "Receiver time-out of one attempt."),
    (
        "Webhooks",
        "WEBHOOK_LEASE_SECONDS",
        "30",
        "How long a job owns a delivery before the sweep may send it again; must exceed the time-out.",
    ),
    ("Webhooks", "WEBHOOK_SWEEP_SECONDS", "10", "Sweep period of each `modhub worker`."),
    (
        "Webhooks",
        "WEBHOOK_RETENTION_DAYS",
        "30",
        "Finished deliveries (succeeded, failed, dropped), their attempts and their delivered events "
        "older than this are deleted by the maintenance jobs; `0` keeps them forever.",
    ),
    (
        "Maintenance",
        "MAINTENANCE_INTERVAL_SECONDS",
        "3600",
        "Every `modhub worker` runs the maintenance jobs (storage sweep, identity purge, download "
        "flush, webhook retention) this often, one worker at a time across hosts (a Redis lock); "
        "`0` leaves them to `modhub maintenance run` (cron or the systemd timer).",
    ),
    ("Webhooks", "WEBHOOK_BATCH_SIZE", "50", "Deliveries per job."),
    ("Webhooks", "WEBHOOK_CONCURRENCY", "8", "Concurrent requests per worker."),
    (
        "Content",
        "DOWNLOAD_FAILURE_HIDE_THRESHOLD",
        "5",
        "Distinct votes on unresolved download failures that hide a resource (0: never): a user "
        "reporting with its own proxy token is one vote, anything else one vote of the application.",
    ),
    (
        "Content",
        "DOWNLOAD_FAILURE_REPORTS_PER_APP_DAY",
        "500",
        "New download-failure reports (distinct fingerprints) one application may open in 24 hours "
        "(0: no limit); one more answers 429 / 200104.",
    ),
    (
        "Content",
        "SENSITIVE_WORDS_FILE",
        "none",
        "UTF-8 word list checked on private messages, one entry a line: `word` (message blocked) or "
        "`word:REVIEW` (held for review); `#` comments.",
    ),
    (
        "Development",
        "RECORD_ERROR_CODES",
        "off",
        "A folder: every (operationId, code) answered is recorded there as JSON lines, the input of "
        "`openapi/declare_errors.py --observed` (test runs only).",
    ),
    (
        "Mode and secrets",
        "ALLOW_LOCAL_STORAGE",
        "off",
        "Production mode only: accept the local-disk file storage (one host, or a shared folder).",
    ),
    (
        "Files",
        "SPOOL_DIR",
        "disk: `<data>/files/tmp`; S3: `<data>/spool`",
        "Folder uploads are written to while they are hashed, before they reach the storage; `modhub "
        "storage sweep` removes what a killed upload left there.",
    ),
    (
        "Health, metrics and shutdown",
        "READY_TIMEOUT_SECONDS",
        "2",
        "Time limit of each `/readyz` check (database and schema, Redis, storage; run at once).",
    ),
    (
        "Health, metrics and shutdown",
        "SHUTDOWN_GRACE_SECONDS",
        "30",
        "On SIGTERM: the longest time in-flight requests get; the process exits by then whatever it "
        "waits on.",
    ),
    (
        "Health, metrics and shutdown",
        "SHUTDOWN_DRAIN_SECONDS",
        "0",
        "On SIGTERM: how long `/readyz` answers 503 while the server still serves, before it stops "
        "accepting (set it to the balancer's health interval).",
    ),
    (
        "Health, metrics and shutdown",
        "METRICS_TOKEN",
        "none",
        "Bearer token `GET /metrics` requires.",
    ),
    (
        "Health, metrics and shutdown",
        "METRICS_ALLOW",
        "any address",
        "Addresses or networks `GET /metrics` answers, comma separated (the direct peer, not "
        "X-Forwarded-For).",
    ),
    (
        "Health, metrics and shutdown",
        "METRICS_DIR",
        "`<data>/metrics`",
        "Folder the worker processes of `modhub serve` share their metrics in (emptied at start); set"
        " it for `modhub worker` too to count its webhook deliveries on this host's `/metrics`.",
    ),
    (
        "Health, metrics and shutdown",
        "GIT_REVISION",
        "`git rev-parse` of the source, else `unknown`",
        "The revision label of `modhub_build_info` (set by an image build).",
    ),
    (
        "Logs",
        "LOG_FORMAT",
        "text",
        "`text`: `time level logger [traceId] message`; `json`: one JSON object per line.",
    ),
    (
        "Logs",
        "LOG_LEVEL",
        "INFO (one-shot commands: WARNING)",
        "DEBUG, INFO, WARNING or ERROR.",
    ),
    (
        "Logs",
        "ACCESS_LOG",
        "on",
        "One access record per request (logger `modhub.access`).",
    ),
    (
        "Bounded waits and pools",
        "DB_CONNECT_TIMEOUT_SECONDS",
        "5",
        "Longest wait for a new PostgreSQL connection.",
    ),
    (
        "Bounded waits and pools",
        "DB_STATEMENT_TIMEOUT_SECONDS",
        "30",
        "PostgreSQL statement_timeout; serving and worker processes also stop waiting for an answer "
        "one second later (a hung server).",
    ),
    (
        "Bounded waits and pools",
        "DB_POOL_SIZE",
        "10",
        "PostgreSQL connections kept per process.",
    ),
    (
        "Bounded waits and pools",
        "DB_MAX_OVERFLOW",
        "20",
        "Extra PostgreSQL connections a process may open under load.",
    ),
    (
        "Bounded waits and pools",
        "DB_POOL_TIMEOUT_SECONDS",
        "5",
        "Longest wait for a free pooled connection.",
    ),
    (
        "Bounded waits and pools",
        "DB_PRE_PING",
        "off",
        "Test each pooled connection before use (one more round trip per checkout).",
    ),
    (
        "Bounded waits and pools",
        "DB_APPLICATION_NAME",
        "modhub",
        "`application_name` of the connections (pg_stat_activity).",
    ),
    (
        "Bounded waits and pools",
        "REDIS_TIMEOUT_SECONDS",
        "1",
        "Redis connect and socket time-out of the quota store.",
    ),
    (
        "Bounded waits and pools",
        "S3_CONNECT_TIMEOUT_SECONDS",
        "3",
        "S3 connect time-out.",
    ),
    (
        "Bounded waits and pools",
        "S3_READ_TIMEOUT_SECONDS",
        "10",
        "S3 read time-out.",
    ),
    (
        "Bounded waits and pools",
        "S3_MAX_ATTEMPTS",
        "3",
        "S3 attempts per call, the first included.",
    ),
)


def _env(name: str, default: str = "") -> str:
    return os.environ.get(f"MODHUB_{name}", default).strip()


def _number(name: str, default, kind=int, *, minimum=0):
    """A number setting; below `minimum` (or not a number) is a SettingsError."""
    raw = _env(name)
    try:
        value = kind(raw) if raw else default
    except ValueError as exc:
        raise SettingsError(f"MODHUB_{name} must be a {kind.__name__}, got {raw!r}") from exc
    if value != value or value < minimum:  # NaN or too small
        raise SettingsError(f"MODHUB_{name} must be at least {minimum}, got {raw!r}")
    return value


_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off", "")


def _flag(name: str, default: bool = False) -> bool:
    """A boolean setting: true/1/yes/on or false/0/no/off, any case; anything else is an error."""
    raw = _env(name).lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise SettingsError(f"MODHUB_{name} must be true/1/yes/on or false/0/no/off, got {_env(name)!r}")


def _list(name: str) -> tuple[str, ...]:
    return tuple(p for p in _env(name).replace(",", " ").split() if p)


def _path(name: str) -> Path | None:
    raw = _env(name)
    return Path(raw) if raw else None


def _word_list(path: str) -> tuple[str, ...]:
    """The sensitive-word entries of a UTF-8 file, one a line (blank lines and # comments skipped)."""
    if not path:
        return ()
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise SettingsError(f"MODHUB_SENSITIVE_WORDS_FILE cannot be read: {exc}") from exc
    return tuple(line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#"))


def from_env() -> Settings:
    """Read MODHUB_* once. Production (MODHUB_PRODUCTION=true) demands every secret explicitly."""
    data_dir = Path(_env("DATA_DIR", "modhub-data"))
    settings = Settings(
        data_dir=data_dir,
        database_url=_env("DATABASE_URL") or f"sqlite:///{(data_dir / 'modhub.db').resolve()}",
        redis_url=_env("REDIS_URL"),
        encryption_key=_env("ENCRYPTION_KEY"),
        site_url=_env("SITE_URL").rstrip("/"),
        base_url=_env("BASE_URL").rstrip("/"),
        cdn_base_url=_env("CDN_BASE_URL").rstrip("/"),
        time_zone=_env("TIME_ZONE", "Asia/Shanghai"),
        trusted_proxies=_list("TRUSTED_PROXIES"),
        max_body_bytes=_number("MAX_BODY_BYTES", 1024 * 1024, minimum=1),
        max_upload_bytes=_number("MAX_UPLOAD_BYTES", 512 * 1024 * 1024, minimum=1),
        max_header_bytes=_number("MAX_HEADER_BYTES", 32 * 1024, minimum=1024),
        timestamp_window_seconds=_number("TIMESTAMP_WINDOW_SECONDS", 300, minimum=1),
        app_cache_seconds=_number("APP_CACHE_SECONDS", 5.0, float),
        record_cache_seconds=_number("RECORD_CACHE_SECONDS", 30.0, float),
        default_per_minute=_number("DEFAULT_PER_MINUTE", 100, minimum=1),
        default_per_day=_number("DEFAULT_PER_DAY", 10_000, minimum=1),
        production=_flag("PRODUCTION"),
        webhook_allow_private=_flag("WEBHOOK_ALLOW_PRIVATE"),
        webhook_queue=_env("WEBHOOK_QUEUE", "webhooks"),
        webhook_timeout_seconds=_number("WEBHOOK_TIMEOUT_SECONDS", 10.0, float, minimum=0.1),
        webhook_lease_seconds=_number("WEBHOOK_LEASE_SECONDS", 30.0, float, minimum=0.1),
        webhook_sweep_seconds=_number("WEBHOOK_SWEEP_SECONDS", 10.0, float, minimum=0.1),
        webhook_retention_days=_number("WEBHOOK_RETENTION_DAYS", 30, minimum=0),
        maintenance_interval_seconds=_number("MAINTENANCE_INTERVAL_SECONDS", 3600.0, float, minimum=0),
        webhook_batch_size=_number("WEBHOOK_BATCH_SIZE", 50, minimum=1),
        webhook_concurrency=_number("WEBHOOK_CONCURRENCY", 8, minimum=1),
        storage_url=_env("STORAGE_URL"),
        s3_endpoint_url=_env("S3_ENDPOINT_URL"),
        s3_region=_env("S3_REGION"),
        s3_access_key_id=_env("S3_ACCESS_KEY_ID"),
        s3_secret_access_key=_env("S3_SECRET_ACCESS_KEY"),
        install_signing_key=_env("INSTALL_SIGNING_KEY"),
        download_failure_hide_threshold=_number("DOWNLOAD_FAILURE_HIDE_THRESHOLD", 5),
        download_failure_reports_per_app_day=_number("DOWNLOAD_FAILURE_REPORTS_PER_APP_DAY", 500),
        sensitive_words=_word_list(_env("SENSITIVE_WORDS_FILE")),
        allow_local_storage=_flag("ALLOW_LOCAL_STORAGE"),
        spool_dir=_path("SPOOL_DIR"),
        shutdown_grace_seconds=_number("SHUTDOWN_GRACE_SECONDS", 30.0, float, minimum=1),
        shutdown_drain_seconds=_number("SHUTDOWN_DRAIN_SECONDS", 0.0, float),
        ready_timeout_seconds=_number("READY_TIMEOUT_SECONDS", 2.0, float, minimum=0.1),
        metrics_token=_env("METRICS_TOKEN"),
        metrics_allow=_list("METRICS_ALLOW"),
        metrics_dir=_path("METRICS_DIR"),
        log_format=_env("LOG_FORMAT", "text").lower(),
        log_level=_env("LOG_LEVEL", "INFO").upper(),
        access_log=_flag("ACCESS_LOG", True),
        db_connect_timeout_seconds=_number("DB_CONNECT_TIMEOUT_SECONDS", 5.0, float, minimum=1),
        db_statement_timeout_seconds=_number("DB_STATEMENT_TIMEOUT_SECONDS", 30.0, float, minimum=0.1),
        db_pool_size=_number("DB_POOL_SIZE", 10, minimum=1),
        db_max_overflow=_number("DB_MAX_OVERFLOW", 20),
        db_pool_timeout_seconds=_number("DB_POOL_TIMEOUT_SECONDS", 5.0, float, minimum=0.1),
        db_pre_ping=_flag("DB_PRE_PING"),
        db_application_name=_env("DB_APPLICATION_NAME", "modhub"),
        redis_timeout_seconds=_number("REDIS_TIMEOUT_SECONDS", 1.0, float, minimum=0.1),
        s3_connect_timeout_seconds=_number("S3_CONNECT_TIMEOUT_SECONDS", 3.0, float, minimum=0.1),
        s3_read_timeout_seconds=_number("S3_READ_TIMEOUT_SECONDS", 10.0, float, minimum=0.1),
        s3_max_attempts=_number("S3_MAX_ATTEMPTS", 3, minimum=1),
    )
    return finalize(settings)


def finalize(settings: Settings) -> Settings:
    """Check the settings and fill the embedded defaults (a generated, persisted key)."""
    if settings.production:
        _check_production(settings)
    _check_values(settings)
    key = settings.encryption_key or _embedded_key(settings.data_dir)
    try:
        Fernet(key.encode())
    except ValueError as exc:
        raise SettingsError(
            "MODHUB_ENCRYPTION_KEY is not a valid Fernet key "
            "(32 url-safe base64-encoded bytes; make one with: modhub keygen)"
        ) from exc
    try:
        url = database_url(settings.database_url)
    except ValueError as exc:
        raise SettingsError(f"MODHUB_DATABASE_URL {exc}") from None
    # no CDN: the server serves the display images itself (modhub/media.py) under its public address
    cdn = settings.cdn_base_url or (f"{settings.base_url}/media" if settings.base_url else "")
    return settings.replace(encryption_key=key, database_url=url, cdn_base_url=cdn)


def _check_production(settings: Settings) -> None:
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


def _check_values(settings: Settings) -> None:
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


def _embedded_key(data_dir: Path) -> str:
    """The embedded mode's encryption key, generated once and kept in the data folder."""
    path = data_dir / "encryption.key"
    if path.exists():
        return path.read_text().strip()
    data_dir.mkdir(parents=True, exist_ok=True)
    key = Fernet.generate_key().decode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    # info, not a warning: the embedded first start does this by design, and production mode
    # refuses to start without MODHUB_ENCRYPTION_KEY (finalize)
    log.info(
        "generated a new encryption key in %s (embedded mode); set MODHUB_ENCRYPTION_KEY in production", path
    )
    return key


def random_token(nbytes: int = 32) -> str:
    """A URL-safe random token from the CSPRNG."""
    return secrets.token_urlsafe(nbytes)
