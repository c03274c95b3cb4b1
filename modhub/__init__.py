"""modhub: the open HTTP/JSON API of a game-modding community platform."""

import warnings

__version__ = "0.1.0"

# Connexion 3 imports jsonschema's RefResolver, deprecated since jsonschema 4.18: a warning on
# every start of every command where warnings are shown (PYTHONWARNINGS, -W, cron wrappers).
# Nothing of ours uses it; these two, and only these, are silenced.
for _message in (
    "jsonschema.RefResolver is deprecated",
    "jsonschema.exceptions.RefResolutionError is deprecated",
):
    warnings.filterwarnings("ignore", message=_message, category=DeprecationWarning)
