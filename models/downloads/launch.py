"""What a launcher needs to start the game with a resource: install-launch (deep link, fallback
page, process names) and the startup command (heap sizes, Java version, loader arguments) with its
reports."""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from models.catalog.queries import get_listed_or_raise
from models.catalog.records import detail_url
from models.catalog.tables import ResourceFile
from models.downloads.tables import StartupCommandReport
from models.downloads.vos import InstallLaunch, StartupCommand, StartupCommandParam
from models.files.listing import visible_files
from modhub.core.display import Display


def install_launch(session: Session, *, display: Display, post_id: int) -> InstallLaunch:
    """InstallLaunchVo: the deep link of the platform client and how to detect or get it."""
    post = get_listed_or_raise(session, post_id=post_id)
    page = detail_url(post.id, display.site_url) or None
    client = None  # the platform publishes no client download page (never a link that 404s)
    guide = (
        f"1. Install the ModHub client{f' from {client}' if client else ''}.\n"
        f"2. Open `modhub://install?postId={post.id}`: the client shows **{post.main_name}** "
        "and installs it with its signed install script.\n"
        f"3. Without the client, download the files{f' from {page}' if page else ''} and "
        "verify each sha256 before use."
    )
    return {
        "postId": post.id,
        "deeplink": f"modhub://install?postId={post.id}",
        "fallbackUrl": page,
        "clientDownloadUrl": client,
        "detectProcessNames": ["ModHub.exe", "ModHub", "modhub-client"],
        "detectPaths": [
            "%LOCALAPPDATA%\\ModHub",
            "~/Library/Application Support/ModHub",
            "~/.local/share/modhub",
        ],
        "guide": guide,
    }


LOADER_ARGUMENTS: dict[str, list[str]] = {
    "forge": ["--launchTarget", "forgeclient"],
    "neoforge": ["--launchTarget", "neoforgeclient"],
    "fabric": [],
    "quilt": [],
}


MAIN_CLASS = {
    "forge": "cpw.mods.modlauncher.Launcher",
    "neoforge": "cpw.mods.modlauncher.Launcher",
    "fabric": "net.fabricmc.loader.impl.launch.knot.KnotClient",
    "quilt": "org.quiltmc.loader.impl.launch.knot.KnotClient",
}


def heap_sizes(memory_mb: int) -> tuple[int, int]:
    """(-Xms, -Xmx) in MiB for a machine: leave the system at least 1.5 GiB (a quarter of the
    memory at most), round down to 256 MiB, keep 512 MiB at least and 16 GiB at most."""
    heap_max = min(memory_mb - 1536, memory_mb * 3 // 4) // 256 * 256
    heap_max = max(512, min(16384, heap_max))
    return min(1024, heap_max), heap_max


def java_version(game_versions: list[str]) -> str | None:
    """Java major version of the newest Minecraft-style game version (1.x.y), else null."""
    parsed = []
    for v in game_versions:
        m = re.fullmatch(r"1\.(\d+)(?:\.(\d+))?", v or "")
        if m:
            parsed.append((int(m.group(1)), int(m.group(2) or 0)))
    if not parsed:
        return None
    minor, patch = max(parsed)
    return "21" if (minor, patch) >= (20, 5) else "17" if minor >= 18 else "16" if minor == 17 else "8"


def startup_command(session: Session, *, post_id: int, memory_mb: int) -> StartupCommand:
    """GameStartupCommandVo computed for the machine's memory and the run platform (GENERATED)."""
    post = get_listed_or_raise(session, post_id=post_id)
    versions = [
        v
        for f in session.scalars(visible_files().where(ResourceFile.post_id == post_id))
        for v in (f.resource_versions or [])
    ]
    xms, xmx = heap_sizes(memory_mb)
    loader = (post.run_platform or "").lower()
    jvm = [f"-Xms{xms}m", f"-Xmx{xmx}m", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=200"]
    loader_args = list(LOADER_ARGUMENTS.get(loader, []))
    main = MAIN_CLASS.get(loader)
    command = " ".join(["java", *jvm, *([main] if main else ["-jar", "server.jar"]), *loader_args])
    return {
        "postId": post.id,
        "memoryMb": memory_mb,
        "heapMinMb": xms,
        "heapMaxMb": xmx,
        "javaVersion": java_version(versions),
        "runPlatform": post.run_platform,
        "jvmArguments": jvm,
        "loaderArguments": loader_args,
        "command": command,
        "source": "GENERATED",
    }


def report_startup_command(
    session: Session, *, post_id: int, app_id: int, user_id: int | None, body: StartupCommandParam
) -> None:
    """Store the startup command a consumer finally used."""
    get_listed_or_raise(session, post_id=post_id)
    java, game = body.get("javaVersion"), body.get("gameVersion")
    session.add(
        StartupCommandReport(
            app_id=app_id,
            post_id=post_id,
            user_id=user_id,
            command=body["command"],
            origin=body["origin"],
            memory_mb=body.get("memoryMb"),
            java_version=java[:32] if java else None,
            game_version=game[:64] if game else None,
            success=body.get("success"),
            client_version=body.get("clientVersion"),
        )
    )
    session.flush()
