"""HTML served as "XSS-filtered": an allow-list sanitizer (nh3) applied when content is shown."""

from __future__ import annotations

import nh3


def clean_html(html: str | None) -> str | None:
    """The HTML with scripts, event handlers and unsafe URLs removed (formatting kept)."""
    if not html:
        return html
    return nh3.clean(html)
