"""modhub-get, the reference mod manager: install, verify, update, list and remove mods in a folder,
with every download hash-checked and every install script's signature verified.

Exit codes: 0 done; 2 usage (bad arguments, no credentials, no lock file); 3 the API refused or
could not be reached; 4 no file matches the game version / loader / side (also for a required
dependency or an update); 5 conflict (a declared incompatibility, or removing a required mod);
6 verification failed (a hash or a script signature).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath
from typing import Any

import httpx

from modhub_client import (
    ApiError,
    Client,
    ModhubError,
    ProxyUser,
    VerificationError,
    expected_hashes,
    hash_file,
)
from modhub_client.errors import HashMismatch, InvalidRequest
from modhub_client.models import FileSummaryVO, ModDetailVO

LOCK = "modhub.lock.json"
OK, USAGE, API, NO_MATCH, CONFLICT, VERIFY = 0, 2, 3, 4, 5, 6


class Fail(Exception):
    """A failure with its exit code."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


class Progress:
    """One progress line on stderr for all parallel downloads (redrawn at most 10 times a second)."""

    def __init__(self, count: int):
        self.count, self.done = count, 0
        self.sizes: dict[str, tuple[int, int | None]] = {}
        self.lock, self.last = threading.Lock(), 0.0
        self.tty = sys.stderr.isatty()

    def update(self, name: str, got: int, total: int | None) -> None:
        """Record a file's progress and redraw."""
        with self.lock:
            self.sizes[name] = (got, total)
            now = time.monotonic()
            if self.tty and now - self.last > 0.1:
                self.last = now
                have = sum(g for g, _ in self.sizes.values())
                want = sum(t or g for g, t in self.sizes.values())
                sys.stderr.write(f"\r{self.done}/{self.count} files  {have // 1024} / {want // 1024} KiB ")

    def finished(self, name: str, size: int) -> None:
        """A file is downloaded and verified."""
        with self.lock:
            self.done += 1
            sys.stderr.write(
                f"{chr(13) if self.tty else ''}[{self.done}/{self.count}] {name} ({size} bytes) hashes ok\n"
            )


def read_lock(dest: Path, must: bool = True) -> dict[str, Any]:
    """The lock file of a folder (an empty one when absent and not required)."""
    path = dest / LOCK
    if not path.exists():
        if must:
            raise Fail(USAGE, f"{path} not found: install something first")
        return {"lockVersion": 1, "mods": []}
    lock: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return lock


