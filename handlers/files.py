"""Files, downloads, install configuration and information, startup commands."""

import functools

from models.downloads import downloads, install, launch, lookup, script
from models.downloads.vos import StartupCommandParam
from models.files import listing
from models.files import service as files
from modhub import blobs
from modhub.web import caller, caller_app_id, ok, ok_tagged, platform, request_headers, session


def _now() -> float:
    return platform().clock().timestamp()


def _user() -> int | None:
    """The optional proxy user of a K operation (X-Proxy-Access-Token or X-Proxy-User-Id)."""
    state = caller()
    if state.proxy_user_id is not None:
        return state.proxy_user_id
    return downloads.request_user(
        session(), app_id=caller_app_id(), headers=request_headers(), clock=platform().clock
    )


def list_files(post_id: int, **_):
    """List of FileSummaryVO of a resource (listModFiles, listResourceFiles)."""
    return ok_tagged(listing.list_files(session(), post_id=post_id, display=platform().display))


def get_file(post_id: int, file_id: int, **_):
    """FileDetailVO of one file (getModFile, getResourceFile)."""
    return ok_tagged(
        files.get_detail(session(), post_id=post_id, file_id=file_id, display=platform().display)
    )


def download_file(post_id: int, file_id: int, **_):
    """File content or 302 redirect (no envelope) (downloadModFile, downloadResourceFile)."""
    storage, user = platform().storage, _user()
    d = downloads.file_download(session(), storage, post_id=post_id, file_id=file_id, user_id=user)
    return blobs.serve(d, user_id=user)


def get_download_url(file_id: int, post_id: int | None = None, **_):
    """FileDownloadUrlVO of one file (getFileDownloadUrl, getResourceFileDownloadUrl)."""
    return ok_tagged(files.get_download_url(session(), file_id=file_id, post_id=post_id))


def get_batch(body: dict, **_):
    """List of FileSummaryVO (or null) in request order (batchGetFiles, getFileBatch)."""
    return ok_tagged(listing.get_batch(session(), file_ids=body["fileInfoIds"], display=platform().display))


def download_auth(post_id: int, body: dict | None = None, **_):
    """DownloadAuthVo: temporary links of one file (authorizeResourceDownload, legacyDownloadAuth)."""
    body, db = body or {}, session()
    user = (
        downloads.named_user(db, app_id=caller_app_id(), user_id=body["proxyUserId"])
        if body.get("proxyUserId")
        else _user()
    )
    return ok(
        downloads.download_auth(
            db,
            settings=platform().settings,
            display=platform().display,
            post_id=post_id,
            file_id=body.get("fileInfoId"),
            app_id=caller_app_id(),
            user_id=user,
            now=_now(),
        )
    )


def get_install_config(post_id: int, file_info_id: int | None = None, **_):
    """InstallConfigVo (getModInstallConfig, getResourceInstallConfig, legacyGetInstallConfig)."""
    return ok_tagged(
        install.install_config(
            session(),
            settings=platform().settings,
            display=platform().display,
            post_id=post_id,
            app_id=caller_app_id(),
            now=_now(),
            file_id=file_info_id,
            is_script=_script_check(),
        )
    )


@functools.cache
def _script_check():
    """The InstallScript check of this process's contract (built once)."""
    return script.script_checker(platform().contract.document)


def get_install_info(post_id: int, **_):
    """OpenApiInstallInfoVo with the signed script (getModInstallInfo, getResourceInstallInfo)."""
    return ok(
        install.install_info(
            session(),
            settings=platform().settings,
            display=platform().display,
            post_id=post_id,
            app_id=caller_app_id(),
            user_id=_user(),
            now=_now(),
        )
    )


def get_install_launch(post_id: int, **_):
    """InstallLaunchVo (getModInstallLaunch, getResourceInstallLaunch)."""
    return ok_tagged(launch.install_launch(session(), display=platform().display, post_id=post_id))


def get_game_startup_command(post_id: int, memory_mb: int, **_):
    """GameStartupCommandVo for a machine (get*GameStartupCommand)."""
    return ok_tagged(launch.startup_command(session(), post_id=post_id, memory_mb=memory_mb))


def report_game_startup_command(post_id: int, body: StartupCommandParam, **_):
    """Store the startup command a consumer used (report*GameStartupCommand)."""
    launch.report_startup_command(
        session(), post_id=post_id, app_id=caller_app_id(), user_id=_user(), body=body
    )
    return ok(None)


def lookup_files(body: dict, **_):
    """FileHashMatchVO (or null) per hash in request order (lookupFilesByHash, an extension)."""
    return ok(
        lookup.lookup(
            session(), algorithm=body["algorithm"], hashes=body["hashes"], display=platform().display
        )
    )


def find_updates(body: dict, **_):
    """FileUpdateVO per hash in request order (findFileUpdates, an extension)."""
    return ok(
        lookup.updates(
            session(),
            algorithm=body["algorithm"],
            hashes=body["hashes"],
            game_version=body["gameVersion"],
            run_platform=body.get("runPlatform"),
            environment_side=body.get("environmentSide"),
            display=platform().display,
        )
    )
