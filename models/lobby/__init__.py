"""Lobby server posts: their resource manifests, reservations, deduplicated uploads."""
