"""The settings reference: what every MODHUB_* variable means (read by docs/generate.py and
tests/unit/test_docs.py)."""

from __future__ import annotations

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
    (
        "Requests",
        "KEEP_ALIVE_SECONDS",
        "75",
        "How long an idle keep-alive connection stays open (`modhub serve`, `modhub run`); keep it longer "
        "than the idle time-out of the balancer's and clients' connection pools, so that the server never "
        "closes a connection a peer is about to reuse.",
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
        "How long a process keeps catalogue detail and batch records, which keyword searches take too, "
        "and the totals of searches (0: off). See "
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
        "HANDLER_THREADS",
        "4",
        "Threads per server process for the handlers that read the database (four kept two cores busiest "
        "with PostgreSQL on the same host). Raise it where statements wait longer on the network. Each "
        "keeps a connection for its reads and takes another to write: keep it at most DB_POOL_SIZE / 2.",
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
        "DB_PREPARED_STATEMENTS",
        "on",
        "Prepare the catalogue's hot reads (planned once, not per request) and a keyword search's "
        "statements once per connection. Off behind a pooler that moves a client between server "
        "connections (PgBouncer in transaction mode).",
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
        "Redis connect and socket time-out of each call (quota, webhook hand-over); never retried.",
    ),
    ("Bounded waits and pools", "S3_CONNECT_TIMEOUT_SECONDS", "3", "S3 connect time-out."),
    ("Bounded waits and pools", "S3_READ_TIMEOUT_SECONDS", "10", "S3 read time-out."),
    ("Bounded waits and pools", "S3_MAX_ATTEMPTS", "3", "S3 attempts per call, the first included."),
)
