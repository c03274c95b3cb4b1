"""User wallets per currency, changed only by conditional updates, with a ledger row per change.

A balance change is one `UPDATE ... WHERE balance - frozen + delta >= 0 RETURNING balance`: the
database applies concurrent changes one after another and refuses any that would go below zero,
so no adjustment is lost and no balance is ever negative, on PostgreSQL and SQLite alike.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from sqlalchemy import CheckConstraint, ForeignKey, Numeric, String, UniqueConstraint, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from models import idempotency
from models.base import Base
from models.identity import get_user_or_raise
from models.types import big_id, id_pk, money, utc_time, utcnow
from modhub.errors import ApiError

CURRENCIES = ("GOLD_COIN", "POINTS", "CASH")
MAX_AMOUNT = Decimal("1000000000000")        # one adjustment
MAX_BALANCE = Decimal("1000000000000000")    # fits NUMERIC(20, 4) with room to spare
QUANTUM = Decimal("0.0001")
ZERO = Decimal("0")


class Wallet(Base):
    """One user's balance in one currency; frozen is the part set aside and not spendable."""

    __tablename__ = "wallet"
    __table_args__ = (UniqueConstraint("user_id", "currency", name="uq_wallet_user_currency"),
                      CheckConstraint("balance >= 0", name="balance_not_negative"),
                      CheckConstraint("frozen >= 0 AND frozen <= balance", name="frozen_within_balance"))

    id: Mapped[id_pk]
    user_id: Mapped[big_id] = mapped_column(ForeignKey("app_user.id"))
    currency: Mapped[str] = mapped_column(String(16))
    balance: Mapped[money] = mapped_column(default=ZERO)
    frozen: Mapped[money] = mapped_column(default=ZERO)
    updated_at: Mapped[utc_time] = mapped_column(default=utcnow)


class WalletLedger(Base):
    """One balance change: signed amount, balance after it, why, and which application made it."""

    __tablename__ = "wallet_ledger"

    id: Mapped[id_pk]
    wallet_id: Mapped[big_id] = mapped_column(ForeignKey("wallet.id"), index=True)
    user_id: Mapped[big_id]
    currency: Mapped[str] = mapped_column(String(16))
    amount: Mapped[Decimal] = mapped_column(Numeric(20, 4))
    balance_after: Mapped[money]
    reason: Mapped[str] = mapped_column(String(200))
    app_id: Mapped[int | None] = mapped_column(ForeignKey("application.id"))
    created_at: Mapped[utc_time] = mapped_column(default=utcnow)


def parse_amount(raw) -> Decimal:
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


def balance_vo(wallet: Wallet | None, currency: str) -> dict:
    """OpenApiProxyUserPointsVO (a wallet never used has a zero balance)."""
    balance = wallet.balance if wallet else ZERO
    frozen = wallet.frozen if wallet else ZERO
    return {"balance": balance, "frozenBalance": frozen, "availableBalance": balance - frozen,
            "currencyCode": currency}


def get_balance(session: Session, *, acting_user_id: int, user_id: int, currency: str) -> dict:
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
        return session.scalar(query)


def change(session: Session, *, user_id: int, currency: str, delta: Decimal, reason: str,
           app_id: int | None, now: dt.datetime) -> tuple[WalletLedger, Decimal]:
    """Apply a signed change atomically, write its ledger row: (row, available balance after).

    CONFLICT when the change would make the available balance negative or exceed MAX_BALANCE.
    """
    wid = wallet_id(session, user_id=user_id, currency=currency)
    after = session.execute(
        update(Wallet)
        .where(Wallet.id == wid, Wallet.balance - Wallet.frozen + delta >= 0,
               Wallet.balance + delta <= MAX_BALANCE)
        .values(balance=Wallet.balance + delta, updated_at=now)
        .returning(Wallet.balance, Wallet.frozen)).first()
    if after is None:
        raise ApiError("CONFLICT", "insufficient available balance" if delta < 0
                       else f"balance would exceed {MAX_BALANCE}")
    entry = WalletLedger(wallet_id=wid, user_id=user_id, currency=currency, amount=delta,
                         balance_after=after.balance, reason=reason, app_id=app_id, created_at=now)
    session.add(entry)
    session.flush()
    return entry, after.balance - after.frozen


def adjust(session: Session, *, app_id: int, acting_user_id: int, user_id: int, currency: str,
           amount, direction: str, reason: str, now: dt.datetime,
           idempotency_key: str | None = None) -> dict:
    """OpenApiProxyUserPointsAdjustVO of an ADD or DEDUCT on the wallet of the user acted for.

    With an idempotency key, a repeat of the same request answers like the first without a
    second change (models/idempotency.py).
    """
    require_self(acting_user_id=acting_user_id, user_id=user_id)
    get_user_or_raise(session, user_id=user_id)
    value = parse_amount(amount)
    claimed = None
    if idempotency_key:
        digest = idempotency.fingerprint(user_id=user_id, currency=currency, amount=str(value),
                                         direction=direction, reason=reason)
        claimed = idempotency.claim(session, app_id=app_id, key=idempotency_key, digest=digest,
                                    currency=currency, now=now)
        if isinstance(claimed, dict):
            return claimed
    entry, _ = change(session, user_id=user_id, currency=currency,
                      delta=value if direction == "ADD" else -value, reason=reason, app_id=app_id, now=now)
    result = {"newBalance": entry.balance_after, "recordId": entry.id, "currencyCode": currency}
    if claimed is not None:
        idempotency.remember(session, claimed, result=result)
    return result
