"""Paging shared by every domain's lists: the offset bound and the PageResult<T> envelope."""

from __future__ import annotations

import math

from modhub.core.errors import ApiError

MAX_OFFSET = 10_000  # (pageNum - 1) * pageSize must stay below it; deeper reads use the sync feed


def check_page(*, page_num: int, page_size: int) -> int:
    """The offset of a page, or MAX_OFFSET_EXCEEDED beyond the bound."""
    offset = (page_num - 1) * page_size
    if offset >= MAX_OFFSET:
        raise ApiError(
            "MAX_OFFSET_EXCEEDED",
            f"(pageNum - 1) * pageSize must stay below {MAX_OFFSET}: use the sync operation",
        )
    return offset


def page_result(items: list, *, total: int, page_num: int, page_size: int, total_exact: bool = True) -> dict:
    """PageResult<T> around one page of items; a total that is only a lower bound (a capped count)
    says so in extData."""
    pages = math.ceil(total / page_size) if total else 0
    return {
        "pageNum": page_num,
        "pageSize": page_size,
        "total": total,
        "pages": pages,
        "list": items,
        "emptyFlag": not items,
        "hasMore": page_num < pages,
        "extData": None if total_exact else {"totalExact": False},
    }
