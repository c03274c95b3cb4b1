"""QA's run in CI: schemathesis's CLI (`st run`) against a real uvicorn server over PostgreSQL and
Redis, every phase (examples, coverage, fuzzing, stateful over the contract's links), every
check but positive_data_acceptance, signed by tests/functional/hardening/st_hooks.py.

Pass means: no server error, no response outside the contract (status, content type, headers,
body schema), no invalid request accepted (negative_data_rejection), auth enforced
(ignored_auth). positive_data_acceptance is left out: schema-valid requests are still refused by
business rules the schema cannot know (an unknown id is 200404, a wrong authorization code
200911, a taken login name 200409).

Operations still planned (x-modhub-status: planned) are not fuzzed: each gets one signed request
here, must answer 501 / 200501, and is reported in the test's output; one that answers anything
else fails (its mark is stale).

Run time: MAX_EXAMPLES cases per operation and phase (MODHUB_ST_MAX_EXAMPLES overrides). The run
is split in shards so that pytest-xdist spreads it over its workers: MODHUB_ST_SHARDS (default 6)
shards of the examples, coverage and fuzzing phases, by operation (of equal measured cost:
st_costs.py), one shard of the examples and fuzzing phases over the twins (an alias whose coverage
phase would send its first operation's requests to the same handler: coverage_twins), and one
stateful shard over every built operation, all against one live server for
the run (MODHUB_ST_SERVERS processes, default 2), started once and shared by the xdist workers.
"""

from __future__ import annotations

import copy
import fcntl
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
import warnings
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
import schemathesis
from click.testing import CliRunner
from sqlalchemy.engine import make_url

from models.identity import applications
from models.identity.tables import User
from modhub.cli import main
from modhub.core.crypto import SecretBox
from modhub.db import Database
from tests.functional.hardening import st_costs, st_rules
from tests.functional.identity.live import start_processes
from tests.functional.webhooks.processes import RedisServer
from tests.helpers.env import ENCRYPTION_KEY, RUN_PG_URL
from tests.helpers.identity import add_proxy_token
from tests.support import Creds, copy_database, drop_database, migrated_template

pytestmark = pytest.mark.slow  # live servers, processes or migrations

MAX_EXAMPLES = int(os.environ.get("MODHUB_ST_MAX_EXAMPLES", "4"))
OPERATION_SHARDS = int(os.environ.get("MODHUB_ST_SHARDS", "6"))
SERVERS = int(os.environ.get("MODHUB_ST_SERVERS", "2"))  # processes of the shared live server
METHODS = ("get", "post", "put", "patch", "delete")
HOOKS = "tests.functional.hardening.st_hooks"
CONFIG = str(Path(__file__).with_name("schemathesis.toml"))
ROOT = Path(__file__).resolve().parents[3]  # the hooks module is imported from the checkout


def _planned(document: dict) -> list[tuple[str, str, str]]:
    return [
        (m.upper(), p, op["operationId"])
        for p, item in document["paths"].items()
        for m, op in item.items()
        if isinstance(op, dict) and op.get("x-modhub-status") == "planned"
    ]


def _identity(db_url: str, encryption_key: str) -> tuple[Creds, int, str]:
    db = Database.from_url(db_url)
    try:
        with db.session() as s, s.begin():
            creds = applications.create(
                s,
                SecretBox(encryption_key),
                name="QA fuzz",
                permissions=["user:proxy"],
                approve=True,
                per_minute=10**9,
                per_day=10**9,
            )
            user = User(username=f"qa-fuzz-{secrets.token_hex(4)}")
            s.add(user)
            s.flush()
            token = add_proxy_token(s, creds.app_id, user.id, hours=2)
            return Creds(creds.app_id, creds.api_key, creds.secret_key), user.id, token
    finally:
        db.engine.dispose()


def _without_nul(value):
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, dict):
        return {_without_nul(k): _without_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_nul(v) for v in value]
    return value


