"""Several hosts, one database: two API hosts and a worker host as separate processes, each with
its own data folder and its own loopback address (127.0.0.11, .12, .13), behind HAProxy (Debian)
that routes on `/readyz`, over one PostgreSQL database, one Redis and one S3 peer (moto).

Through the balancer: one install key id; one quota; a lobby upload made through one host is
published and downloaded through the other; every webhook event, raised on both hosts, is
delivered once; and with one API host killed under load, no request fails once the balancer's
health interval has passed."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import boto3
import pytest
import redis
import requests
from cryptography.fernet import Fernet
from sqlalchemy import select

from models.catalog.tables import Section, ServerPost
from models.identity import applications
from models.identity.tables import User
from models.identity.tokens import issue_token
from models.webhooks import service as webhooks
from models.webhooks.tables import OutboxEvent
from modhub.app import build_platform
from modhub.settings import Settings
from tests.functional.identity.live import scratch_database
from tests.functional.webhooks.receiver import Receiver
from tests.helpers.env import REDIS_URL
from tests.helpers.files import _free_port
from tests.helpers.lobby import BASE, item, post_body
from tests.signing import Creds

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("haproxy") is None, reason="Debian's haproxy is not installed"),
]

ROOT = Path(__file__).resolve().parents[3]
HEALTH = "/readyz"
# The deployment's own Redis database, emptied before each run: its quota windows and queues start
# from nothing (the scratch database gives the applications the same ids every run).
HOSTS_REDIS = REDIS_URL.rsplit("/", 1)[0] + "/10"
CHECK_INTERVAL_MS = 300  # the balancer's health check period; two failures take a host out


class Hosts:
    """The processes of the deployment, their shared environment and the balancer's address."""

    def __init__(self, tmp: Path, database_url: str, s3_endpoint: str):
        self.tmp, self.procs = tmp, {}
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("MODHUB_")},
            "MODHUB_DATABASE_URL": database_url,
            "MODHUB_REDIS_URL": HOSTS_REDIS,
            "MODHUB_ENCRYPTION_KEY": Fernet.generate_key().decode(),
            "MODHUB_STORAGE_URL": "s3://shared-files",
            "MODHUB_S3_ENDPOINT_URL": s3_endpoint,
            "MODHUB_S3_REGION": "us-east-1",
            "MODHUB_S3_ACCESS_KEY_ID": "test",
            "MODHUB_S3_SECRET_ACCESS_KEY": "test",
            "MODHUB_WEBHOOK_ALLOW_PRIVATE": "1",
            "MODHUB_WEBHOOK_QUEUE": f"webhooks-hosts-{uuid.uuid4().hex[:8]}",
            "MODHUB_WEBHOOK_SWEEP_SECONDS": "1",
            "MODHUB_MAINTENANCE_INTERVAL_SECONDS": "0",
        }
        self.api = {name: (f"127.0.0.{n}", _free_port()) for name, n in (("api1", 11), ("api2", 12))}
        self.balancer = f"http://127.0.0.1:{_free_port()}"

    def _spawn(self, name: str, args: list[str], address: str) -> None:
        data = self.tmp / name
        data.mkdir()
        log = open(self.tmp / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        self.procs[name] = (
            subprocess.Popen(
                [sys.executable, "-m", "modhub.cli", *args],
                cwd=data,
                env={**self.env, "MODHUB_DATA_DIR": str(data)},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: the RQ scheduler it forks goes too
            ),
            log,
        )

    def start(self) -> None:
        """Both API hosts, the worker host, and HAProxy in front of the API hosts."""
        for name, (host, port) in self.api.items():
            self._spawn(name, ["serve", "--host", host, "--port", str(port)], host)
        self._spawn("worker", ["worker", "--queue", self.env["MODHUB_WEBHOOK_QUEUE"]], "127.0.0.13")
        servers = "\n".join(
            f"    server {name} {host}:{port} check inter {CHECK_INTERVAL_MS} fall 2 rise 1"
            for name, (host, port) in self.api.items()
        )
        config = self.tmp / "haproxy.cfg"
        config.write_text(
            f"""global
    maxconn 256
defaults
    mode http
    option forwardfor
    option redispatch
    retries 3
    retry-on conn-failure empty-response
    timeout connect 2s
    timeout client 30s
    timeout server 30s
frontend api
    bind {self.balancer.removeprefix("http://")}
    default_backend hosts
backend hosts
    balance roundrobin
    option httpchk GET {HEALTH}
    http-check expect status 200
{servers}
"""
        )
        check = subprocess.run(["haproxy", "-c", "-q", "-f", str(config)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        log = open(self.tmp / "haproxy.log", "wb")  # noqa: SIM115 - closed with the process
        self.procs["haproxy"] = (
            subprocess.Popen(["haproxy", "-f", str(config)], stdout=log, stderr=subprocess.STDOUT),
            log,
        )
        for host, port in self.api.values():
            self.wait(f"http://{host}:{port}")
        self.wait(self.balancer)

    def wait(self, base: str, timeout: float = 60) -> None:
        """Until the host (or the balancer) answers ready."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for name, (proc, _) in self.procs.items():
                assert proc.poll() is None, f"{name} exited: {self.log(name)}"
            try:
                if requests.get(base + HEALTH, timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise AssertionError(f"{base} not ready")

    def log(self, name: str) -> str:
        path = self.tmp / f"{name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def kill(self, name: str) -> None:
        """SIGKILL to the host's whole process group, as a lost host."""
        proc, _ = self.procs[name]
        _signal_group(proc, signal.SIGKILL)
        proc.wait(10)

    def stop(self) -> None:
        """SIGTERM to every process group, then SIGKILL to what is left (forked children too)."""
        for proc, _ in self.procs.values():
            _signal_group(proc, signal.SIGTERM)
        for proc, log in self.procs.values():
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                pass
            _signal_group(proc, signal.SIGKILL)
            proc.wait(10)
            if log:
                log.close()

    def url(self, name: str) -> str:
        host, port = self.api[name]
        return f"http://{host}:{port}"


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    """Signal the process group a modhub process leads (its group id is its pid, and stays valid
    while any of its children lives), or HAProxy itself."""
    try:
        if proc.args[0] == sys.executable:
            os.killpg(proc.pid, sig)
        elif proc.poll() is None:
            proc.send_signal(sig)
    except ProcessLookupError:
        pass


@pytest.fixture()
def hosts(tmp_path, moto_endpoint):
    boto3.client(
        "s3",
        endpoint_url=moto_endpoint,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    ).create_bucket(Bucket="shared-files")
    redis.Redis.from_url(HOSTS_REDIS).flushdb()
    with scratch_database("hosts") as url:
        h = Hosts(tmp_path, url, moto_endpoint)
        h.seed()
        try:
            h.start()
            yield h
        finally:
            h.stop()


def _seed(self: Hosts) -> None:
    """Applications (one with a small quota), a user with a token, a section; straight into the
    shared database, as an operator's set-up would."""
    settings = Settings(
        data_dir=self.tmp / "seed",
        database_url=self.env["MODHUB_DATABASE_URL"],
        encryption_key=self.env["MODHUB_ENCRYPTION_KEY"],
    )
    platform = build_platform(settings)
    with platform.db.session() as session:
        big = applications.create(
            session,
            platform.secrets,
            name="hosts",
            permissions=["user:proxy"],
            approve=True,
            per_minute=100_000,
            per_day=10_000_000,
        )
        small = applications.create(session, platform.secrets, name="small", approve=True, per_minute=6)
        session.add(Section(code="minecraft", description="Minecraft"))
        user = User(username=f"hosts-{uuid.uuid4().hex[:6]}")
        session.add(user)
        session.flush()
        token, _ = issue_token(
            session, app_id=big.app_id, user_id=user.id, scopes=[], source="test", now=dt.datetime.now(dt.UTC)
        )
        session.commit()
    self.platform = platform
    self.creds = Creds(big.app_id, big.api_key, big.secret_key)
    self.small = Creds(small.app_id, small.api_key, small.secret_key)
    self.user = {"X-Proxy-User-Id": str(user.id), "X-Proxy-Access-Token": token}


Hosts.seed = _seed


def _get(base: str, creds: Creds, path: str, **headers) -> requests.Response:
    return requests.get(base + path, headers=creds.headers("GET", path, **headers), timeout=20)


def _post(base: str, hosts: Hosts, path: str, **kwargs) -> requests.Response:
    extra = kwargs.pop("headers", {})
    headers = hosts.creds.headers("POST", path, **hosts.user, **extra)
    return requests.post(base + path, headers=headers, timeout=30, **kwargs)


def test_two_hosts_behind_a_balancer_behave_as_one(hosts, tmp_path):
    lb = hosts.balancer
    # one install key, whichever host answers (and each host answers for itself too)
    kids = {
        requests.get(base + "/openapi/v2/meta/install-signing-key", timeout=10).headers["X-Install-Key-Id"]
        for base in (lb, lb, lb, lb, hosts.url("api1"), hosts.url("api2"))
    }
    assert len(kids) == 1, kids

    # one quota: the small application's 6 a minute, whichever host counts them (in one minute)
    if time.time() % 60 > 55:
        time.sleep(60 - time.time() % 60 + 0.1)
    codes = [_get(lb, hosts.small, "/openapi/v2/games").status_code for _ in range(7)]
    assert codes == [200] * 6 + [429], codes

    # a lobby upload through api1, published through api2, its manifest and bytes through the balancer
    content = os.urandom(50_000)
    reserved = _post(
        hosts.url("api1"), hosts, f"{BASE}/0/resources/reserve-batch", json={"items": [item(content)]}
    )
    got = reserved.json()["data"]["results"][0]
    up = _post(
        hosts.url("api1"),
        hosts,
        f"{BASE}/0/resources/{got['reservedResourceId']}/upload",
        headers={"X-Upload-Token": got["uploadToken"]},
        files={"file": ("a.jar", content, "application/octet-stream")},
    )
    assert up.status_code == 200, up.text
    sha = hashlib.sha256(content).hexdigest()
    resource = {
        "source": "USER_UPLOAD",
        "sha256": sha,
        "name": "a.jar",
        "resourceType": "mod",
        "clientInstallPath": "mods/a.jar",
        "environmentSide": "BOTH",
    }
    published = _post(hosts.url("api2"), hosts, f"{BASE}/publish", json=post_body(resources=[resource]))
    assert published.status_code == 200, published.text
    post_id = published.json()["data"]
    manifest = requests.get(f"{lb}{BASE}/{post_id}/manifest", timeout=10).json()["data"]
    url = manifest["items"][0]["downloadUrl"]
    fetched = requests.get(url if url.startswith("http") else lb + url, timeout=20)
    assert fetched.status_code == 200 and hashlib.sha256(fetched.content).hexdigest() == sha

    # webhook events raised on both hosts, each delivered once by the worker host
    receiver = Receiver().start()
    try:
        with hosts.platform.db.session() as session, session.begin():
            webhooks.create(
                session,
                hosts.platform.secrets,
                app_id=hosts.creds.app_id,
                url=receiver.url,
                allow_private=True,
            )
        second = _post(hosts.url("api1"), hosts, f"{BASE}/publish", json=post_body(postTitle="Second"))
        posts = [post_id, second.json()["data"]]
        with hosts.platform.db.session() as session, session.begin():
            for server in session.scalars(select(ServerPost).where(ServerPost.id.in_(posts))):
                server.server_status = "ONLINE"  # as `modhub admin server status` would
        for base, pid in zip((hosts.url("api1"), hosts.url("api2")), posts, strict=True):
            closed = _post(base, hosts, f"{BASE}/{pid}/close")
            assert closed.status_code == 200, closed.text
        with hosts.platform.db.session() as session:
            events = set(session.scalars(select(OutboxEvent.event_id)))
        assert len(events) == 2  # server.status.offline, once per closed post
        received = receiver.wait_for(len(events), timeout=30)
        time.sleep(2)  # two sweep periods: a duplicate would have arrived by now
        ids = Counter(r.headers["x-webhook-id"] for r in receiver.received)
        assert set(ids) == events and set(ids.values()) == {1}, ids
        assert len(received) == len(events)
    finally:
        receiver.stop()

    # one API host killed under load: once the health interval has passed, nothing fails
    failures: list[tuple[float, object]] = []
    stop = threading.Event()

    def load() -> None:
        while not stop.is_set():
            at = time.monotonic()
            try:
                r = _get(lb, hosts.creds, "/openapi/v2/games")
                if r.status_code != 200:
                    failures.append((at, r.status_code))
            except requests.RequestException as exc:
                failures.append((at, type(exc).__name__))

    threads = [threading.Thread(target=load) for _ in range(4)]
    for t in threads:
        t.start()
    time.sleep(1)
    hosts.kill("api1")
    killed = time.monotonic()
    time.sleep(4)
    stop.set()
    for t in threads:
        t.join(30)
    settle = killed + 2 * CHECK_INTERVAL_MS / 1000 + 0.5
    late = [f for f in failures if f[0] > settle]
    assert late == [], (late, len(failures))
