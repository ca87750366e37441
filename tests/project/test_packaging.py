"""Part 5: the documented import works from a built wheel, which carries everything it needs."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import SCHEMA_DIR

from cleveragents.safety_toolkit.core.kinds import KINDS


def test_wheel_contains_layer_generated_models_schemas_and_markers(built_wheel: Path) -> None:
    names = set(zipfile.ZipFile(built_wheel).namelist())
    expected = {
        "cleveragents/domain/models/core/safety_profile.py",
        "cleveragents/schema_models/safety_profile_schema.py",
        "cleveragents/domain/py.typed",
        "cleveragents/safety_toolkit/py.typed",
        "cleveragents/reading/py.typed",
        "cleveragents/schema_models/py.typed",
        "cleveragents/persistence/column_type.py",
        "cleveragents/persistence/migrations/versions/c4_001_safety_profile_column.py",
        "cleveragents/persistence/migrations/versions/c4_002_safety_profile_jsonb.py",
    } | {f"cleveragents/schemas/{path.name}" for path in SCHEMA_DIR.glob("*.json")}
    assert expected <= names, expected - names
    assert not any(name.startswith(("tests/", "examples/")) for name in names)


def test_documented_import_works_from_the_unpacked_wheel(built_wheel: Path, tmp_path: Path) -> None:
    zipfile.ZipFile(built_wheel).extractall(tmp_path)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from cleveragents.domain.models.core.safety_profile import ("
        " SafetyProfile, DEFAULT_SAFETY_PROFILE, SafetyProfileRef, Provenance,"
        " resolve_safety_profile);"
        "import cleveragents.domain.models.core.safety_profile as module;"
        "assert module.__file__.startswith(sys.argv[1]), module.__file__;"
        "print(DEFAULT_SAFETY_PROFILE.max_retries_per_step, Provenance.PLAN.value)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["3", "PLAN"]


def test_rules_shows_its_examples_from_the_unpacked_wheel(
    built_wheel: Path, tmp_path: Path
) -> None:
    """`rules ID` shows each example's text inline: the wheel carries it (a pip user has no
    examples/ folder), and nothing is read from this checkout."""
    zipfile.ZipFile(built_wheel).extractall(tmp_path / "wheel")
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "import cleveragents.safety_toolkit.core.rule_docs as module;"
        "assert module.__file__.startswith(sys.argv[1]), module.__file__;"
        "from cleveragents.safety_toolkit.cli.main import main;"
        "sys.exit(main(['rules', 'yaml.tab']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "wheel")],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert (
        "  tab after `-` (tab_after_dash):\n    | allowed_skill_categories:\n    |   -\\tcode\n"
        in (result.stdout)
    )


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_installed_schema_is_the_canonical_schema(kind: str) -> None:
    installed = KINDS[kind].schema_path()
    canonical = SCHEMA_DIR / KINDS[kind].schema_file
    assert installed.read_bytes() == canonical.read_bytes(), "stale install: pip install again"
