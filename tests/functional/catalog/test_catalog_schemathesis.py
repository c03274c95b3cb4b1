"""Schemathesis over the catalogue read operations: no server error, every answer in the contract."""

import hypothesis
import pytest
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from models.legacy.service import COMMUNITY_KINDS
from tests.support import asgi_schema, validate_case

pytestmark = pytest.mark.slow  # live servers, processes or migrations

OPERATIONS = {
    "legacyBatchPostDetail",
    "legacyQueryPosts",
    "legacyGetPost",
    "legacyGetResource",
    "legacyListResourceFiles",
    "legacyQueryServers",
    "legacyGetServerStatus",
    "legacyGetForumStats",
    "legacyListTags",
    "getCategoriesTree",
    "getCategoryTree",
    "listGames",
    "listSections",
    "getGame",
    "getSection",
    "getGameFilterOptions",
    "getSectionFilterOptions",
    "listModLoaders",
    "listRunPlatforms",
    "getModLoader",
    "getRunPlatform",
    "batchGetMods",
    "getResourceBatch",
    "listFeaturedMods",
    "listFeaturedResources",
    "getModDetail",
    "getResourceDetail",
    "listModAuthors",
    "listResourceAuthors",
    "listModComments",
    "listResourceComments",
    "getModDescription",
    "getResourceDescription",
    "getModRating",
    "getResourceRating",
    "listModRelations",
    "listResourceRelations",
    "listModVersions",
    "listResourceVersions",
    "listModFiles",
    "listResourceFiles",
    "batchGetFiles",
    "getFileBatch",
    "getGameStats",
    "getSectionStats",
    "getModStats",
    "getResourceStats",
}


@pytest.fixture()
def filled(cat, make_user):
    """A few listed posts (ids 1..n are likely to exist only by chance: most probes miss)."""
    user = make_user()
    cat.section("minecraft")
    cat.platform("forge")
    cat.category("mod")
    cat.category("mod-tech", "mod")
    for _ in range(3):
        pid = cat.post()
        cat.author(pid, user)
        cat.file(pid)
        cat.comment(pid, user)
        cat.version(pid, 1)
    cat.server()


def test_catalogue_operations_conform(app, make_app, filled):
    creds = make_app(per_minute=10**6, per_day=10**7)  # a thousand requests: beyond the default quota
    schema = asgi_schema(app)
    ops = [r.ok() for r in schema.get_all_operations()]
    ops = [op for op in ops if op.definition.raw.get("operationId") in OPERATIONS]
    assert {op.definition.raw["operationId"] for op in ops} == OPERATIONS
    for op in ops:

        @settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @hypothesis.given(case=op.as_strategy())
        def run(case):
            path = case.formatted_path
            response = case.call(headers=creds.headers(case.method.upper(), path))
            if response.status_code == 304:
                # The documented 304: an If-None-Match that matches (hypothesis sends `*` at times,
                # which matches any ETag) answers with the tag and no body.
                assert (case.headers or {}).get("If-None-Match"), response.headers
                assert response.headers.get("etag") and not response.content, response.headers
                validate_case(case, response)
                return
            code = response.json()["code"]
            if (case.query or {}).get("postType") in COMMUNITY_KINDS and code == 200501:
                return  # v1 discussion and question posts: documented 501 until community ships
            # Schema-valid requests refused by documented rules: pages beyond MAX_OFFSET (200304),
            # text holding NUL (200301, "Other rules and limits" in the contract).
            ruled = response.status_code == 400 and (
                code == 200304 or (code == 200301 and "NUL" in response.json()["msg"])
            )
            validate_case(case, response, excluded_checks=[positive_data_acceptance] if ruled else ())
            assert response.status_code in (200, 400, 404), response.text

        run()
