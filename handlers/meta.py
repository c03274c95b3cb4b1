"""The contract itself, served outside the envelope."""

import flask

from modhub.web import platform


def openapi_json(**_):
    """The exact contract as JSON."""
    return flask.Response(platform().contract.json_bytes, mimetype="application/json")


def openapi_yaml(**_):
    """The exact contract as YAML (the hand-maintained source file)."""
    return flask.Response(platform().contract.yaml_bytes, mimetype="application/yaml")
