"""Schemathesis hooks for the live run (tests/functional/hardening/test_live_schemathesis.py).

Loaded by the `st` CLI through SCHEMATHESIS_HOOKS. Reviewed rules, each the contract's own:

- Signing (info "Signature"): X-API-Key is set by an auth provider, so schemathesis's
  `ignored_auth` probes can take it away; right before each request X-Timestamp and X-Signature
  are computed over the method, the path as sent (no query) and a timestamp. A signed write is
  accepted once (replay guard, 200915), so timestamps are strictly increasing in this process.
- Proxy identity: X-Proxy-User-Id and X-Proxy-Access-Token of a real user and a real stored
  token, unless a link already set the token (a registered user's own token wins).
- Page depth (200304): `(pageNum - 1) * pageSize` must stay below 10,000, a rule between two
  parameters that JSON Schema cannot state. A schema-valid query beyond it gets pageNum clamped
  to the deepest allowed page, so positive cases reach the handler instead of the bound.
- NUL characters (200301: no text anywhere may contain U+0000): added to the loaded document
  as `pattern: '^[^\\u0000]*$'` on every request string that has no pattern of its own, so
  positive data never carries NUL and negative data may (and must be refused).
- 64-bit integers (200301, "ids are 64-bit integers"; the server bounds every integer without a
  format to int64): a request integer with no bound of its own gets the int64 bounds.

The credentials come from the environment (MODHUB_ST_*), set by the test for a throw-away
database; nothing here is a secret of a real deployment.
"""

from __future__ import annotations

import gc

import schemathesis

from tests.functional.hardening.st_rules import (  # noqa: F401 - the names the hooks use
    API_KEY,
    MAX_OFFSET,
    TOKEN,
    USER_ID,
    _is_int,
    _sent_path,
    apply_rules,
    next_timestamp,
    signature,
)

# This process generates and checks many small objects: young ones are collected every 10,000
# allocations rather than 700, and what was imported before the run never again (gc.freeze).
gc.set_threshold(10_000, 10, 10)
gc.freeze()


@schemathesis.auth()
class Credentials:
    """The application's key and the proxy identity, as security values (probes may drop them)."""

    def get(self, case, ctx):
        """Fixed for the run."""
        return API_KEY

    def set(self, case, data, ctx):
        """Only the headers the operation's security asks for."""
        names = {
            scheme
            for requirement in (case.operation.definition.raw.get("security") or [])
            for scheme in requirement
        }
        headers = case.headers if case.headers is not None else {}
        if "ApiKeyAuth" in names:
            headers["X-API-Key"] = data
        if "ProxyUserId" in names:
            headers.setdefault("X-Proxy-User-Id", USER_ID)
        if "ProxyAccessToken" in names:
            headers.setdefault("X-Proxy-Access-Token", TOKEN)
        case.headers = headers


@schemathesis.hook
def before_call(context, case, kwargs):
    """Sign the request as sent, when it carries an API key (a no-auth probe stays unsigned)."""
    headers = case.headers or {}
    if "X-API-Key" not in headers or headers.get("X-API-Key") != API_KEY:
        return  # an auth probe: no key, or a key that is not ours; sign nothing
    timestamp = next_timestamp()
    headers["X-Timestamp"] = timestamp
    headers["X-Signature"] = signature(case.method, _sent_path(case, kwargs), timestamp)
    case.headers = headers


@schemathesis.hook
def map_query(context, query):
    """Page-depth rule: a schema-valid pageNum/pageSize pair beyond the bound is clamped."""
    if not query:
        return query
    num, size = query.get("pageNum"), query.get("pageSize")
    if _is_int(num) and _is_int(size) and num >= 1 and 1 <= size <= 100 and (num - 1) * size >= MAX_OFFSET:
        query["pageNum"] = (MAX_OFFSET - 1) // size + 1
    return query


@schemathesis.hook
def before_load_schema(context, raw_schema):
    """The document as loaded by `st`, with the rules above applied."""
    apply_rules(raw_schema)
