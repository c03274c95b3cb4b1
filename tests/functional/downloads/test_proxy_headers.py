"""The optional proxy user of download-file, install-info and the v1 download-auth is read by the
gateway's rules (modhub.core.proxy_headers): a malformed X-Proxy-User-Id (a raw byte such as
0xB9, which Latin-1 reads as "¹" and str.isdigit() accepts) is 401 / 200215, never a 500."""

from __future__ import annotations

import pytest

from modhub.core import proxy_headers
from modhub.core.errors import ApiError
from tests.helpers.catalog import error_code

MALFORMED = [b"\xb9", b"\xb9\xb2", b"1\xb9", b"\xd9\xa1", b"+5", b" 5", b"99999999999999999999"]


@pytest.mark.parametrize("raw", MALFORMED, ids=repr)
def test_a_malformed_proxy_user_id_is_200215_on_the_download_operations(signed, post, stored, raw):
    file_id = stored(post, b"jar bytes")
    for method, path, kwargs in [
        ("GET", f"/openapi/v2/resource/{post}/file/{file_id}/download-file", {}),
        ("GET", f"/openapi/v2/mods/{post}/install-info", {}),
        ("POST", f"/openapi/v1/resource/{post}/download-auth", {"json": {"fileInfoId": file_id}}),
    ]:
        response = signed.request(method, path, headers={"X-Proxy-User-Id": raw}, **kwargs)
        assert error_code(response, 401) == 200215, (path, raw)


def test_a_well_formed_proxy_user_id_is_still_read(signed, post, stored, make_user):
    file_id = stored(post, b"jar bytes")
    user = make_user()
    path = f"/openapi/v2/resource/{post}/file/{file_id}/download-file"
    assert signed.get(path, headers={"X-Proxy-User-Id": str(user)}).status_code in (200, 302)
    assert error_code(signed.get(path, headers={"X-Proxy-User-Id": "999999999"}), 401) == 200215


def test_the_one_parser_rules():
    assert proxy_headers.user_id("42") == 42 and proxy_headers.user_id(str(2**63 - 1)) == 2**63 - 1
    assert proxy_headers.user_id(None) is None and proxy_headers.user_id("") is None
    for raw in ["¹", "١", "4²", "-1", "1 ", "0x1", str(2**63), "1" * 20, "1\n"]:
        assert proxy_headers.user_id_or_none(raw) is None, raw
        with pytest.raises(ApiError) as caught:
            proxy_headers.user_id(raw)
        assert caught.value.code == 200215