def _signed_probe(
    base: str, schema, creds: Creds, user_id: int, token: str, method: str, path: str
) -> requests.Response:
    """One schema-valid, signed request to a planned operation (it must answer 501 / 200501)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # hypothesis: .example() is meant for exploration
        case = schema[path][method.lower()].as_strategy().example()
    for container in ("path_parameters", "query", "headers", "body"):
        setattr(case, container, _without_nul(getattr(case, container)))  # the 200301 rule
    kwargs = case.as_transport_kwargs(base_url=base)
    sent = urlsplit(requests.Request(kwargs["method"], kwargs["url"]).prepare().url).path
    ts = st_rules.next_timestamp()
    kwargs["headers"] = {
        **(kwargs.get("headers") or {}),
        "X-API-Key": creds.api_key,
        "X-Timestamp": ts,
        "X-Signature": st_rules.signature(method, sent, ts, creds.secret_key),
        "X-Proxy-User-Id": str(user_id),
        "X-Proxy-Access-Token": token,
    }
    kwargs.pop("cookies", None)
    return requests.request(**kwargs, timeout=30)


def _failures(junit: str) -> list[str]:
    out = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        for bad in list(case.findall("failure")) + list(case.findall("error")):
            out.append(f"{case.get('name')}: {(bad.get('message') or bad.text or '')[:2000]}")
    return out


@dataclass
class Live:
    """The served contract and the identity the run signs with."""

    base: str
    document: dict
    creds: Creds
    user_id: int
    token: str
    workdir: Path

    @property
    def planned(self) -> list[tuple[str, str, str]]:
        return _planned(self.document)

    @property
    def built(self) -> list[str]:
        """The operationIds that are fuzzed (every one not planned), in document order."""
        planned = {op_id for _, _, op_id in self.planned}
        return [
            op["operationId"]
            for item in self.document["paths"].values()
            for m, op in item.items()
            if m in METHODS and op["operationId"] not in planned
        ]

    @property
    def twins(self) -> dict[str, str]:
        """Built operations whose coverage phase another one's stands for (coverage_twins)."""
        built = set(self.built)
        return {t: o for t, o in coverage_twins(self.document).items() if t in built and o in built}


# Words of an operation that change no request the coverage phase sends and no check of an answer.
_WORDS = {"summary", "description", "example", "examples", "operationId", "tags", "externalDocs"}


def _checked_shape(node):
    """An operation's parts as the coverage phase and the checks read them: words and x- marks left
    out ($ref kept: two operations naming the same schema take the same values)."""
    if isinstance(node, dict):
        return {k: _checked_shape(v) for k, v in node.items() if k not in _WORDS and not k.startswith("x-")}
    if isinstance(node, list):
        return [_checked_shape(v) for v in node]
    return node


def coverage_twins(document: dict) -> dict[str, str]:
    """operationId -> the first operation (document order) it is a twin of: the same method, the
    same handler (x-handler), the same parameters, body and answers (words and examples aside), on
    another path: an alias (a mods path and its resource path, a legacy and a v2 path). The coverage
    phase derives its requests from the schemas alone, so a twin's would be the first one's, sent
    to the same handler: a twin gets the examples (its own) and fuzzing phases, not coverage."""
    first: dict[str, str] = {}
    twins = {}
    for item in document["paths"].values():
        for method, op in item.items():
            if method not in METHODS or not op.get("x-handler"):
                continue
            shape = json.dumps(
                [
                    method,
                    op["x-handler"],
                    _checked_shape(item.get("parameters")),
                    _checked_shape(
                        {k: op.get(k) for k in ("parameters", "requestBody", "responses", "security")}
                    ),
                ],
                sort_keys=True,
            )
            if shape in first:
                twins[op["operationId"]] = first[shape]
            else:
                first[shape] = op["operationId"]
    return twins


