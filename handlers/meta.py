"""The contract itself, served outside the envelope."""

import flask

from modhub.core.signing import install_signer
from modhub.web import platform


def openapi_json(**_):
    """The exact contract as JSON."""
    return flask.Response(platform().contract.json_bytes, mimetype="application/json")


def openapi_yaml(**_):
    """The exact contract as YAML (the hand-maintained source file)."""
    return flask.Response(platform().contract.yaml_bytes, mimetype="application/yaml")


def install_signing_key(**_):
    """The public key of install-script signatures, PEM (getInstallSigningKey, an extension)."""
    return flask.Response(install_signer(platform().settings).public_pem(),
                          mimetype="application/x-pem-file")
