"""The deployment kit runs: the container image's entry point, every modhub service of the compose
file and the systemd units' commands are started here as processes (no Docker daemon on this
machine), against PostgreSQL, Redis and an S3 peer (moto) on loopback; and the restore drill of
the backup runbook: pg_dump -> a new database -> the same answers."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import boto3
import pytest
import requests
import yaml
from cryptography.fernet import Fernet
from sqlalchemy.engine import make_url

from tests.functional.identity.live import scratch_url
from tests.helpers.env import REDIS_URL
from tests.helpers.files import _free_port
from tests.signing import Creds
from tests.support import drop_database, recreate_database

pytestmark = pytest.mark.slow  # server processes

ROOT = Path(__file__).resolve().parents[3]
DEPLOY = ROOT / "deploy"
MODHUB = str(Path(sys.executable).with_name("modhub"))


def _dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (continuation lines joined), as (INSTRUCTION, arguments)."""
    text = (DEPLOY / "Dockerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def _compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def _env_example() -> dict[str, str]:
    lines = (DEPLOY / "modhub.env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))


@pytest.fixture()
def peers(tmp_path, moto_endpoint):
    """The compose file's peers on loopback: a fresh PostgreSQL database, a Redis database, a
    bucket on the moto server; the modhub environment the compose file and env file give, with
    the secrets filled in and the service names resolved to them."""
    url = scratch_url(f"deploy_{uuid.uuid4().hex[:6]}")
    recreate_database(url)
    pg = make_url(url)
    bucket = "modhub-files"
    s3 = boto3.client(
        "s3",
        endpoint_url=moto_endpoint,
        region_name="us-east-1",
        aws_access_key_id="modhub",
        aws_secret_access_key="modhub-secret",
    )
    s3.create_bucket(Bucket=bucket)
    base = _compose()["x-modhub"]["environment"]
    compose_env = {
        **_env_example(),
        **base,
        "MODHUB_ENCRYPTION_KEY": Fernet.generate_key().decode(),
        "MODHUB_DATABASE_URL": f"postgresql://{pg.username}@{pg.host}:{pg.port}/{pg.database}",
        "MODHUB_REDIS_URL": REDIS_URL.rsplit("/", 1)[0] + "/9",
        "MODHUB_S3_ENDPOINT_URL": moto_endpoint,
        "MODHUB_DATA_DIR": str(tmp_path / "data"),
    }
    assert base["MODHUB_STORAGE_URL"] == f"s3://{bucket}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MODHUB_")}
    yield {**env, **{k: str(v) for k, v in compose_env.items()}}
    drop_database(url)


