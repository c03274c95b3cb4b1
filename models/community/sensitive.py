"""Sensitive-word check of private messages: an Aho-Corasick automaton over a configured list.

Each configured entry is `word` (action BLOCK) or `word:REVIEW`; matching is case-insensitive
and finds every occurrence in one pass over the text, whatever the size of the list.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

ACTIONS = ("BLOCK", "REVIEW")


class Matcher:
    """A multi-pattern matcher: the strongest action any listed word found in a text calls for."""

    def __init__(self, entries: tuple[str, ...]):
        self.goto: list[dict[str, int]] = [{}]
        self.fail: list[int] = [0]
        self.out: list[str | None] = [None]
        for entry in entries:
            word, _, action = entry.strip().rpartition(":") if ":" in entry else (entry.strip(), "", "BLOCK")
            action = action.strip().upper() or "BLOCK"
            if word and action in ACTIONS:
                self._add(word.casefold(), action)
        self._link()

    def _add(self, word: str, action: str) -> None:
        node = 0
        for ch in word:
            if ch not in self.goto[node]:
                self.goto.append({})
                self.fail.append(0)
                self.out.append(None)
                self.goto[node][ch] = len(self.goto) - 1
            node = self.goto[node][ch]
        self.out[node] = _stronger(self.out[node], action)

    def _link(self) -> None:
        queue = deque(self.goto[0].values())
        while queue:
            node = queue.popleft()
            for ch, child in self.goto[node].items():
                queue.append(child)
                f = self.fail[node]
                while f and ch not in self.goto[f]:
                    f = self.fail[f]
                self.fail[child] = self.goto[f].get(ch, 0) if self.goto[f].get(ch) != child else 0
                self.out[child] = _stronger(self.out[child], self.out[self.fail[child]])

    def action(self, text: str) -> str | None:
        """BLOCK or REVIEW when a listed word occurs in text (BLOCK wins), else None."""
        node, found = 0, None
        for ch in text.casefold():
            while node and ch not in self.goto[node]:
                node = self.fail[node]
            node = self.goto[node].get(ch, 0)
            found = _stronger(found, self.out[node])
            if found == "BLOCK":
                break
        return found


def _stronger(a: str | None, b: str | None) -> str | None:
    return "BLOCK" if "BLOCK" in (a, b) else (a or b)


@lru_cache(maxsize=8)
def matcher(entries: tuple[str, ...]) -> Matcher:
    """The matcher of a word list, built once per list."""
    return Matcher(entries)
