"""download-auth, the temporary links it hands out, and the downloads they (and download-file)
serve; every served download is counted once per client per 10 minutes (counting.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping

from sqlalchemy.orm import Session

from models.catalog.queries import get_listed_or_raise
from models.catalog.tables import ResourceFile, ResourcePost
from models.downloads import access, counting, links
from models.downloads.vos import DownloadAuth
from models.files import records
from models.files.listing import visible_files
from models.files.service import Download, get_with_post_or_raise, resolve_download
from models.files.vos import DownloadInfo
from models.identity.service import get_user
from models.identity.tables import Application, AppStatus
from models.identity.tokens import live_token_or_raise, proxy_app_or_raise
from modhub.core import proxy_headers
from modhub.core.display import Display
from modhub.core.errors import ApiError
from modhub.core.storage import Storage


def default_file(session: Session, *, post_id: int) -> ResourceFile:
    """The resource's default file: its newest visible file (the first of its file list)."""
    f = session.scalars(
        visible_files()
        .where(ResourceFile.post_id == post_id)
        .order_by(ResourceFile.publish_time.desc(), ResourceFile.id.desc())
        .limit(1)
    ).first()
    if f is None:
        raise ApiError("RECORD_NOT_FOUND", f"resource {post_id} has no downloadable file")
    return f


def chosen_file(session: Session, *, post_id: int, file_id: int | None) -> tuple[ResourceFile, ResourcePost]:
    """The requested file of the resource (owner checked), or its default file; and the
    resource."""
    if file_id is None:
        post = get_listed_or_raise(session, post_id=post_id)
        return default_file(session, post_id=post_id), post
    return get_with_post_or_raise(session, file_id=file_id, post_id=post_id)


def request_user(
    session: Session, *, app_id: int, headers: Mapping[str, str], clock: Callable[[], dt.datetime]
) -> int | None:
    """The optional proxy user of a K operation: X-Proxy-Access-Token (of this application), else
    X-Proxy-User-Id (the application needs user:proxy), else none; parsed and checked by the
    gateway's rules (modhub.core.proxy_headers, models.identity.tokens)."""
    token = headers.get(proxy_headers.TOKEN_HEADER)
    if token:
        return live_token_or_raise(session, token=token, app_id=app_id, now=clock()).user_id
    user_id = proxy_headers.user_id(headers.get(proxy_headers.USER_ID_HEADER))
    if user_id is not None:
        return named_user(session, app_id=app_id, user_id=user_id)
    return None


def named_user(session: Session, *, app_id: int, user_id: int) -> int:
    """A user named by the application (header or body): needs user:proxy and a live user."""
    proxy_app_or_raise(session, app_id=app_id)
    if get_user(session, user_id=user_id) is None:
        raise ApiError("PROXY_USER_INVALID")
    return user_id


def signed_infos(
    session: Session,
    f: ResourceFile,
    *,
    settings: links.LinkSettings,
    display: Display,
    app_id: int,
    user_id: int | None,
    now: float,
) -> list[DownloadInfo]:
    """DownloadInfo list of a file: a temporary link for the on-site copy, else the file's own
    external link, then the other external sources (direct links and cloud-disk shares, which
    do not expire)."""
    infos = records.down_info(f)
    for info in infos:
        if info["storageType"] == "DIRECT_UPLOAD" and info["url"] is None:
            post = session.get(ResourcePost, f.post_id)  # the file's foreign key: always there
            bound = user_id if post is None or access.needs_user(post) else None
            info["url"], expires = links.make(settings, file_id=f.id, app_id=app_id, user_id=bound, now=now)
            info["expiresAt"] = display.time(dt.datetime.fromtimestamp(expires, dt.UTC))
    return infos


def download_auth(
    session: Session,
    *,
    settings: links.LinkSettings,
    display: Display,
    post_id: int,
    file_id: int | None,
    app_id: int,
    user_id: int | None,
    now: float,
) -> DownloadAuth:
    """DownloadAuthVo: temporary links of one file, empty (with deniedReason) when the user may
    not download the resource."""
    f, post = chosen_file(session, post_id=post_id, file_id=file_id)
    reason = access.denial(session, post, user_id)
    infos = (
        []
        if reason
        else signed_infos(
            session, f, settings=settings, display=display, app_id=app_id, user_id=user_id, now=now
        )
    )
    return {
        "fileInfoId": f.id,
        "fileTitle": f.title,
        "fileVersion": f.file_version,
        "resourceVersion": post.resource_version,
        "runPlatform": f.run_platform,
        "downloadInfos": infos,
        "deniedReason": reason,
    }


def _day(now: float) -> dt.date:
    """The statistics day of a moment (daily statistics are kept per UTC day)."""
    return dt.datetime.fromtimestamp(now, dt.UTC).date()


def count(
    counter: counting.Counter,
    *,
    post_id: int,
    file_id: int,
    user_id: int | None,
    address: str | None,
    now: float,
) -> bool:
    """Count one download of the file by this client (one Redis round trip)."""
    return counter.hit(
        post_id=post_id, file_id=file_id, client_key=counting.client_key(user_id, address), day=_day(now)
    )


def file_download(
    session: Session, storage: Storage, *, post_id: int, file_id: int, user_id: int | None
) -> Download:
    """download-file: the file's download once the user may download the resource."""
    d = resolve_download(session, storage, post_id=post_id, file_id=file_id)
    access.require(session, d.post, user_id)
    return d


def link_download(
    session: Session,
    storage: Storage,
    *,
    settings: links.LinkSettings,
    file_id: int,
    args: Mapping[str, str],
    api_key: str | None,
    now: float,
) -> tuple[Download, links.Link]:
    """The download a temporary link grants, every binding checked again now."""
    link = links.verify(settings, file_id=file_id, args=args, now=now)
    app = session.get(Application, link.app_id)
    if app is None or app.status is not AppStatus.APPROVED:
        raise ApiError("DOWNLOAD_LINK_INVALID", "the application of this link is not approved")
    if api_key is not None and api_key != app.api_key:
        raise ApiError("DOWNLOAD_LINK_OTHER_APP")
    d = resolve_download(session, storage, post_id=None, file_id=file_id)
    access.require(session, d.post, link.user_id)
    return d, link
