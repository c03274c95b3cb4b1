"""The contract is served as JSON and YAML, anonymously and outside the envelope."""

import json

import yaml

from modhub.contract import SAFE_LOADER, SPEC_PATH


def test_openapi_json_is_the_exact_contract(client):
    response = client.get("/openapi/v2/meta/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert json.loads(response.content) == yaml.load(SPEC_PATH.read_bytes(), Loader=SAFE_LOADER)


def test_openapi_yaml_is_the_source_file(client):
    response = client.get("/openapi/v2/meta/openapi.yaml")
    assert response.status_code == 200 and "yaml" in response.headers["content-type"]
    assert response.content == SPEC_PATH.read_bytes()


def test_each_document_has_a_weak_etag_and_answers_304_to_it(client):
    """A tool or the docs page that fetches the contract again gets 304, not 700 KB."""
    tags = {}
    for path in ("/openapi/v2/meta/openapi.json", "/openapi/v2/meta/openapi.yaml"):
        first = client.get(path)
        tag = tags[path] = first.headers["etag"]
        assert first.status_code == 200 and tag.startswith('W/"') and tag == client.get(path).headers["etag"]
        same = client.get(path, headers={"If-None-Match": tag})
        assert same.status_code == 304 and same.content == b"" and same.headers["etag"] == tag
        strong = client.get(path, headers={"If-None-Match": tag.removeprefix("W/")})
        assert strong.status_code == 304  # If-None-Match compares weakly
        other = client.get(path, headers={"If-None-Match": 'W/"0123456789abcdef0123456789abcdef"'})
        assert other.status_code == 200 and other.content == first.content
    assert len(set(tags.values())) == 2  # one tag per document


def test_text_documents_come_as_text_plain_when_accept_prefers_it(client):
    """The declared text/plain twins (what a generated client reads as text)."""
    for path, own in (
        ("/openapi/v2/meta/openapi.yaml", "application/yaml"),
        ("/openapi/v2/meta/install-signing-key", "application/x-pem-file"),
    ):
        plain = client.get(path, headers={"Accept": "text/plain"})
        assert plain.headers["content-type"].startswith("text/plain"), path
        assert plain.content == client.get(path).content
        for accept in (None, "*/*", own):
            answer = client.get(path, headers={"Accept": accept} if accept else {})
            assert answer.headers["content-type"].startswith(own), (path, accept)


def test_docs_page_is_swagger_ui(client):
    response = client.get("/openapi/v2/meta/docs/")
    assert response.status_code == 200 and "swagger-ui" in response.text.lower()


def test_every_answer_of_the_client_is_compared_with_the_contract(client, checker):
    """The test client records what each contract operation answered (tests/support.py
    ContractChecker.watching): a header or status the contract does not declare fails there."""
    client.get("/openapi/v2/meta/openapi.json")
    operation = checker.operation("GET", "/openapi/v2/meta/openapi.json")["operationId"]
    assert {(operation, 200, "x-modhub-time-zone"), (operation, 200, "x-request-id")} <= checker.seen
