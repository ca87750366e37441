"""`safety-profile check` accepts valid files without importing pydantic (with building the
models, most of its start-up), and a file that is not valid still gets the models' messages.

Each run is the real console script in a subprocess under `python -X importtime`, which lists
every module the process imports."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import (
    EXAMPLES,
    REPO_ROOT,
    VALID_PROFILES,
    console_script,
    expected_output_path,
    relative,
)

VALID_ACTIONS = sorted((EXAMPLES / "actions" / "valid").glob("*.yaml"))
CLI = console_script("safety-profile")


def check_with_imports(*arguments: str) -> tuple[int, str, set[str]]:
    """Exit status, standard output and the modules imported by one `check` run."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", CLI, "check", *arguments],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = result.stderr.splitlines()
    modules = {line.rsplit("|", 1)[1].strip() for line in lines if line.startswith("import time:")}
    others = [line for line in lines if not line.startswith("import time:")]
    assert others == [], others
    return result.returncode, result.stdout, modules


def pydantic_modules(modules: set[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] in ("pydantic", "pydantic_core")}


@pytest.mark.parametrize(
    ("kind", "files", "validator"),
    [
        ("profile", VALID_PROFILES, "cleveragents.schema_validators.safety_profile_schema"),
        ("action", VALID_ACTIONS, "cleveragents.schema_validators.action_schema"),
    ],
)
def test_valid_files_are_accepted_without_importing_pydantic(
    kind: str, files: list[object], validator: str
) -> None:
    status, output, modules = check_with_imports("--kind", kind, *map(relative, files))
    assert (status, output) == (0, f"ok: {len(files)} files valid\n")
    assert validator in modules  # the schema's generated validator decided
    assert pydantic_modules(modules) == set()
    # Nor what only other commands need (diff's help reads the strictness rules), nor
    # dataclasses, which with inspect was a tenth of the start-up.
    assert {"cleveragents.domain.models.core.strictness", "dataclasses"} & modules == set()


def test_an_invalid_file_gets_the_models_messages() -> None:
    invalid = EXAMPLES / "invalid" / "several_problems.safety_profile.yaml"
    status, output, modules = check_with_imports(relative(VALID_PROFILES[0]), relative(invalid))
    assert status == 1
    assert output == expected_output_path(invalid).read_text("utf-8") + "1 of 2 files invalid\n"
    assert "pydantic" in pydantic_modules(modules)