def _start(args: list[str], env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [MODHUB, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def _serve_args(args: list[str], port: int) -> list[str]:
    """The command with the listening address moved to loopback and a free port."""
    out = list(args)
    out[out.index("--host") + 1] = "127.0.0.1"
    out[out.index("--port") + 1] = str(port)
    return out


def _wait_answering(proc: subprocess.Popen, base: str, deadline: float = 40.0) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        assert proc.poll() is None, proc.stdout.read()
        try:
            if requests.get(base + "/openapi/v2/meta/openapi.json", timeout=2).status_code == 200:
                return
        except requests.ConnectionError:
            time.sleep(0.2)
    raise AssertionError(f"{base} never answered")


def _stop(proc: subprocess.Popen, grace: float = 30.0) -> str:
    """SIGTERM, then its output; SIGKILL past the grace period (the test then fails on the code)."""
    proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return out


def test_the_image_is_multi_stage_and_runs_as_a_user_that_is_not_root():
    steps = _dockerfile()
    stages = [args for name, args in steps if name == "FROM"]
    assert len(stages) >= 2 and " AS " in stages[-1].upper()
    final = steps[max(i for i, (name, _) in enumerate(steps) if name == "FROM") :]
    users = [args for name, args in final if name == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert json.loads(dict(final)["ENTRYPOINT"]) == ["modhub"]


def _exec_starts(unit: str) -> list[list[str]]:
    """The unit's ExecStart commands (a oneshot may have several), without the program."""
    text = (DEPLOY / "systemd" / unit).read_text()
    out = []
    for line in (x for x in text.splitlines() if x.startswith("ExecStart=")):
        args = shlex.split(line.split("=", 1)[1])
        assert args[0].endswith("/modhub"), line
        out.append(args[1:])
    return out


def _exec_start(unit: str) -> list[str]:
    (only,) = _exec_starts(unit)
    return only


def test_every_command_of_the_kit_runs(peers):
    """compose's migrate, api and worker services, the image's entry point with its default
    command, and the systemd units' ExecStart lines; a command they share runs once."""
    services = _compose()["services"]
    assert {"postgres", "redis", "minio", "migrate", "install-key", "api", "worker"} <= set(services)
    units = {p.name for p in (DEPLOY / "systemd").glob("*")}
    assert {f"modhub-{n}.service" for n in ("api", "worker", "migrate", "maintenance")} <= units
    assert "OnCalendar=" in (DEPLOY / "systemd" / "modhub-maintenance.timer").read_text()
    oneshots = [services["migrate"]["command"], services["install-key"]["command"]]
    oneshots += _exec_starts("modhub-migrate.service") + [_exec_start("modhub-maintenance.service")]
    for args in dict.fromkeys(map(tuple, oneshots)):  # in order, each distinct command once
        done = subprocess.run([MODHUB, *args], env=peers, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        assert done.stderr == "", (args, done.stderr)  # nothing on stderr when all is well
    servers = [services["api"]["command"], json.loads(dict(_dockerfile())["CMD"])]
    servers.append(_exec_start("modhub-api.service"))
    port = _free_port()
    for args in dict.fromkeys(tuple(_serve_args(list(a), port)) for a in servers):
        api = _start(list(args), peers)
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_answering(api, base)
            creds = Creds(**_app(peers))
            path = "/openapi/v2/games"
            answer = requests.get(base + path, headers=creds.headers("GET", path), timeout=10)
            assert answer.status_code == 200 and answer.json()["code"] == 0, answer.text
        finally:
            _stop(api)
        assert api.returncode == 0
    assert services["worker"]["command"] == _exec_start("modhub-worker.service") == ["worker"]
    worker = _start(services["worker"]["command"], peers)
    try:
        time.sleep(2)
        assert worker.poll() is None, worker.stdout.read()  # working, not crashed
    finally:
        out = _stop(worker)
    assert "Traceback" not in out, out


def _app(env: dict) -> dict:
    out = subprocess.run(
        [MODHUB, "app", "create", "--name", "deploy", "--approve"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    c = json.loads(out)
    return {"app_id": c["appId"], "api_key": c["apiKey"], "secret_key": c["secretKey"]}


def test_the_restore_drill_gives_the_same_answers(tmp_path, settings, quota):
    """docs/operate/backups.md, step by step: pg_dump of a live database, pg_restore into a new
    one, `modhub db upgrade`, `modhub storage check`; then the API answers the same."""
    from tests.functional.identity.live import live_app, scratch_database

    with scratch_database("drill_a") as source:
        target = scratch_url("drill_b")
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("MODHUB_")},
            "MODHUB_DATABASE_URL": source,
            "MODHUB_ENCRYPTION_KEY": settings.encryption_key,
            "MODHUB_DATA_DIR": str(tmp_path / "data"),
        }
        subprocess.run(
            [MODHUB, "demo", "seed", "--resources", "30"], env=env, check=True, capture_output=True
        )
        creds = Creds(**_app(env))
        dump = tmp_path / "modhub.dump"
        libpq = make_url(source).set(drivername="postgresql").render_as_string(hide_password=False)
        subprocess.run(["pg_dump", "--format=custom", f"--file={dump}", libpq], check=True)
        before = _answers(live_app(settings, source, quota=quota), creds)
    recreate_database(target)  # the source is gone: the drill restores into a new database
    try:
        new = make_url(target).set(drivername="postgresql").render_as_string(hide_password=False)
        subprocess.run(
            ["pg_restore", "--clean", "--if-exists", "--no-owner", f"--dbname={new}", str(dump)], check=True
        )
        env["MODHUB_DATABASE_URL"] = target
        for step in (["db", "upgrade"], ["storage", "check"]):
            done = subprocess.run([MODHUB, *step], env=env, capture_output=True, text=True)
            assert done.returncode == 0, (step, done.stdout, done.stderr)
        after = _answers(live_app(settings, target, quota=quota), creds)
    finally:
        drop_database(target)
    assert after == before and [b["code"] for b in before] == [0, 0, 0, 0]


def _answers(app, creds: Creds) -> list:
    """A few reads a client makes, without their per-request parts (traceId)."""
    out = []
    with app.test_client() as client:
        for path, params in (
            ("/openapi/v2/games", {}),
            ("/openapi/v2/mods/search", {"pageNum": 1, "pageSize": 20}),
            ("/openapi/v2/mods/sync", {"size": 50}),
            ("/openapi/v2/mods/7", {}),
        ):
            body = client.get(path, params=params, headers=creds.headers("GET", path)).json()
            body.pop("traceId", None)
            out.append(body)
    return out
