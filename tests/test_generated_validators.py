"""generated/cleveragents/schema_validators holds exactly what scripts/generate_validators.py
(fastjsonschema) makes of the schema, and the generator refuses what it cannot translate."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

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


def test_every_schema_has_a_validator_and_its_properties() -> None:
    for schema_file in sorted(SCHEMA_DIR.glob("*.schema.json")):
        module_name = schema_file.name.removesuffix(".schema.json") + "_schema"
        module = importlib.import_module(f"cleveragents.schema_validators.{module_name}")
        schema = json.loads(schema_file.read_text(encoding="utf-8"))
        assert tuple(schema["properties"]) == module.PROPERTIES
        assert callable(module.validate)


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