def _run_folder(tmp_path_factory) -> Path:
    """The run's folder: under xdist, each worker's basetemp is a folder in it."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


_STARTED: dict = {}  # in the worker that started the shared server: its processes


def _start_shared(workdir: Path) -> dict:
    """A private redis-server, a scratch database with `modhub demo seed --resources 40`, and
    SERVERS uvicorn processes over them, left running for the other workers."""
    db_url = make_url(RUN_PG_URL).set(database=f"{make_url(RUN_PG_URL).database}_qa_fuzz")
    db_url = db_url.render_as_string(hide_password=False)
    _STARTED.update(redis=RedisServer(workdir).start(), procs=[], db_url=db_url)
    try:
        copy_database(db_url, migrated_template(RUN_PG_URL))
        env = {
            "MODHUB_DATABASE_URL": db_url,
            "MODHUB_REDIS_URL": _STARTED["redis"].url,
            "MODHUB_ENCRYPTION_KEY": ENCRYPTION_KEY,
            "MODHUB_DATA_DIR": str(workdir),
            "MODHUB_PRODUCTION": "0",
        }
        seeded = CliRunner().invoke(
            main, ["demo", "seed", "--resources", "40"], env=env, catch_exceptions=False
        )
        assert seeded.exit_code == 0, seeded.output
        bases = start_processes(SERVERS, env, _STARTED["procs"])
    except BaseException:
        _stop_shared()
        raise
    return {"bases": bases, "db_url": db_url, "encryption_key": ENCRYPTION_KEY, "users": 0}


def _stop_shared() -> None:
    for proc in _STARTED["procs"]:
        if proc.poll() is None:
            proc.terminate()
    for proc in _STARTED["procs"]:
        proc.wait(15)
    _STARTED["redis"].stop()
    drop_database(_STARTED.pop("db_url"))


@pytest.fixture(scope="session")
def live(tmp_path_factory):
    """One live server for the whole run, shared by the xdist workers that run this module's
    tests (a private redis-server, a scratch database with `modhub demo seed --resources 40`,
    SERVERS uvicorn processes; each worker sends to one of them). The first worker to get here
    starts it under a file lock and writes where it is; at the end of its session it waits until
    every other worker has let go of it (at the end of theirs), then stops it. Each worker signs
    with an application, a user and a proxy token of its own."""
    folder = _run_folder(tmp_path_factory)
    lock_path, state_path = folder / "live-st.lock", folder / "live-st.json"

    def update(change) -> dict:
        with open(lock_path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            state = json.loads(state_path.read_text()) if state_path.exists() else None
            state = change(state)
            state_path.write_text(json.dumps(state))
            return state

    def join(state):
        if state is None or not state["bases"]:
            (folder / "live-st").mkdir(exist_ok=True)
            state = _start_shared(folder / "live-st")
        return {**state, "users": state["users"] + 1}

    state = update(join)
    try:
        worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:])
        base = state["bases"][worker % len(state["bases"])]
        creds, user_id, token = _identity(state["db_url"], state["encryption_key"])
        document = requests.get(base + "/openapi/v2/meta/openapi.json", timeout=30).json()
        yield Live(base, document, creds, user_id, token, folder / "live-st")
    finally:
        update(lambda state: {**state, "users": state["users"] - 1})
        if _STARTED.get("db_url"):

            def close(state):  # when nobody uses it: stopped (a later worker starts anew)
                return {**state, "bases": []} if state["users"] == 0 else state

            deadline = time.monotonic() + 3600
            while update(close)["bases"] and time.monotonic() < deadline:
                time.sleep(0.5)  # the other workers' sessions are still running
            _stop_shared()


def test_coverage_twins_are_aliases_of_one_handler_with_the_same_schemas():
    """Twins: the mods and resource paths of the draft save (one schema, one handler); not twins:
    search and query (one handler, answers declared apart), nor the draft save and publish."""
    from modhub.contract import Contract

    twins = coverage_twins(Contract.load().document)
    assert twins["saveResourceDraft"] == "saveModDraft" and twins["getResourceDetail"] == "getModDetail"
    assert "queryResources" not in twins and "searchMods" not in twins
    assert "publishModDraft" not in twins and twins["publishResourceDraft"] == "publishModDraft"
    assert set(twins.values()).isdisjoint(twins)  # each stands for its own: no chain


def test_planned_operations_answer_501_on_the_live_server(live):
    ruled = copy.deepcopy(live.document)
    st_rules.apply_rules(ruled)  # the same rules as the `st` run
    schema = schemathesis.openapi.from_dict(ruled)
    gaps = []
    for method, path, op_id in live.planned:
        r = _signed_probe(live.base, schema, live.creds, live.user_id, live.token, method, path)
        assert (r.status_code, r.json().get("code")) == (501, 200501), (op_id, r.text)
        gaps.append(op_id)
    print(f"\nplanned (501, not fuzzed): {len(gaps)}: {', '.join(gaps)}")


# The run in shards, so that pytest-xdist spreads it over the workers: the examples, coverage and
# fuzzing phases (each one operation at a time) split by operation into shards of about equal
# measured cost (st_costs.py: the six draft save, publish and edit operations cost the most, their
# bodies' coverage phase most of it); the twins of those (coverage_twins: 39 aliases) in a shard of
# the examples and fuzzing phases; the stateful phase (scenarios across operations, over the
# contract's links) is one shard over every built operation.
SHARDS = [f"operations-{i}-of-{OPERATION_SHARDS}" for i in range(OPERATION_SHARDS)] + ["twins", "stateful"]


@pytest.mark.parametrize("shard", SHARDS)
def test_schemathesis_cli_against_the_live_server(live, shard, tmp_path):
    if shard == "stateful":
        phases, selected = "stateful", live.built
    elif shard == "twins":
        phases, selected = "examples,fuzzing", list(live.twins)
    else:
        index = int(shard.split("-")[1])
        phases = "examples,coverage,fuzzing"
        twins = live.twins
        covered = [op_id for op_id in live.built if op_id not in twins]
        selected = st_costs.balanced(covered, OPERATION_SHARDS, st_costs.load())[index]
    junit = str(tmp_path / "junit.xml")
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        CONFIG,
        "run",
        live.base + "/openapi/v2/meta/openapi.json",
        "--phases",
        phases,
        "--checks",
        "all",
        "--exclude-checks",
        "positive_data_acceptance",
        "--max-examples",
        str(MAX_EXAMPLES),
        "--seed",
        "20261123",
        "--workers",
        "1",
        "--request-timeout",
        "30",
        "--no-shrink",
        "--suppress-health-check",
        "all",
        "--warnings",
        "off",
        "--report",
        "junit",
        "--report-junit-path",
        junit,
        *[a for op_id in selected for a in ("--include-operation-id", op_id)],
    ]
    st_env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": HOOKS,
        "MODHUB_ST_API_KEY": live.creds.api_key,
        "MODHUB_ST_SECRET": live.creds.secret_key,
        "MODHUB_ST_USER_ID": str(live.user_id),
        "MODHUB_ST_TOKEN": live.token,
        "PYTHONPATH": str(ROOT),
    }
    started = time.monotonic()
    run = subprocess.run(
        command, env=st_env, cwd=tmp_path, capture_output=True, text=True, timeout=900, check=False
    )
    took = time.monotonic() - started
    (tmp_path / "st-output.txt").write_text(run.stdout + run.stderr)
    print(f"\nschemathesis {shard} ({len(selected)} operations): {took:.0f} s, exit {run.returncode}")
    phases_seen = [
        line
        for line in run.stdout.splitlines()
        if any(w in line for w in ("(in ", "passed", "Scenarios", "API Links", "generated"))
    ]
    print("\n".join(phases_seen))
    failures = _failures(junit)
    if os.environ.get("MODHUB_ST_JUNIT_DIR"):  # the per-operation times, for st_costs.py
        shutil.copy(junit, os.path.join(os.environ["MODHUB_ST_JUNIT_DIR"], f"{shard}.xml"))
    assert run.returncode == 0 and not failures, "\n".join(failures[:30]) or (
        run.stdout[-8000:] + run.stderr[-4000:]
    )
    summary = json.dumps({"shard": shard, "seconds": round(took), "operations": len(selected)})
    if shard == "stateful":
        assert "Stateful" in run.stdout or "stateful" in run.stdout, summary
