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
    # idle keep-alive connection lifetime: longer than any balancer's or client's idle pool
    keep_alive_seconds: int = 75
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
    handler_threads: int = 4  # threads per process running the handlers that read the database
    db_max_overflow: int = 20
    db_pool_timeout_seconds: float = 5.0
    db_pre_ping: bool = False
    db_prepared_statements: bool = True
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
        keep_alive_seconds=_number("KEEP_ALIVE_SECONDS", 75, minimum=1),
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
        handler_threads=_number("HANDLER_THREADS", 4, minimum=1),
        db_max_overflow=_number("DB_MAX_OVERFLOW", 20),
        db_pool_timeout_seconds=_number("DB_POOL_TIMEOUT_SECONDS", 5.0, float, minimum=0.1),
        db_pre_ping=_flag("DB_PRE_PING"),
        db_prepared_statements=_flag("DB_PREPARED_STATEMENTS", True),
        db_application_name=_env("DB_APPLICATION_NAME", "modhub"),
        redis_timeout_seconds=_number("REDIS_TIMEOUT_SECONDS", 1.0, float, minimum=0.1),
        s3_connect_timeout_seconds=_number("S3_CONNECT_TIMEOUT_SECONDS", 3.0, float, minimum=0.1),
        s3_read_timeout_seconds=_number("S3_READ_TIMEOUT_SECONDS", 10.0, float, minimum=0.1),
        s3_max_attempts=_number("S3_MAX_ATTEMPTS", 3, minimum=1),
    )
    return finalize(settings)


def finalize(settings: Settings) -> Settings:
    """Check the settings and fill the embedded defaults (a generated, persisted key)."""
    from modhub.settings_checks import check_production, check_values

    if settings.production:
        check_production(settings)
    check_values(settings)
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
