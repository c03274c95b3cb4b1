"""Server-provider activities: collecting user points into the provider's account, carousel slides."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models.catalog.tables import ServerPost
from models.identity import wallets
from models.identity.records import carousel_vo
from models.identity.tables import ZERO, CarouselPlacement, ProviderAccount, ProviderCollect
from models.lobby.vos import CollectResultVO
from modhub.core.display import Display, parse_local_time
from modhub.core.errors import ApiError


def _collect_vo(row: ProviderCollect, *, duplicate: bool) -> CollectResultVO:
    return {
        "recordId": row.user_ledger_id,
        "requestId": row.request_id,
        "amount": row.amount,
        "currencyCode": row.currency,
        "userBalance": row.user_balance_after,
        "providerBalance": row.provider_balance_after,
        "duplicate": duplicate,
    }


def _account_id(session: Session, app_id: int, currency: str) -> int:
    query = select(ProviderAccount.id).where(
        ProviderAccount.app_id == app_id, ProviderAccount.currency == currency
    )
    found = session.scalar(query)
    if found is not None:
        return found
    try:
        with session.begin_nested():
            account = ProviderAccount(app_id=app_id, currency=currency, balance=ZERO)
            session.add(account)
        return account.id
    except IntegrityError:
        return session.execute(query).scalar_one()


def _replay(
    session: Session, app_id: int, request_id: str, activity_code: str, amount: Decimal, currency: str
) -> CollectResultVO | None:
    """The stored result of an already processed requestId (CONFLICT if its parameters differ)."""
    row = session.scalar(
        select(ProviderCollect).where(
            ProviderCollect.app_id == app_id, ProviderCollect.request_id == request_id
        )
    )
    if row is None:
        return None
    if (row.activity_code, row.amount, row.currency) != (activity_code, amount, currency):
        raise ApiError("CONFLICT", "requestId was already used with different parameters")
    return _collect_vo(row, duplicate=True)


def collect(
    session: Session,
    *,
    app_id: int,
    user_id: int,
    request_id: str,
    activity_code: str,
    amount: object,
    currency: str | None,
    reason: str | None,
    now: dt.datetime,
) -> CollectResultVO:
    """ServerProviderActivityCollectResultVo: move points from the user to the provider, once."""
    currency = currency or "POINTS"
    value = wallets.parse_amount(amount)
    done = _replay(session, app_id, request_id, activity_code, value, currency)
    if done is not None:
        return done
    text = reason or f"activity {activity_code}"
    entry, available = wallets.change(
        session, user_id=user_id, currency=currency, delta=-value, reason=text, app_id=app_id, now=now
    )
    account = _account_id(session, app_id, currency)
    provider_balance = session.scalar(
        update(ProviderAccount)
        .where(ProviderAccount.id == account)
        .values(balance=ProviderAccount.balance + value, updated_at=now)
        .returning(ProviderAccount.balance)
    )
    row = ProviderCollect(
        app_id=app_id,
        request_id=request_id,
        account_id=account,
        user_id=user_id,
        activity_code=activity_code,
        currency=currency,
        amount=value,
        reason=reason,
        user_ledger_id=entry.id,
        user_balance_after=available,
        provider_balance_after=provider_balance,
        created_at=now,
    )
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError as exc:
        # The same requestId is being processed concurrently; its first commit wins.
        raise ApiError("CONFLICT", "requestId is being processed concurrently; retry") from exc
    return _collect_vo(row, duplicate=False)


def _web_url(value: str, field: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ApiError("PARAMETER_INVALID", f"{field} must be an absolute http(s) URL")
    return value


def _parse_time(value: str, field: str, zone: str) -> dt.datetime:
    """A `yyyy-MM-dd HH:mm:ss` string in the platform time zone, as UTC."""
    try:
        return parse_local_time(value, zone)
    except ValueError as exc:
        raise ApiError("PARAMETER_INVALID", f"{field} must be yyyy-MM-dd HH:mm:ss") from exc


def _own_server_post(session: Session, *, post_id: int, user_id: int) -> None:
    """A promoted server post must exist and belong to the user acted for."""
    post = session.get(ServerPost, post_id)
    if post is None or post.is_delete:
        raise ApiError("RECORD_NOT_FOUND", f"server post {post_id} does not exist")
    if post.user_id != user_id:
        raise ApiError("SCOPE_DENIED", "the server post belongs to another user")


def place_carousel(
    session: Session,
    *,
    app_id: int,
    user_id: int,
    target_url: str,
    title: str,
    end_time: str,
    image_url: str | None = None,
    image_file_id: int | None = None,
    description: str | None = None,
    server_post_id: int | None = None,
    start_time: str | None = None,
    now: dt.datetime,
    display: Display,
) -> dict[str, Any]:
    """Place a carousel slide at once (no review); ServerProviderCarouselResultVo."""
    if (image_url is None) == (image_file_id is None):
        raise ApiError("PARAMETER_INVALID", "give exactly one of imageFileId and imageUrl")
    if image_url is None:  # so image_file_id is given
        # No uploaded-image store exists yet, so no id can name an uploaded image.
        raise ApiError("RECORD_NOT_FOUND", f"no uploaded image {image_file_id}: give imageUrl")
    if server_post_id is not None:
        _own_server_post(session, post_id=server_post_id, user_id=user_id)
    start = _parse_time(start_time, "startTime", display.time_zone) if start_time else now
    end = _parse_time(end_time, "endTime", display.time_zone)
    if end <= start or end <= now:
        raise ApiError("PARAMETER_INVALID", "endTime must be after startTime and in the future")
    row = CarouselPlacement(
        app_id=app_id,
        user_id=user_id,
        image_url=_web_url(image_url, "imageUrl"),
        target_url=_web_url(target_url, "targetUrl"),
        title=title,
        description=description,
        server_post_id=server_post_id,
        start_time=start,
        end_time=end,
        created_at=now,
    )
    session.add(row)
    session.flush()
    return carousel_vo(row, now=now, display=display)
