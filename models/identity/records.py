"""VO builders of identity: user profile, binding, access token, wallet balance, carousel placement."""

from __future__ import annotations

import datetime as dt
from typing import Any

from models.identity.tables import (
    ZERO,
    CarouselPlacement,
    ProxyToken,
    User,
    UserBinding,
    Wallet,
)
from modhub.core.display import Display


def user_profile(user: User, *, display: Display) -> dict[str, Any]:
    """OpenApiUserProfileVo of a user."""
    return {
        "userId": user.id,
        "loginName": user.login_name or user.username,
        "avatar": display.url(user.avatar),
        "gender": user.gender,
        "bio": user.bio,
        "location": user.location,
        "status": user.status,
        "registerTime": display.time(user.created_at),
    }


def binding_vo(row: UserBinding, *, display: Display) -> dict[str, Any]:
    """OpenApiUserBindingVO."""
    return {
        "bindingId": row.id,
        "userId": row.user_id,
        "appId": row.app_id,
        "externalUserId": row.external_user_id,
        "externalUsername": row.external_username,
        "bindSource": row.bind_source,
        "status": row.status,
        "bindTime": display.time(row.bind_time),
    }


def carousel_vo(row: CarouselPlacement, *, now: dt.datetime, display: Display) -> dict[str, Any]:
    """ServerProviderCarouselResultVo."""
    return {
        "carouselId": row.id,
        "status": "SCHEDULED" if row.start_time > now else "ACTIVE",
        "imageUrl": row.image_url,
        "targetUrl": row.target_url,
        "startTime": display.time(row.start_time),
        "endTime": display.time(row.end_time),
    }


def balance_vo(wallet: Wallet | None, currency: str) -> dict[str, Any]:
    """OpenApiProxyUserPointsVO (a wallet never used has a zero balance)."""
    balance = wallet.balance if wallet else ZERO
    frozen = wallet.frozen if wallet else ZERO
    return {
        "balance": balance,
        "frozenBalance": frozen,
        "availableBalance": balance - frozen,
        "currencyCode": currency,
    }


def access_token_vo(text: str, row: ProxyToken, *, display: Display) -> dict[str, Any]:
    """OpenApiAccessTokenVO of a token just issued."""
    return {
        "accessToken": text,
        "userId": str(row.user_id),
        "scopes": list(row.scopes),
        "issuedAt": display.time(row.issued_at),
        "expiresAt": display.time(row.expires_at),
        "tokenType": "Bearer",
        "expiresInSeconds": int((row.expires_at - row.issued_at).total_seconds()),
    }
