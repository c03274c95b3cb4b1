"""Install configuration, signed install information, the client hand-over and startup commands.

An install script is JSON text written by the author (kept byte for byte: the signature covers
the exact bytes). Recognised members: `files` (fileInfoIds; `@N` in the script means files[N],
and without `files` the resource's N-th file in its file-list order), `dependencies` (only their
versionRequirement: the dependencies themselves are the resource's DEPENDENCY relations),
`preChecks`, `postActions`, `serverPackLayout`, `source` (AUTHOR / AI), `summary`. Anything else
is the installer's business. A script that is not a JSON object still travels (raw, signed);
its parsed parts are then empty.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models.catalog.queries import get_listed_or_raise, listed_clause
from models.catalog.records import detail_url
from models.catalog.tables import ResourceFile, ResourcePost, ResourceRelation
from models.downloads import access, keys, links
from models.downloads.downloads import chosen_file, signed_infos
from models.downloads.script import parse, post_actions, pre_checks, requirements, server_pack_layout, text
from models.downloads.tables import StartupCommandReport
from models.downloads.vos import Dependency, InstallConfig, InstallFile, InstallInfo, ScriptDocument
from models.files.listing import visible_files
from modhub.core.display import Display
from modhub.core.errors import ApiError

REF = re.compile(r"@(\d{1,4})\b")


class InstallSettings(links.LinkSettings, keys.KeySettings, Protocol):
    """The settings install-info needs: those of its download links and of the key ring that
    signs its script (modhub.settings.Settings has them)."""


def dependencies(session: Session, *, post_id: int, doc: ScriptDocument) -> list[Dependency]:
    """Dependency list: the resource's DEPENDENCY relations (the one source, as the relations
    operation answers them, in its order); the script only adds versionRequirement."""
    rows = session.scalars(
        select(ResourceRelation)
        .where(ResourceRelation.post_id == post_id, ResourceRelation.relation_type == "DEPENDENCY")
        .order_by(ResourceRelation.sort_order, ResourceRelation.id)
    ).all()
    targets = {r.target_post_id for r in rows}
    names = (
        dict(
            session.execute(
                select(ResourcePost.id, ResourcePost.main_name).where(
                    ResourcePost.id.in_(targets), listed_clause()
                )
            ).all()
        )
        if targets
        else {}
    )
    wanted = requirements(doc)
    return [
        {
            "resourcePostId": r.target_post_id,
            "name": names.get(r.target_post_id),
            "required": r.is_required,
            "versionRequirement": wanted.get(r.target_post_id),
        }
        for r in rows
    ]


def referenced_files(
    session: Session, post_id: int, script: str | None, doc: ScriptDocument
) -> list[tuple[int, ResourceFile]]:
    """(index, file) of every @N the script references, ascending N; without a script, the
    default file as @0. References to no visible file of the resource are left out."""
    files = list(
        session.scalars(
            visible_files()
            .where(ResourceFile.post_id == post_id)
            .order_by(ResourceFile.publish_time.desc(), ResourceFile.id.desc())
        )
    )
    if not script:
        return [(0, files[0])] if files else []
    declared = doc.get("files")
    order: Sequence[ResourceFile | None]
    if isinstance(declared, list):
        by_id = {f.id: f for f in files}
        order = [by_id.get(i) if isinstance(i, int) else None for i in declared]
    else:
        order = files
    indexes = sorted({int(m) for m in REF.findall(script)})
    return [(i, f) for i in indexes if i < len(order) and (f := order[i]) is not None]


def install_file(
    index: int, f: ResourceFile, url: str | None = None, expires: str | None = None
) -> InstallFile:
    """InstallFileInfo of a file."""
    return {
        "index": index,
        "fileInfoId": f.id,
        "fileName": f.file_name,
        "fileSize": f.file_size,
        "sha256": f.sha256,
        "storageType": f.storage_type,
        "downloadUrl": url,
        "downloadUrlExpiresAt": expires,
        "resourceVersions": list(f.resource_versions or []),
        "runPlatform": f.run_platform,
        "environmentSide": f.environment_side,
    }


def file_url(
    session: Session,
    f: ResourceFile,
    *,
    allowed: bool,
    settings: links.LinkSettings,
    display: Display,
    app_id: int,
    user_id: int | None,
    now: float,
) -> tuple[str | None, str | None]:
    """(downloadUrl, its expiry) of an install file: the temporary on-site link or the external
    link; (None, None) for a cloud-disk share or when the caller may not download."""
    if not allowed or f.storage_type == "CLOUD_DISK":
        return None, None
    info = signed_infos(
        session, f, settings=settings, display=display, app_id=app_id, user_id=user_id, now=now
    )
    first = next((i for i in info if i["url"] and i["storageType"] != "CLOUD_DISK"), None)
    return (first["url"], first["expiresAt"]) if first else (None, None)


def install_config(
    session: Session,
    *,
    settings: links.LinkSettings,
    display: Display,
    post_id: int,
    app_id: int,
    now: float,
    file_id: int | None = None,
    is_script: Callable[[ScriptDocument], bool] = lambda doc: False,
) -> InstallConfig:
    """InstallConfigVo of a listed resource for one file (default: its newest). Download URLs
    are those of a caller without a user: null for paid or signed-in-only resources."""
    post = get_listed_or_raise(session, post_id=post_id)
    try:
        chosen = chosen_file(session, post_id=post_id, file_id=file_id)[0].id
    except ApiError:
        if file_id is not None:
            raise
        chosen = None  # a resource without files still has a configuration
    doc = parse(post.install_script)
    allowed = access.denial(session, post, None) is None
    minute = now - now % 60  # links made within one minute are equal: a stable answer (and ETag)

    def urls(f: ResourceFile) -> tuple[str | None, str | None]:
        return file_url(
            session,
            f,
            allowed=allowed,
            settings=settings,
            display=display,
            app_id=app_id,
            user_id=None,
            now=minute,
        )

    return {
        "postId": post.id,
        "fileInfoId": chosen,
        "mainName": post.main_name,
        "sectionCode": post.section_code,
        "resourceType": post.resource_type,
        "runPlatform": post.run_platform,
        "resourceVersion": post.resource_version,
        "clientEnvironment": post.client_environment,
        "serverEnvironment": post.server_environment,
        "clientInstallPath": post.client_install_path,
        "serverInstallPath": post.server_install_path,
        "installScript": post.install_script,
        "scriptDocument": doc if doc and is_script(doc) else None,
        "dependencies": dependencies(session, post_id=post.id, doc=doc),
        "preChecks": pre_checks(doc),
        "postActions": post_actions(doc),
        "serverPackLayout": server_pack_layout(doc),
        "files": [
            install_file(i, f, *urls(f))
            for i, f in referenced_files(session, post.id, post.install_script, doc)
        ],
    }


def verified_game_versions(session: Session, *, post_id: int) -> list[str]:
    """Game versions of successful startup reports, most reported first."""
    n = func.count(StartupCommandReport.id)
    rows = session.execute(
        select(StartupCommandReport.game_version, n)
        .where(
            StartupCommandReport.post_id == post_id,
            StartupCommandReport.success.is_(True),
            StartupCommandReport.game_version.is_not(None),
        )
        .group_by(StartupCommandReport.game_version)
        .order_by(n.desc(), StartupCommandReport.game_version.desc())
    ).all()
    return [v for v, _ in rows if v is not None]  # the query keeps known versions only


def install_info(
    session: Session,
    *,
    settings: InstallSettings,
    display: Display,
    post_id: int,
    app_id: int,
    user_id: int | None,
    now: float,
) -> InstallInfo:
    """OpenApiInstallInfoVo: the signed script and its files; download URLs only for a user who
    may download the resource (temporary links bound to the application and that user)."""
    post = get_listed_or_raise(session, post_id=post_id)
    script, doc = post.install_script, parse(post.install_script)
    allowed = access.denial(session, post, user_id) is None
    files = []
    for index, f in referenced_files(session, post.id, script, doc):
        url, expires = file_url(
            session,
            f,
            allowed=allowed,
            settings=settings,
            display=display,
            app_id=app_id,
            user_id=user_id,
            now=now,
        )
        files.append(install_file(index, f, url, expires))
    key_ring = keys.ring(session, settings) if script else None
    source = text(doc.get("source"))
    source = source if source in ("AUTHOR", "AI") else ("AUTHOR" if script else None)
    return {
        "postId": post.id,
        "name": post.main_name,
        "version": post.resource_version,
        "game": post.section_code,
        "script": script,
        "scriptSignature": key_ring.signer.sign(script.encode("utf-8")) if key_ring and script else None,
        "scriptKeyId": key_ring.kid if key_ring else None,
        "scriptSource": source,
        "scriptSummary": text(doc.get("summary")),
        "postUrl": detail_url(post.id, display.site_url) or None,
        "sourceType": None,
        "externalId": None,
        "externalGameId": None,
        "externalUrl": None,
        "files": files,
        "verifiedGameVersions": verified_game_versions(session, post_id=post.id),
    }
