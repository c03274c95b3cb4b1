"""RQ jobs and the outbox relay (webhook delivery lands with the webhooks issue)."""
