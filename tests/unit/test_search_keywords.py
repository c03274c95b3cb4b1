"""Which keywords the PostgreSQL searches look up by their words alone (models/search/backends.py)."""

import pytest

from models.search.backends import only_cjk


@pytest.mark.parametrize(
    ("keyword", "expected"),
    [
        ("服务器", True),
        ("光影", True),
        ("整合包 服务器", True),
        ("シェーダー", True),
        ("한국어", True),
        ("光", False),  # one character: no bigram
        ("光影 光", False),
        ("光影 mod", False),
        ("OptiFine", False),
        ("", False),
        ("  ", False),
        ("光影1", False),
        ("ダー・パ", False),  # ・ is in the kana block but is no letter
    ],
)
def test_only_cjk(keyword, expected):
    assert only_cjk(keyword) is expected
