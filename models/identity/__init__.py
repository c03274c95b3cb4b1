"""Identity domain: applications, platform users, proxy tokens, bindings, wallets, provider activities.

tables.py mapped classes, records.py VO builders, service.py the lookups the gateway needs. The
domain covers several independent flows, each in its own module: applications.py (register,
approve, rotate), accounts.py (passwords, sign-in, proxy-user registration), tokens.py (issue,
revoke), oauth.py (auth codes, pairing codes, SSO tickets), bindings.py (external user links),
wallets.py (balances and idempotent adjustments) and providers.py (collects, carousel).
"""
