"""The contract itself, served outside the envelope."""

import json

import flask

from models.downloads import jwks, keys
from modhub.web import platform, session

TEXT = "text/plain"


def _negotiated(default: str) -> str:
    """The media type of a text document: its own type, or text/plain when Accept prefers it."""
    return flask.request.accept_mimetypes.best_match([default, TEXT], default=default)


def openapi_json(**_):
    """The exact contract as JSON."""
    return flask.Response(platform().contract.json_bytes, mimetype="application/json")


def openapi_yaml(**_):
    """The exact contract as YAML (the hand-maintained source file)."""
    return flask.Response(platform().contract.yaml_bytes, mimetype=_negotiated("application/yaml"))


def install_signing_key(**_):
    """The published public keys of install-script signatures, PEM, the current one first
    (getInstallSigningKey, an extension)."""
    ring = keys.ring(session(), platform().settings)
    return flask.Response(
        keys.bundle(ring),
        mimetype=_negotiated("application/x-pem-file"),
        headers={"X-Install-Key-Id": ring.kid},
    )


def install_signing_jwks(**_):
    """The same keys as a JSON Web Key Set, the current one first (getInstallSigningJwks, an
    extension)."""
    ring = keys.ring(session(), platform().settings)
    return flask.Response(json.dumps(jwks.key_set(ring)), mimetype="application/json")
