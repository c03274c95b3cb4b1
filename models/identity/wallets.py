"""User wallets per currency, changed only by conditional updates, with a ledger row per change, and
the idempotency keys of wallet adjustments (a retried request with the same key applies once).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from models.identity.records import balance_vo
from models.identity.service import get_user_or_raise
from models.identity.tables import ZERO, IdempotencyKey, Wallet, WalletLedger
from modhub.core.errors import ApiError

CURRENCIES = ("GOLD_COIN", "POINTS", "CASH")
MAX_AMOUNT = Decimal("1000000000000")  # one adjustment
MAX_BALANCE = Decimal("1000000000000000")  # fits NUMERIC(20, 4) with room to spare
QUANTUM = Decimal("0.0001")


def parse_amount(raw: object) -> Decimal:
    """A positive amount with at most 4 decimals and at most MAX_AMOUNT, else PARAMETER_INVALID."""
    try:
        amount = Decimal(str(raw))
    except InvalidOperation as exc:
        raise ApiError("PARAMETER_INVALID", "amount is not a number") from exc
    if not amount.is_finite() or amount <= 0 or amount > MAX_AMOUNT:
        raise ApiError("PARAMETER_INVALID", f"amount must be above 0 and at most {MAX_AMOUNT}")
    if amount != amount.quantize(QUANTUM):
        raise ApiError("PARAMETER_INVALID", "amount has more than 4 decimal places")
    return amount


def require_self(*, acting_user_id: int, user_id: int) -> None:
    """The path userId must be the user acted for (the token's user)."""
    if user_id != acting_user_id:
        raise ApiError("SCOPE_DENIED", "the path userId is not the user this token acts for")


def get_balance(session: Session, *, acting_user_id: int, user_id: int, currency: str) -> dict[str, Any]:
    """OpenApiProxyUserPointsVO of the user acted for."""
    require_self(acting_user_id=acting_user_id, user_id=user_id)
    wallet = session.scalar(select(Wallet).where(Wallet.user_id == user_id, Wallet.currency == currency))
    return balance_vo(wallet, currency)


def wallet_id(session: Session, *, user_id: int, currency: str) -> int:
    """The id of the user's wallet in this currency, created empty on first use."""
    query = select(Wallet.id).where(Wallet.user_id == user_id, Wallet.currency == currency)
    found = session.scalar(query)
    if found is not None:
        return found
    try:
        with session.begin_nested():
            wallet = Wallet(user_id=user_id, currency=currency, balance=ZERO, frozen=ZERO)
            session.add(wallet)
        return wallet.id
    except IntegrityError:
        # Created by a concurrent first adjustment: use that one.
        return session.execute(query).scalar_one()


def change(
    session: Session,
    *,
    user_id: int,
    currency: str,
    delta: Decimal,
    reason: str,
    app_id: int | None,
    now: dt.datetime,
) -> tuple[WalletLedger, Decimal]:
    """Apply a signed change atomically, write its ledger row: (row, available balance after).

    CONFLICT when the change would make the available balance negative or exceed MAX_BALANCE.
    """
    wid = wallet_id(session, user_id=user_id, currency=currency)
    after = session.execute(
        update(Wallet)
        .where(
            Wallet.id == wid,
            Wallet.balance - Wallet.frozen + delta >= 0,
            Wallet.balance + delta <= MAX_BALANCE,
        )
        .values(balance=Wallet.balance + delta, updated_at=now)
        .returning(Wallet.balance, Wallet.frozen)
    ).first()
    if after is None:
        raise ApiError(
            "CONFLICT",
            "insufficient available balance" if delta < 0 else f"balance would exceed {MAX_BALANCE}",
        )
    entry = WalletLedger(
        wallet_id=wid,
        user_id=user_id,
        currency=currency,
        amount=delta,
        balance_after=after.balance,
        reason=reason,
        app_id=app_id,
        created_at=now,
    )
    session.add(entry)
    session.flush()
    return entry, after.balance - after.frozen


def adjust(
    session: Session,
    *,
    app_id: int,
    acting_user_id: int,
    user_id: int,
    currency: str,
    amount: object,
    direction: str,
    reason: str,
    now: dt.datetime,
    idempotency_key: str | None = None,
) -> dict[str, Any]:
    """OpenApiProxyUserPointsAdjustVO of an ADD or DEDUCT on the wallet of the user acted for.

    With an idempotency key, a repeat of the same request answers like the first without a
    second change (models/py).
    """
    require_self(acting_user_id=acting_user_id, user_id=user_id)
    get_user_or_raise(session, user_id=user_id)
    value = parse_amount(amount)
    key: IdempotencyKey | None = None
    if idempotency_key:
        digest = fingerprint(
            user_id=user_id, currency=currency, amount=str(value), direction=direction, reason=reason
        )
        claimed = claim(
            session, app_id=app_id, key=idempotency_key, digest=digest, currency=currency, now=now
        )
        if isinstance(claimed, dict):
            return claimed
        key = claimed
    entry, _ = change(
        session,
        user_id=user_id,
        currency=currency,
        delta=value if direction == "ADD" else -value,
        reason=reason,
        app_id=app_id,
        now=now,
    )
    result = {"newBalance": entry.balance_after, "recordId": entry.id, "currencyCode": currency}
    if key is not None:
        remember(session, key, result=result)
    return result


KEEP = dt.timedelta(hours=24)


def fingerprint(**request: object) -> str:
    """A stable digest of the request's parameters."""
    return hashlib.sha256(json.dumps(request, sort_keys=True, default=str).encode()).hexdigest()


def claim(
    session: Session, *, app_id: int, key: str, digest: str, currency: str, now: dt.datetime
) -> IdempotencyKey | dict[str, Any]:
    """Claim the key (a new row to fill in) or return the remembered answer of an earlier use."""
    for _ in range(2):
        try:
            with session.begin_nested():
                row = IdempotencyKey(
                    app_id=app_id,
                    key=key,
                    fingerprint=digest,
                    currency=currency,
                    created_at=now,
                    expires_at=now + KEEP,
                )
                session.add(row)
            return row
        except IntegrityError:
            earlier = session.scalar(
                select(IdempotencyKey).where(IdempotencyKey.app_id == app_id, IdempotencyKey.key == key)
            )
            if earlier is None:
                continue
            if earlier.expires_at <= now:  # an old key may be used again
                session.execute(delete(IdempotencyKey).where(IdempotencyKey.id == earlier.id))
                continue
            if earlier.fingerprint != digest:
                raise ApiError("CONFLICT", "this Idempotency-Key was used with other parameters") from None
            return {
                "newBalance": earlier.new_balance,
                "recordId": earlier.record_id,
                "currencyCode": earlier.currency,
            }
    raise ApiError("CONFLICT", "this Idempotency-Key is being used by another request")


def remember(session: Session, row: IdempotencyKey, *, result: dict[str, Any]) -> None:
    """Store the answer of the request that claimed the key."""
    row.record_id, row.new_balance = result["recordId"], result["newBalance"]
    session.flush()
