"""The platform time zone is published on every answer (X-Modhub-Time-Zone) and in the served
contract (info.x-modhub-time-zone, the configured zone); a time a client sends has one form."""

from __future__ import annotations

import json

import pytest
import yaml

from modhub.core.display import parse_local_time
from tests.helpers.catalog import Catalogue, data, error_code


@pytest.fixture()
def settings(settings):
    """A platform in Berlin (the contract file names Asia/Shanghai, the default)."""
    return settings.replace(time_zone="Europe/Berlin")


@pytest.fixture()
def post(db):
    """A listed resource published at 2026-05-01 04:00 UTC."""
    cat = Catalogue(db)
    cat.section()
    cat.platform()
    return cat.post()


def test_every_answer_names_the_zone(signed, client, post):
    for response in (
        signed.get(f"/openapi/v2/mods/{post}"),
        signed.get("/openapi/v2/mods/999999999"),  # an error
        client.get("/openapi/v2/meta/openapi.json"),  # outside the envelope, anonymous
        client.get("/openapi/v2/no-such-path"),
    ):
        assert response.headers["X-Modhub-Time-Zone"] == "Europe/Berlin", response.request.url
    assert data(signed.get(f"/openapi/v2/mods/{post}"))["publishTime"] == "2026-05-01 06:00:00"


def test_the_served_contract_names_the_configured_zone(client):
    served = json.loads(client.get("/openapi/v2/meta/openapi.json").content)
    assert served["info"]["x-modhub-time-zone"] == "Europe/Berlin"
    served = yaml.safe_load(client.get("/openapi/v2/meta/openapi.yaml").content)
    assert served["info"]["x-modhub-time-zone"] == "Europe/Berlin"


def test_since_has_one_form(signed):
    path = "/openapi/v2/mods/user-feedback/resolved-since?since="
    assert data(signed.get(path + "2024-05-01T00:00:00")) == []
    for other in (
        "2024-05-01",
        "2024-05-01%2000:00:00",
        "2024-05-01T00:00",
        "2024-05-01T00:00:00.5",
        "20240501T000000",
    ):
        assert error_code(signed.get(path + other), 400) == 200301, other


def test_parse_local_time_takes_exactly_one_form():
    assert parse_local_time("2024-05-01 12:00:00", "Asia/Shanghai").isoformat() == "2024-05-01T04:00:00+00:00"
    assert parse_local_time("2024-05-01T12:00:00", "UTC", iso=True).isoformat() == "2024-05-01T12:00:00+00:00"
    for text in ("2024-5-1 1:02:03", "2024-05-01T12:00:00", "2024-05-01 12:00", " 2024-05-01 12:00:00"):
        with pytest.raises(ValueError):
            parse_local_time(text, "UTC")
    with pytest.raises(ValueError):
        parse_local_time("2024-05-01 12:00:00", "UTC", iso=True)
