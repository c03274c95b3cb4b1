"""The text shown for a search hit: the terms of a keyword, whether a text holds them, and an
HTML-escaped excerpt around the first one (models/community/search.py)."""

from __future__ import annotations

import html
import re

from models.search.backends import CJK_RUN

SNIPPET_SPAN = 40
TAG = re.compile(r"<[^>]*>")


def terms(keyword: str) -> list[str]:
    """What a keyword matches: its whitespace-separated words, CJK runs apart from Latin parts."""
    found: list[str] = []
    for word in keyword.split():
        found += CJK_RUN.findall(word) + [p for p in CJK_RUN.split(word) if p]
    return sorted(set(found), key=len, reverse=True)


def snippet(text: str | None, keyword: str) -> str | None:
    """An HTML-escaped excerpt around the first matched term, every term wrapped in <em>."""
    if not text:
        return None
    words = terms(keyword) or [keyword]
    pattern = re.compile("|".join(re.escape(w) for w in words), re.I)
    first = pattern.search(text)
    start = max(first.start() - SNIPPET_SPAN, 0) if first else 0
    part = text[start : start + 2 * SNIPPET_SPAN + len(keyword)]
    out, at = [], 0
    for hit in pattern.finditer(part):
        out += [html.escape(part[at : hit.start()]), f"<em>{html.escape(hit.group(0))}</em>"]
        at = hit.end()
    out.append(html.escape(part[at:]))
    return ("…" if start else "") + "".join(out)


def holds(text: str | None, keyword: str) -> bool:
    """Whether the text holds one of the keyword's terms (case-insensitive)."""
    low = (text or "").lower()
    return any(w.lower() in low for w in terms(keyword) or [keyword])


def plain(content: str | None) -> str | None:
    """Text of stored HTML (moments), for the snippet."""
    return html.unescape(TAG.sub(" ", content)).strip() if content else content
