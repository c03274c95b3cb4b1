"""Lobby server posts and their reserved and uploaded resources."""
