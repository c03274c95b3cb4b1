"""Alembic migrations of the modhub database."""
