"""The contract itself, served outside the envelope."""

import functools
import json

from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header

from models.downloads import jwks, keys
from modhub.etags import etag_of
from modhub.web import platform, request_headers, respond, respond_tagged, session

TEXT = "text/plain"


def _negotiated(default: str) -> str:
    """The media type of a text document: its own type, or text/plain when Accept prefers it."""
    accept = parse_accept_header(request_headers().get("Accept"), MIMEAccept)
    return accept.best_match([default, TEXT], default=default)


@functools.lru_cache(maxsize=8)
def _etag(document: bytes) -> str:
    """A contract document's ETag, computed once (a bytes object keeps its hash)."""
    return etag_of(document)


def openapi_json(**_):
    """The exact contract as JSON, with its ETag (304 on a match)."""
    document = platform().contract.json_bytes
    return respond_tagged(document, _etag(document), mimetype="application/json")


def openapi_yaml(**_):
    """The exact contract as YAML (the hand-maintained source file), with its ETag."""
    document = platform().contract.yaml_bytes
    return respond_tagged(document, _etag(document), mimetype=_negotiated("application/yaml"))


def install_signing_key(**_):
    """The published public keys of install-script signatures, PEM, the current one first
    (getInstallSigningKey, an extension)."""
    ring = keys.ring(session(), platform().settings)
    return respond(
        keys.bundle(ring),
        mimetype=_negotiated("application/x-pem-file"),
        headers={"X-Install-Key-Id": ring.kid},
    )


def install_signing_jwks(**_):
    """The same keys as a JSON Web Key Set, the current one first (getInstallSigningJwks, an
    extension)."""
    ring = keys.ring(session(), platform().settings)
    return respond(json.dumps(jwks.key_set(ring)).encode(), mimetype="application/json")
