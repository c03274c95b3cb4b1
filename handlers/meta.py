"""The contract itself, served outside the envelope."""

from models.downloads import keys
from modhub.web import platform, respond, session


def openapi_json(**_):
    """The exact contract as JSON."""
    return respond(platform().contract.json_bytes, mimetype="application/json")


def openapi_yaml(**_):
    """The exact contract as YAML (the hand-maintained source file)."""
    return respond(platform().contract.yaml_bytes, mimetype="application/yaml")


def install_signing_key(**_):
    """The published public keys of install-script signatures, PEM, the current one first
    (getInstallSigningKey, an extension)."""
    ring = keys.ring(session(), platform().settings)
    return respond(
        keys.bundle(ring), mimetype="application/x-pem-file", headers={"X-Install-Key-Id": ring.kid}
    )
