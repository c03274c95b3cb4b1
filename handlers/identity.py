"""Tokens, pairing, proxy users, wallets, bindings, SSO and provider activities."""

from models.identity import accounts, bindings, oauth, tokens, wallets
from models.identity.records import access_token_vo, binding_vo
from models.lobby import providers
from modhub.web import caller_app_id, code_guard, ok, platform, proxy_user_id, request_headers, session


def _now():
    return platform().clock()


def _presented_token() -> str:
    # The gateway has already validated it (these are token operations); it is not a parameter.
    return request_headers()["X-Proxy-Access-Token"]


def issue_access_token(body, **_):
    """OpenApiAccessTokenVO for an authorization code (issueAccessToken); userId is optional."""
    app_id = caller_app_id()
    user_id = int(body["userId"]) if body.get("userId") is not None else None
    keys = [("app", str(app_id))] + ([("user", f"{app_id}:{user_id}")] if user_id is not None else [])
    with code_guard().guarded("oauth", keys, _now().timestamp()):
        text, row = oauth.exchange_auth_code(
            session(),
            app_id=app_id,
            user_id=user_id,
            auth_code=body["authCode"],
            requested_scopes=body.get("requestedScopes"),
            now=_now(),
        )
    return ok(access_token_vo(text, row, display=platform().display))


def revoke_access_token(**_):
    """Boolean: presented token revoked (revokeAccessToken)."""
    return ok(tokens.revoke(session(), app_id=caller_app_id(), token=_presented_token(), now=_now()))


def redeem_pairing_code(body, **_):
    """OpenApiAccessTokenVO for a pairing code (redeemPairingCode)."""
    app_id = caller_app_id()
    with code_guard().guarded("pairing", [("app", str(app_id))], _now().timestamp()):
        text, row = oauth.redeem_pairing_code(
            session(), app_id=app_id, pairing_code=body["pairingCode"], now=_now()
        )
    return ok(access_token_vo(text, row, display=platform().display))


def register_proxy_user(body, **_):
    """OpenApiProxyUserRegisterVO of a new user (registerProxyUser)."""
    return ok(
        accounts.register(
            session(),
            app_id=caller_app_id(),
            username=body["username"],
            phone=body.get("phone"),
            email=body.get("email"),
            login_name=body.get("loginName"),
            password=body.get("password"),
            external_user_id=body.get("externalUserId"),
            external_username=body.get("externalUsername"),
            external_display_name=body.get("externalDisplayName"),
            now=_now(),
        )
    )


def get_points(user_id, **_):
    """OpenApiProxyUserPointsVO, the points balance (getProxyUserPoints)."""
    return ok(
        wallets.get_balance(session(), acting_user_id=proxy_user_id(), user_id=user_id, currency="POINTS")
    )


def adjust_points(user_id, body, **_):
    """OpenApiProxyUserPointsAdjustVO of a points change (adjustProxyUserPoints)."""
    return adjust_wallet(user_id=user_id, currency_code="POINTS", body=body)


def get_wallet_balance(user_id, currency_code, **_):
    """OpenApiProxyUserPointsVO of one wallet currency (getProxyUserWalletBalance)."""
    return ok(
        wallets.get_balance(
            session(), acting_user_id=proxy_user_id(), user_id=user_id, currency=currency_code
        )
    )


def adjust_wallet(user_id, currency_code, body, **_):
    """OpenApiProxyUserPointsAdjustVO of a wallet change (adjustProxyUserWallet)."""
    return ok(
        wallets.adjust(
            session(),
            app_id=caller_app_id(),
            acting_user_id=proxy_user_id(),
            user_id=user_id,
            currency=currency_code,
            amount=body["amount"],
            direction=body["direction"],
            reason=body["reason"],
            now=_now(),
            idempotency_key=request_headers().get("Idempotency-Key"),
        )
    )


def link_user_binding(body, **_):
    """OpenApiUserBindingVO of the upserted binding (linkUserBinding)."""
    row = bindings.link(
        session(),
        app_id=caller_app_id(),
        user_id=proxy_user_id(),
        external_user_id=body["externalUserId"],
        external_username=body.get("externalUsername"),
        external_display_name=body.get("externalDisplayName"),
        now=_now(),
    )
    return ok(binding_vo(row, display=platform().display))


def unlink_user_binding(body, **_):
    """Integer: bindings changed (unlinkUserBinding)."""
    return ok(
        bindings.unlink(
            session(),
            app_id=caller_app_id(),
            user_id=proxy_user_id(),
            external_user_id=body["externalUserId"],
            now=_now(),
        )
    )


def exchange_sso_ticket(**_):
    """OpenApiSsoTicketVO for the presented token (exchangeSsoTicket)."""
    return ok(oauth.create_sso_ticket(session(), app_id=caller_app_id(), user_id=proxy_user_id(), now=_now()))


def collect_activity_points(body, **_):
    """ServerProviderActivityCollectResultVo (collectProviderActivityPoints)."""
    return ok(
        providers.collect(
            session(),
            app_id=caller_app_id(),
            user_id=proxy_user_id(),
            request_id=body["requestId"],
            activity_code=body["activityCode"],
            amount=body["amount"],
            currency=body.get("currencyCode"),
            reason=body.get("reason"),
            now=_now(),
        )
    )


def place_carousel(body, **_):
    """ServerProviderCarouselResultVo of a placement (placeProviderCarousel)."""
    return ok(
        providers.place_carousel(
            session(),
            app_id=caller_app_id(),
            user_id=proxy_user_id(),
            target_url=body["targetUrl"],
            title=body["title"],
            end_time=body["endTime"],
            image_url=body.get("imageUrl"),
            image_file_id=body.get("imageFileId"),
            description=body.get("description"),
            server_post_id=body.get("serverPostId"),
            start_time=body.get("startTime"),
            now=_now(),
            display=platform().display,
        )
    )