def write_lock(dest: Path, lock: dict[str, Any]) -> None:
    """Write the lock atomically, mods sorted by post id."""
    lock["mods"].sort(key=lambda m: m["postId"])
    tmp = dest / (LOCK + ".tmp")
    tmp.write_text(json.dumps(lock, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, dest / LOCK)


def pick_file(
    files: list[FileSummaryVO], game_version: str, loader: str | None, side: str | None
) -> FileSummaryVO | None:
    """The newest on-site file for the game version, loader (or none) and side (or BOTH)."""

    def fits(f: FileSummaryVO) -> bool:
        return (
            f.get("storageType") == "DIRECT_UPLOAD"
            and game_version in (f.get("resourceVersions") or [])
            and (loader is None or f.get("runPlatform") in (None, loader))
            and (side is None or f.get("environmentSide") in (None, "BOTH", side.upper()))
        )

    fitting = [f for f in files if fits(f)]
    fitting.sort(key=lambda f: (f.get("runPlatform") == loader, f.get("publishTime") or "", f["fileInfoId"]))
    return fitting[-1] if fitting else None


def safe_subdir(path: str | None) -> str:
    """A relative install folder from the resource (never absolute, never '..')."""
    parts = [p for p in PurePosixPath((path or "").replace("\\", "/")).parts if p not in ("/", ".", "..")]
    return "/".join(parts)


class Plan:
    """The mods to install: the asked one and its required dependencies, with their files."""

    def __init__(self, client: Client, args: argparse.Namespace, lock: dict[str, Any]):
        self.client, self.args, self.lock = client, args, lock
        self.entries: dict[int, dict[str, Any]] = {}
        self.incompatible: dict[int, set[int]] = {}

    def resolve(self, root: int) -> None:
        """Walk required dependencies breadth first; refuse declared incompatibilities."""
        queue: list[tuple[int, int | None]] = [(root, None)]
        while queue:
            post_id, parent = queue.pop(0)
            if post_id in self.entries:
                self.entries[post_id]["requiredBy"].append(parent)
                continue
            self.entries[post_id] = self.entry(post_id, parent)
            for rel in self.client.relations(post_id):
                target = int(rel["targetPostId"])
                if rel.get("relationType") == "DEPENDENCY" and rel.get("isRequired"):
                    queue.append((target, post_id))
                elif rel.get("relationType") == "INCOMPATIBLE":
                    self.incompatible.setdefault(post_id, set()).add(target)
        self.check_conflicts()

    def entry(self, post_id: int, parent: int | None) -> dict[str, Any]:
        """The lock entry of one mod: its chosen file (Fail NO_MATCH when none fits)."""
        mod: ModDetailVO = self.client.get_mod(post_id)
        a = self.args
        file = pick_file(self.client.list_files(post_id), a.game_version, a.loader, a.side)
        if file is None:
            why = f"required by {parent}" if parent else "asked"
            raise Fail(
                NO_MATCH,
                f"mod {post_id} ({mod.get('mainName')}, {why}) has no on-site file for "
                f"game version {a.game_version}, loader {a.loader or 'any'}, "
                f"side {a.side or 'any'}",
            )
        where = mod.get("serverInstallPath") if a.side == "server" else mod.get("clientInstallPath")
        folder = safe_subdir(where)
        name = Path(file.get("fileName") or f"{file['fileInfoId']}.bin").name
        return {
            "postId": post_id,
            "name": mod.get("mainName"),
            "fileId": file["fileInfoId"],
            "fileName": name,
            "fileVersion": file.get("fileVersion"),
            "runPlatform": file.get("runPlatform"),
            "path": f"{folder}/{name}" if folder else name,
            "size": file.get("fileSize"),
            "hashes": expected_hashes(file),
            "requiredBy": [parent] if parent else [],
            "incompatible": [],
        }

    def check_conflicts(self) -> None:
        """Fail CONFLICT when a planned or installed mod is declared incompatible with another."""
        installed = {m["postId"]: m for m in self.lock["mods"]}
        present = set(installed) | set(self.entries)
        for post_id, targets in self.incompatible.items():
            self.entries[post_id]["incompatible"] = sorted(targets)
            for target in targets & present:
                raise Fail(CONFLICT, f"mod {post_id} declares itself incompatible with mod {target}")
        for post_id, mod in installed.items():
            for target in set(mod.get("incompatible", [])) & set(self.entries):
                raise Fail(
                    CONFLICT, f"installed mod {post_id} declares itself incompatible with mod {target}"
                )


def verify_scripts(client: Client, entries: list[dict[str, Any]]) -> None:
    """Check each mod's install script signature against the published keys; record the key id."""
    for entry in entries:
        info = client.install_info(entry["postId"], verify=False)
        entry["scriptKeyId"] = client.verify_script(info) or None
        entry["resourceVersion"] = info.get("version")


def download_all(client: Client, dest: Path, entries: list[dict[str, Any]], jobs: int) -> None:
    """Download in parallel (hash-checked); fills each entry's full hashes."""
    progress = Progress(len(entries))

    def one(entry: dict[str, Any]) -> None:
        target = dest / entry["path"]
        done = client.download(
            entry["postId"],
            entry["fileId"],
            target,
            expected=entry["hashes"],
            progress=lambda got, total: progress.update(entry["fileName"], got, total),
        )
        entry["hashes"], entry["size"] = done.hashes, done.size
        progress.finished(entry["fileName"], done.size)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for future in [pool.submit(one, e) for e in entries]:
            future.result()


def cmd_install(client: Client, a: argparse.Namespace) -> int:
    """install POST_ID: resolve, verify scripts, download, write the lock."""
    lock = read_lock(a.dest, must=False)
    plan = Plan(client, a, lock)
    plan.resolve(a.post_id)
    installed = {(m["postId"], m["fileId"]) for m in lock["mods"]}
    todo = [e for e in plan.entries.values() if (e["postId"], e["fileId"]) not in installed]
    verify_scripts(client, todo)
    download_all(client, a.dest, todo, a.jobs)
    keep = [m for m in lock["mods"] if m["postId"] not in {e["postId"] for e in todo}]
    for old in lock["mods"]:
        if old not in keep and old["path"] not in {e["path"] for e in todo}:
            (a.dest / old["path"]).unlink(missing_ok=True)
    lock.update({"gameVersion": a.game_version, "loader": a.loader, "side": a.side, "mods": keep + todo})
    write_lock(a.dest, lock)
    kept = len(plan.entries) - len(todo)
    print(f"installed {len(todo)} file(s), {kept} already there; lock: {a.dest / LOCK}")
    return OK


def cmd_verify(client: Client | None, a: argparse.Namespace) -> int:
    """verify: re-hash every locked file."""
    bad = 0
    for mod in read_lock(a.dest)["mods"]:
        path = a.dest / mod["path"]
        try:
            if not path.exists():
                raise HashMismatch(str(path), "file", "present", "missing")
            actual = hash_file(path)
            for name, value in mod["hashes"].items():
                if actual.get(name) != value:
                    raise HashMismatch(str(path), name, value, actual.get(name, "?"))
            print(f"ok        {mod['path']}")
        except HashMismatch as exc:
            bad += 1
            print(f"MISMATCH  {mod['path']}: {exc}")
    return VERIFY if bad else OK


def cmd_update(client: Client, a: argparse.Namespace) -> int:
    """update: ask files/updates for every locked hash; download what is newer."""
    lock = read_lock(a.dest)
    loader = a.loader or lock.get("loader")
    by_loader: dict[str | None, list[dict[str, Any]]] = {}
    for mod in lock["mods"]:
        by_loader.setdefault(mod.get("runPlatform") or loader, []).append(mod)
    missing, todo = [], []
    for run_platform, mods in by_loader.items():
        try:
            answers = client.file_updates(
                [m["hashes"]["sha256"] for m in mods], game_version=a.game_version, run_platform=run_platform
            )
        except InvalidRequest:
            if run_platform is not None:
                raise
            # contract 1.0.0 requires runPlatform: files that name no loader cannot be checked
            missing += [f"{m['path']} (the server's update check needs a loader)" for m in mods]
            continue
        for mod, answer in zip(mods, answers, strict=True):
            if answer is None or answer.get("file") is None:
                extra: dict[str, Any] = dict(answer or {})  # a per-entry status, when the server sends one
                status = f"{extra['status']}: " if extra.get("status") else ""
                missing.append(
                    f"{mod['path']} ({status}no file for {a.game_version} / {run_platform or '-'})"
                )
            elif not answer["upToDate"]:
                file = answer["file"]
                if file.get("storageType") != "DIRECT_UPLOAD":  # a cloud-disk share or an external link
                    missing.append(f"{mod['path']} (newer file {file['fileInfoId']} is not on this site)")
                    continue
                name = Path(file.get("fileName") or f"{file['fileInfoId']}.bin").name
                folder = str(PurePosixPath(mod["path"]).parent)
                todo.append(
                    {
                        **mod,
                        "fileId": file["fileInfoId"],
                        "fileName": name,
                        "fileVersion": file.get("fileVersion"),
                        "runPlatform": file.get("runPlatform"),
                        "path": name if folder == "." else f"{folder}/{name}",
                        "hashes": expected_hashes(file),
                        "old": mod["path"],
                    }
                )
    verify_scripts(client, todo)
    download_all(client, a.dest, todo, a.jobs)
    for entry in todo:
        old = entry.pop("old")
        if old != entry["path"]:
            (a.dest / old).unlink(missing_ok=True)
    updated = {e["postId"] for e in todo}
    lock["mods"] = [m for m in lock["mods"] if m["postId"] not in updated] + todo
    lock["gameVersion"] = a.game_version
    write_lock(a.dest, lock)
    print(f"updated {len(todo)} file(s)")
    for line in missing:
        print(f"not checked or not available: {line}", file=sys.stderr)
    return NO_MATCH if missing else OK


def cmd_list(client: Client | None, a: argparse.Namespace) -> int:
    """list: the locked mods."""
    lock = read_lock(a.dest)
    print(
        f"game version {lock.get('gameVersion')}  loader {lock.get('loader') or '-'}  "
        f"side {lock.get('side') or '-'}"
    )
    for mod in lock["mods"]:
        by = ", ".join(str(p) for p in mod.get("requiredBy") or []) or "asked"
        print(f"{mod['postId']:>8}  {mod['fileVersion'] or '-':<10} {mod['path']}  ({mod['name']}; {by})")
    return OK


def cmd_remove(client: Client | None, a: argparse.Namespace) -> int:
    """remove POST_ID: delete its file and lock entry (refused while another mod requires it)."""
    lock = read_lock(a.dest)
    mod = next((m for m in lock["mods"] if m["postId"] == a.post_id), None)
    if mod is None:
        raise Fail(USAGE, f"mod {a.post_id} is not installed in {a.dest}")
    users = [m["postId"] for m in lock["mods"] if a.post_id in (m.get("requiredBy") or [])]
    needed = [m["postId"] for m in lock["mods"] if m["postId"] in (mod.get("requiredBy") or [])]
    if needed and not a.force:
        raise Fail(CONFLICT, f"mod {a.post_id} is required by {needed}: remove those first or use --force")
    (a.dest / mod["path"]).unlink(missing_ok=True)
    lock["mods"].remove(mod)
    for other in lock["mods"]:
        other["requiredBy"] = [p for p in other.get("requiredBy") or [] if p != a.post_id]
    write_lock(a.dest, lock)
    print(f"removed {mod['path']}" + (f" (it required {users})" if users else ""))
    return OK


def parser() -> argparse.ArgumentParser:
    """The command line."""
    p = argparse.ArgumentParser(prog="modhub-get", description="The modhub reference mod manager.")
    p.add_argument("--base-url", default=os.environ.get("MODHUB_BASE_URL", "http://127.0.0.1:8000"))
    p.add_argument("--api-key", default=os.environ.get("MODHUB_API_KEY"))
    p.add_argument("--secret", default=os.environ.get("MODHUB_SECRET"))
    p.add_argument(
        "--user-id",
        type=int,
        default=os.environ.get("MODHUB_USER_ID"),
        help="the platform user downloading (REGISTERED, MEMBERS and paid resources need one)",
    )
    p.add_argument(
        "--token",
        default=os.environ.get("MODHUB_ACCESS_TOKEN"),
        help="that user's proxy access token (it names the user itself)",
    )
    sub = p.add_subparsers(dest="command", required=True)
    for name in ("install", "verify", "update", "list", "remove"):
        s = sub.add_parser(name)
        s.add_argument("--dest", type=Path, required=True, help="the game folder (holds modhub.lock.json)")
        if name in ("install", "remove"):
            s.add_argument("post_id", type=int)
        if name in ("install", "update"):
            s.add_argument("--game-version", required=True)
            s.add_argument("--loader", help="run platform code, e.g. forge")
            s.add_argument("--jobs", type=int, default=4, help="parallel downloads")
        if name == "install":
            s.add_argument("--side", choices=["client", "server"])
        if name == "remove":
            s.add_argument("--force", action="store_true")
    return p


COMMANDS: dict[str, Callable[[Any, argparse.Namespace], int]] = {
    "install": cmd_install,
    "verify": cmd_verify,
    "update": cmd_update,
    "list": cmd_list,
    "remove": cmd_remove,
}
OFFLINE = ("verify", "list", "remove")


def main(argv: list[str] | None = None) -> int:
    """Run modhub-get; answers the exit code."""
    a = parser().parse_args(argv)
    a.dest = a.dest.resolve()
    try:
        if a.command in OFFLINE:
            return COMMANDS[a.command](None, a)
        if not a.api_key or not a.secret:
            raise Fail(USAGE, "give --api-key and --secret (or MODHUB_API_KEY and MODHUB_SECRET)")
        a.dest.mkdir(parents=True, exist_ok=True)
        user = ProxyUser(a.user_id, a.token) if a.user_id or a.token else None
        with Client(a.base_url, a.api_key, a.secret, proxy_user=user) as client:
            return COMMANDS[a.command](client, a)
    except Fail as exc:
        print(f"modhub-get: {exc}", file=sys.stderr)
        return exc.code
    except VerificationError as exc:
        print(f"modhub-get: verification failed: {exc}", file=sys.stderr)
        return VERIFY
    except ApiError as exc:
        print(f"modhub-get: the API refused: {exc}", file=sys.stderr)
        return API
    except (httpx.HTTPError, ModhubError) as exc:
        print(f"modhub-get: {exc}", file=sys.stderr)
        return API


if __name__ == "__main__":
    sys.exit(main())
