"""Identity helpers without a database: amounts, codes, the site's redirects, secrets, throttling."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from models.identity.tokens import random_code
from models.identity.wallets import parse_amount
from modhub.core.errors import ApiError
from modhub.site import session_secret
from modhub.site.throttle import PER_ADDRESS, PER_LOGIN, LoginThrottle
from modhub.site.views import _with_query


@pytest.mark.parametrize(
    "raw,want", [(1, "1"), (0.1, "0.1"), (10.5, "10.5"), (0.0001, "0.0001"), (1e12, "1000000000000")]
)
def test_amounts_are_exact_decimals(raw, want):
    assert parse_amount(raw) == Decimal(want)


@pytest.mark.parametrize("raw", [0, -1, 0.00001, 1e12 + 1, float("inf"), "abc"])
def test_bad_amounts(raw):
    with pytest.raises(ApiError) as info:
        parse_amount(raw)
    assert info.value.code == 200301


def test_codes_use_upper_case_letters_and_digits():
    codes = {random_code(8) for _ in range(200)}
    assert len(codes) == 200 and all(re.fullmatch(r"[A-Z0-9]{8}", c) for c in codes)


def test_redirect_keeps_the_registered_query():
    url = _with_query("https://app.example/cb?keep=1&x=", auth_code="ABC123", state=None)
    assert url == "https://app.example/cb?keep=1&x=&auth_code=ABC123"


def test_session_secret_is_derived_and_key_specific():
    assert session_secret("key-a") == session_secret("key-a") != session_secret("key-b")
    assert len(session_secret("key-a")) == 32


def test_local_throttle_counts_per_login_and_per_address():
    throttle = LoginThrottle()
    for _ in range(PER_LOGIN):
        assert not throttle.blocked("Steve", "10.0.0.1")
        throttle.failed("Steve", "10.0.0.1")
    assert throttle.blocked(" steve ", "10.0.0.2")
    assert not throttle.blocked("alex", "10.0.0.1")
    for i in range(PER_ADDRESS):
        throttle.failed(f"user{i}", "10.0.0.9")
    assert throttle.blocked("someone-new", "10.0.0.9")


def test_the_unknown_login_hash_costs_what_a_real_one_does():
    """A log-in with an unknown name verifies against a fixed hash: made with the parameters that
    PasswordHasher() uses now, so the time taken does not tell an unknown name from a wrong password."""
    from argon2 import PasswordHasher, extract_parameters

    from tests.helpers.env import PRODUCTION_DUMMY_HASH

    assert extract_parameters(PRODUCTION_DUMMY_HASH) == extract_parameters(PasswordHasher().hash("x"))
