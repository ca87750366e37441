"""The fuzzing oracle, shared by tests/test_hardening.py and fuzz/fuzz_check.py: a check must
never raise, and nothing the schema rejects may ever load as a model."""

from __future__ import annotations

import json
import math
from functools import cache
from typing import Any

import jsonschema
from conftest import local_schema_registry

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.reading.document import load_yaml_document
from cleveragents.reading.validation import check_yaml_bytes
from cleveragents.safety_toolkit.kinds import KINDS

INSTALLED_SCHEMAS = KINDS["profile"].schema_path().parent


@cache
def installed_registry() -> Any:
    """Every installed schema under its `$id`; anything else is refused, never fetched."""
    return local_schema_registry(INSTALLED_SCHEMAS)


@cache
def validators() -> dict[type, jsonschema.Draft202012Validator]:
    def validator(kind: str) -> jsonschema.Draft202012Validator:
        schema = json.loads(KINDS[kind].schema_path().read_text(encoding="utf-8"))
        return jsonschema.Draft202012Validator(schema, registry=installed_registry())

    return {SafetyProfile: validator("profile"), Action: validator("action")}


def _finite(value: Any) -> bool:
    if isinstance(value, dict):
        return all(_finite(item) for item in value.values())
    if isinstance(value, list):
        return all(_finite(item) for item in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return True


def assert_never_loads_what_the_schema_rejects(data: bytes) -> None:
    for model in (SafetyProfile, Action):
        result = check_yaml_bytes(data, "fuzz.yaml", model)  # must not raise
        if result.instance is None:
            assert result.problems, "an invalid file must say why"
            continue
        assert result.problems == ()
        loaded = load_yaml_document(data, "fuzz.yaml").value
        assert validators()[model].is_valid(loaded), loaded
        assert _finite(loaded), loaded
