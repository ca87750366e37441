"""The public import `cleveragents.safety_profile`: the spec's objects under a short path, its
version, its types (a user's mypy --strict reads them), and the licence in both distributions."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

from conftest import REPO_ROOT

import cleveragents.domain.models.core.safety_profile as spec_path
import cleveragents.safety_profile as public

PROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_public_names_are_the_spec_paths_objects() -> None:
    from cleveragents.safety_profile import (
        DEFAULT_SAFETY_PROFILE,
        SafetyProfile,
        resolve_safety_profile,
    )

    assert SafetyProfile is spec_path.SafetyProfile
    assert DEFAULT_SAFETY_PROFILE is spec_path.DEFAULT_SAFETY_PROFILE
    assert resolve_safety_profile is spec_path.resolve_safety_profile
    assert set(spec_path.__all__) <= set(public.__all__)
    assert all(hasattr(public, name) for name in public.__all__)


def test_version_is_the_installed_distributions() -> None:
    assert public.__version__ == PROJECT["version"]


def test_a_users_strict_mypy_reads_the_public_types(tmp_path: Path) -> None:
    user = tmp_path / "app.py"
    user.write_text(
        "from cleveragents.safety_profile import DEFAULT_SAFETY_PROFILE, SafetyProfile,"
        " __version__\n"
        "def retries(profile: SafetyProfile) -> int:\n"
        "    return profile.max_retries_per_step\n"
        "version: str = __version__\n"
        "wrong: str = retries(DEFAULT_SAFETY_PROFILE)\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(user)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    # Only the deliberate mistake: the package's types are read (not Any), and nothing else fails.
    assert result.stdout.splitlines()[:-1] == [
        f'{user.name}:5: error: Incompatible types in assignment (expression has type "int",'
        ' variable has type "str")  [assignment]'
    ], result.stdout


def test_the_wheel_holds_the_licence_the_public_package_and_output_schemas(
    built_wheel: Path,
) -> None:
    wheel = zipfile.ZipFile(built_wheel)
    names = set(wheel.namelist())
    (licence,) = [name for name in names if name.endswith(".dist-info/licenses/LICENSE")]
    assert wheel.read(licence) == (REPO_ROOT / "LICENSE").read_bytes()
    assert {"cleveragents/safety_profile/__init__.py", "cleveragents/safety_profile/py.typed"} <= (
        names
    )
    schemas = {f"cleveragents/safety_toolkit/output_schemas/{command}.schema.json" for command in (
        "check", "diff", "resolve", "show"
    )}  # fmt: skip
    assert schemas <= names, schemas - names
    (metadata,) = [name for name in names if name.endswith(".dist-info/METADATA")]
    assert "License-Expression: MIT" in wheel.read(metadata).decode()


def test_the_sdist_holds_the_licence_and_changelog(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--no-isolation", "-o", str(tmp_path)],
        cwd=REPO_ROOT,
        check=True,
        capture_output=True,
    )
    (sdist,) = tmp_path.glob("cleveragents_safety_profile-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "CHANGELOG.md", "pyproject.toml", "schema/safety_profile.schema.json"} <= (
        names
    )
