"""Part 1: the canonical JSON Schema."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import PROFILE_SCHEMA_PATH
from field_lists import SPEC_FIELDS

from cleveragents.domain.models.core.safety_profile import DEFAULT_SAFETY_PROFILE


def _check_jsonschema() -> str:
    found = shutil.which("check-jsonschema") or str(
        Path(sys.executable).with_name("check-jsonschema")
    )
    assert Path(found).exists(), "check-jsonschema is a test dependency: pip install '.[test]'"
    return found


def test_schema_passes_the_real_metaschema_check() -> None:
    result = subprocess.run(
        [_check_jsonschema(), "--check-metaschema", str(PROFILE_SCHEMA_PATH)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_schema_header(profile_schema: dict[str, Any]) -> None:
    assert profile_schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert profile_schema["$id"].startswith("https://")
    assert profile_schema["title"] == "SafetyProfile"
    assert profile_schema["description"]
    assert profile_schema["type"] == "object"
    assert profile_schema["additionalProperties"] is False


def test_every_field_has_type_default_and_description(profile_schema: dict[str, Any]) -> None:
    properties = profile_schema["properties"]
    assert set(properties) >= set(SPEC_FIELDS)
    for name, prop in properties.items():
        assert prop["type"], name
        assert "default" in prop, name
        assert prop["description"].endswith("."), name


def test_bounds(profile_schema: dict[str, Any]) -> None:
    properties = profile_schema["properties"]
    assert properties["max_retries_per_step"]["minimum"] == 0
    assert properties["max_retries_per_step"]["maximum"] == 100
    for cost in ("max_cost_per_plan", "max_total_cost"):
        assert properties[cost]["minimum"] == 0
        assert "finite" in properties[cost]["description"]
    items = properties["allowed_skill_categories"]["items"]
    # Annotations for editors (examples, errorMessage) aside, an item is any string.
    assert {key: items[key] for key in items if key not in ("examples", "errorMessage")} == {
        "type": "string"
    }


def test_schema_defaults_are_the_default_profile(profile_schema: dict[str, Any]) -> None:
    defaults = {name: spec["default"] for name, spec in profile_schema["properties"].items()}
    assert DEFAULT_SAFETY_PROFILE.model_dump(mode="json") == defaults
