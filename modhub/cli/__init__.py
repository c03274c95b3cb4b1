"""The `modhub` command (console script `modhub = modhub.cli:main`, or `python -m modhub.cli`).

main.py holds the root group and the database, serving, seeding and worker commands and attaches
every group; apps.py, admin.py, identity.py, maintenance.py, moderate.py, storage.py, downloads.py
and webhooks.py hold one command group each; common.py the helpers they share (settings,
platform, domain errors as command errors). Command modules import common.py; the one exception
is downloads.py, which adds `restore` and `entitlement` under admin.py's `admin` groups.
"""

from modhub.cli.main import main

__all__ = ["main"]
