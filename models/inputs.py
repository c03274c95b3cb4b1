"""Checks on free-text input that the contract's schemas cannot express."""

from __future__ import annotations

from modhub.errors import ApiError


def require_storable_text(**fields: str | None) -> None:
    """PARAMETER_INVALID when a text field holds a NUL character (PostgreSQL text cannot store it)."""
    for name, value in fields.items():
        if value is not None and "\x00" in value:
            raise ApiError("PARAMETER_INVALID", f"{name} must not contain NUL characters")
