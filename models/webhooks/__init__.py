"""Webhooks domain: subscriptions, the outbox, deliveries and attempts.

tables.py mapped classes, records.py the subscription VO, service.py subscription life cycle and
the delivery log; events.py `emit` (an outbox row in the caller's transaction) and the after-commit
hand-over to the relay, imported by every domain that raises an event.
"""
