"""Tokens, pairing, proxy users, wallets, bindings, SSO and provider activities."""

from modhub.errors import not_implemented


def issue_access_token(**kwargs):
    """OpenApiAccessTokenVO for an authorization code (issueAccessToken)."""
    raise not_implemented("issueAccessToken")


def revoke_access_token(**kwargs):
    """Boolean: presented token revoked (revokeAccessToken)."""
    raise not_implemented("revokeAccessToken")


def redeem_pairing_code(**kwargs):
    """OpenApiAccessTokenVO for a pairing code (redeemPairingCode)."""
    raise not_implemented("redeemPairingCode")


def register_proxy_user(**kwargs):
    """OpenApiProxyUserRegisterVO of a new user (registerProxyUser)."""
    raise not_implemented("registerProxyUser")


def get_points(**kwargs):
    """OpenApiProxyUserPointsVO, the points balance (getProxyUserPoints)."""
    raise not_implemented("getProxyUserPoints")


def adjust_points(**kwargs):
    """OpenApiProxyUserPointsAdjustVO of a points change (adjustProxyUserPoints)."""
    raise not_implemented("adjustProxyUserPoints")


def get_wallet_balance(**kwargs):
    """OpenApiProxyUserPointsVO of one wallet currency (getProxyUserWalletBalance)."""
    raise not_implemented("getProxyUserWalletBalance")


def adjust_wallet(**kwargs):
    """OpenApiProxyUserPointsAdjustVO of a wallet change (adjustProxyUserWallet)."""
    raise not_implemented("adjustProxyUserWallet")


def link_user_binding(**kwargs):
    """OpenApiUserBindingVO of the upserted binding (linkUserBinding)."""
    raise not_implemented("linkUserBinding")


def unlink_user_binding(**kwargs):
    """Integer: bindings changed (unlinkUserBinding)."""
    raise not_implemented("unlinkUserBinding")


def exchange_sso_ticket(**kwargs):
    """OpenApiSsoTicketVO for the presented token (exchangeSsoTicket)."""
    raise not_implemented("exchangeSsoTicket")


def collect_activity_points(**kwargs):
    """ServerProviderActivityCollectResultVo (collectProviderActivityPoints)."""
    raise not_implemented("collectProviderActivityPoints")


def place_carousel(**kwargs):
    """ServerProviderCarouselResultVo of a placement (placeProviderCarousel)."""
    raise not_implemented("placeProviderCarousel")
