"""`python -m modhub.cli`: the `modhub` command (workers are started this way in tests and benches)."""

import sys

from modhub.cli.main import main

sys.exit(main())
