"""The committed models are what the contract gives today; the version follows the contract's."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path

import modhub_client
from modhub_client import models

HERE = Path(__file__).resolve().parent
SDK = HERE.parent
CONTRACT = SDK.parents[1] / "openapi" / "openapi.yaml"


def _generator():
    spec = importlib.util.spec_from_file_location("generate_models", SDK / "scripts" / "generate_models.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["generate_models"] = module
    spec.loader.exec_module(module)
    return module


CONTRACT_DATA = _generator().load(CONTRACT)


def test_committed_models_match_the_contract():
    generated = _generator().Generator(CONTRACT_DATA).run()
    committed = (SDK / "src" / "modhub_client" / "models.py").read_text(encoding="utf-8")
    assert generated == committed, "models.py is stale: run python sdk/python/scripts/generate_models.py"


def test_every_schema_of_the_contract_is_a_model():
    schemas = CONTRACT_DATA["components"]["schemas"]
    assert all(hasattr(models, name) for name in schemas)
    assert models.FileSummaryVO.__required_keys__ == {"fileInfoId"}
    assert "hashes" in models.FileSummaryVO.__optional_keys__


def test_the_package_version_follows_the_contract():
    version = CONTRACT_DATA["info"]["version"]
    project = tomllib.loads((SDK / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert modhub_client.__version__ == project["version"] == models.CONTRACT_VERSION == version
