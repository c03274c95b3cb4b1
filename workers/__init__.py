"""Background work: the outbox relay and its sweep (relay.py), the RQ job that POSTs signed
webhook events (webhook_post.py, with outcomes.py recording each attempt), the embedded
in-process relay used without Redis (embedded.py), and the worker process itself (runner.py)."""
