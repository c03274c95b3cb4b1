"""uploadDraftFile is a multipart operation: the upload limit applies, and nothing is recorded."""

import pytest
from sqlalchemy import func, select

from models.authoring.tables import DraftFile
from tests.helpers.authoring import V2
from tests.helpers.catalog import data, error_code


@pytest.fixture()
def settings(settings):
    """A 4 KiB upload limit."""
    return settings.replace(max_upload_bytes=4096)


def test_an_upload_above_the_limit_is_refused(signed, db, author):
    big = signed.post(f"{V2}/draft-files", files={"file": ("big.bin", b"x" * 8192)}, headers=author.headers)
    assert error_code(big, 413) == 200302
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(DraftFile)) == 0
    small = data(
        signed.post(
            f"{V2}/draft-files", files={"file": ("C:\\dir/../s.bin", b"x" * 100)}, headers=author.headers
        )
    )
    assert small["size"] == 100 and small["fileName"] == "s.bin"
