"""Idempotency keys of wallet adjustments: a retried request with the same key applies once.

The key is claimed by inserting its row before the change is made, in the same transaction. A
second request with that key blocks on the unique index until the first commits (or rolls
back), then finds the row and answers with the remembered result instead of changing the
balance again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from decimal import Decimal

from sqlalchemy import ForeignKey, Numeric, String, UniqueConstraint, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from models.base import Base
from models.types import big_id, id_pk, utc_time
from modhub.errors import ApiError

KEEP = dt.timedelta(hours=24)


class IdempotencyKey(Base):
    """A claimed key: who used it, a fingerprint of the request, and the answer it got."""

    __tablename__ = "idempotency_key"
    __table_args__ = (UniqueConstraint("app_id", "key", name="uq_idempotency_key_app_key"),)

    id: Mapped[id_pk]
    app_id: Mapped[big_id] = mapped_column(ForeignKey("application.id"))
    key: Mapped[str] = mapped_column(String(64))
    fingerprint: Mapped[str] = mapped_column(String(64))
    record_id: Mapped[int | None] = mapped_column(ForeignKey("wallet_ledger.id"))
    new_balance: Mapped[Decimal | None] = mapped_column(Numeric(20, 4))
    currency: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[utc_time]
    expires_at: Mapped[utc_time]


def fingerprint(**request) -> str:
    """A stable digest of the request's parameters."""
    return hashlib.sha256(json.dumps(request, sort_keys=True, default=str).encode()).hexdigest()


def claim(session: Session, *, app_id: int, key: str, digest: str, currency: str,
          now: dt.datetime) -> IdempotencyKey | dict:
    """Claim the key (a new row to fill in) or return the remembered answer of an earlier use."""
    for _ in range(2):
        try:
            with session.begin_nested():
                row = IdempotencyKey(app_id=app_id, key=key, fingerprint=digest, currency=currency,
                                     created_at=now, expires_at=now + KEEP)
                session.add(row)
            return row
        except IntegrityError:
            earlier = session.scalar(select(IdempotencyKey).where(
                IdempotencyKey.app_id == app_id, IdempotencyKey.key == key))
            if earlier is None:
                continue
            if earlier.expires_at <= now:  # an old key may be used again
                session.execute(delete(IdempotencyKey).where(IdempotencyKey.id == earlier.id))
                continue
            if earlier.fingerprint != digest:
                raise ApiError("CONFLICT", "this Idempotency-Key was used with other parameters") from None
            return {"newBalance": earlier.new_balance, "recordId": earlier.record_id,
                    "currencyCode": earlier.currency}
    raise ApiError("CONFLICT", "this Idempotency-Key is being used by another request")


def remember(session: Session, row: IdempotencyKey, *, result: dict) -> None:
    """Store the answer of the request that claimed the key."""
    row.record_id, row.new_balance = result["recordId"], result["newBalance"]
    session.flush()
