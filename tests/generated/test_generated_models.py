"""Part 2: generated/ holds exactly what datamodel-code-generator makes of the schema."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import REPO_ROOT

GENERATED_PACKAGE = REPO_ROOT / "generated" / "cleveragents" / "schema_models"
HAND_WRITTEN = {"py.typed"}  # a marker file, not code


def _codegen() -> str:
    found = shutil.which("datamodel-codegen") or str(
        Path(sys.executable).with_name("datamodel-codegen")
    )
    assert Path(found).exists(), "datamodel-code-generator is a test dependency"
    return found


def _generated_files(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name not in HAND_WRITTEN and "__pycache__" not in path.parts
    }


def test_committed_models_match_a_fresh_generation() -> None:
    # The settings come from [tool.datamodel-codegen] in pyproject.toml; only the output moves.
    # It stays inside the repository because the formatter reads its settings (the [tool.ruff]
    # line length) from the folder it formats in.
    (REPO_ROOT / "build").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=REPO_ROOT / "build") as scratch:
        output = Path(scratch) / "schema_models"
        result = subprocess.run(
            [_codegen(), "--output", str(output)],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        fresh = _generated_files(output)
    committed = _generated_files(GENERATED_PACKAGE)
    assert sorted(fresh) == sorted(committed), "files differ: run `datamodel-codegen`"
    for name, content in fresh.items():
        assert committed[name] == content, (
            f"{name} drifted from the schema: run `datamodel-codegen`"
        )


def test_generated_code_has_no_timestamp() -> None:
    for name, content in _generated_files(GENERATED_PACKAGE).items():
        assert b"timestamp:" not in content, name


def test_generated_model_forbids_unknown_keys_and_is_frozen() -> None:
    from cleveragents.schema_models.safety_profile_schema import SafetyProfile

    assert SafetyProfile.model_config.get("extra") == "forbid"
    assert SafetyProfile.model_config.get("frozen") is True
