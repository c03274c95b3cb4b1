"""Authoring and moderation: resource drafts, the review queue, draft files."""
