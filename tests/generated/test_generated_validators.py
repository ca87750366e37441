"""generated/cleveragents/schema_validators holds exactly what scripts/generate_validators.py
(fastjsonschema) makes of the schema: code that needs only the standard library and reports
every error with its rule and schema, and what the schema says of its properties. The generator
refuses what it cannot translate."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_ROOT, SCHEMA_DIR

GENERATOR = REPO_ROOT / "scripts" / "generate_validators.py"
GENERATED_PACKAGE = REPO_ROOT / "generated" / "cleveragents" / "schema_validators"


def _generate(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(GENERATOR), *arguments],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def _python_files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.py"))}


def test_committed_validators_match_a_fresh_generation(tmp_path: Path) -> None:
    result = _generate("--output", str(tmp_path))
    assert result.returncode == 0, result.stderr
    fresh, committed = _python_files(tmp_path), _python_files(GENERATED_PACKAGE)
    assert sorted(fresh) == sorted(committed), "files differ: run scripts/generate_validators.py"
    for name, content in fresh.items():
        assert committed[name] == content, (
            f"{name} drifted from the schema: run scripts/generate_validators.py"
        )


def _module(schema_file: Path) -> Any:
    module_name = schema_file.name.removesuffix(".schema.json") + "_schema"
    return importlib.import_module(f"cleveragents.schema_validators.{module_name}")


def test_every_schema_has_a_validator_and_what_it_says_of_its_properties() -> None:
    for schema_file in sorted(SCHEMA_DIR.glob("*.schema.json")):
        module = _module(schema_file)
        schema = json.loads(schema_file.read_text(encoding="utf-8"))
        properties = schema["properties"]
        assert callable(module.validate)
        assert schema["title"] == module.TITLE
        assert tuple(properties) == module.PROPERTIES
        assert tuple(schema.get("required", ())) == module.REQUIRED
        assert {
            name: field["default"] for name, field in properties.items() if "default" in field
        } == module.DEFAULTS
        nested = {name: field["$ref"] for name, field in properties.items() if "$ref" in field}
        assert {name: _module(SCHEMA_DIR / ref) for name, ref in nested.items()} == module.NESTED


def test_the_generated_code_imports_only_the_standard_library() -> None:
    # fastjsonschema is needed to generate the code, never to run it.
    for path in sorted(GENERATED_PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        }
        assert {name.split(".")[0] for name in imported} <= {"decimal", "cleveragents"}, path
        assert {name for name in imported if name.startswith("cleveragents")} <= {
            "cleveragents.schema_validators"
        }, path


def test_the_code_reports_every_error_with_its_rule_and_schema() -> None:
    from cleveragents.schema_validators import JsonSchemaValuesException, action_schema

    document = {
        "name": "",
        "safety_profile": {"require_sandbox": "yes", "max_retries_per_step": 500, "x": 1},
        "automation_profile": {"allow_unsafe_tools": None},
    }
    with pytest.raises(JsonSchemaValuesException) as raised:
        action_schema.validate(document)
    found = {(error.name, error.rule): error for error in raised.value.errors}
    assert sorted(found) == [
        ("data", "required"),
        ("data.automation_profile.allow_unsafe_tools", "type"),
        ("data.name", "minLength"),
        ("data.safety_profile", "additionalProperties"),
        ("data.safety_profile.max_retries_per_step", "maximum"),
        ("data.safety_profile.require_sandbox", "type"),
    ]
    too_many = found["data.safety_profile.max_retries_per_step", "maximum"]
    assert (too_many.value, too_many.definition) == (
        500,
        {"type": "integer", "minimum": 0, "maximum": 100},  # no annotations: they decide nothing
    )
    assert found["data", "required"].value is document


def test_a_decimal_is_a_number_and_decimal_is_imported_only_to_ask_about_one() -> None:
    """fastjsonschema's code takes a `decimal.Decimal` for a number; ours does too, without
    importing decimal for a document's own values (None, bool, int, float, str, list, dict)."""
    script = """
import sys
from cleveragents.schema_validators import JsonSchemaValuesException, safety_profile_schema

def errors(document):
    try:
        safety_profile_schema.validate(document)
    except JsonSchemaValuesException as raised:
        return sorted((error.name, error.rule) for error in raised.errors)
    return []

said = [errors({"max_cost_per_plan": None, "max_total_cost": 2.5, "max_retries_per_step": 3,
                "allowed_skill_categories": ["code"], "require_sandbox": True}),
        errors({"max_cost_per_plan": "1", "max_total_cost": [1], "max_retries_per_step": {}})]
print("decimal" in sys.modules)
from decimal import Decimal

class Money(Decimal):
    pass

said += [errors({"max_cost_per_plan": Decimal("1.5"), "max_total_cost": Money("2")}),
         errors({"max_cost_per_plan": Decimal("-1"), "max_retries_per_step": Decimal("2")})]
print(said)
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    imported, said = result.stdout.splitlines()
    assert imported == "False"
    assert said == repr(
        [
            [],
            [
                ("data.max_cost_per_plan", "type"),
                ("data.max_retries_per_step", "type"),
                ("data.max_total_cost", "type"),
            ],
            [],
            # A Decimal is a number, never an integer (as in fastjsonschema's own code).
            [("data.max_cost_per_plan", "minimum"), ("data.max_retries_per_step", "type")],
        ]
    )


def _schema_folder_with(tmp_path: Path, name: str, changes: dict[str, object]) -> Path:
    """A copy of schema/ where one schema's top level has `changes`."""
    folder = tmp_path / "schema"
    folder.mkdir()
    for path in SCHEMA_DIR.glob("*.schema.json"):
        schema = json.loads(path.read_text(encoding="utf-8"))
        if path.name == name:
            schema.update(changes)
        (folder / path.name).write_text(json.dumps(schema), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        # Keywords fastjsonschema (draft 07) could read otherwise than draft 2020-12, or not at all.
        ({"prefixItems": [{"type": "string"}]}, "the keyword 'prefixItems' is not known"),
        ({"unevaluatedProperties": False}, "the keyword 'unevaluatedProperties' is not known"),
        ({"dependentRequired": {"a": ["b"]}}, "the keyword 'dependentRequired' is not known"),
        ({"properties": {"x": {"items": [{"type": "string"}]}}}, "is 'prefixItems' in draft"),
        ({"properties": {"x": {"$ref": "missing.schema.json"}}}, "names no schema file"),
    ],
)
def test_the_generator_refuses_what_it_cannot_translate_and_writes_nothing(
    tmp_path: Path, changes: dict[str, object], said: str
) -> None:
    schemas = _schema_folder_with(tmp_path, "safety_profile.schema.json", changes)
    output = tmp_path / "out"
    result = _generate("--schemas", str(schemas), "--output", str(output))
    assert result.returncode == 1
    assert said in result.stderr
    assert not output.exists()
