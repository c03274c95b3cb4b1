"""The `modhub` command (console script `modhub = modhub.cli:main`, or `python -m modhub.cli`).

main.py holds the root group and the database, application, serving, seeding and worker
commands; admin.py, identity.py, storage.py and webhooks.py one command group each; common.py
the helpers they share (settings, platform, domain errors as command errors). Submodules import
common.py only, never each other.
"""

from modhub.cli.main import main

__all__ = ["main"]
