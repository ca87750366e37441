"""`safety-profile init [FILE]`, run as users run it: the installed console script."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from conftest import PROFILE_SCHEMA_PATH, REPO_ROOT
from git_repos import git, new_repository, write_files
from programs import run_program

from cleveragents.domain.models.core.safety_profile import DEFAULT_SAFETY_PROFILE, SafetyProfile
from cleveragents.safety_toolkit.core.starter import SCHEMA_REVISION

SCHEMA: dict[str, Any] = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
MODELINE_PREFIX = "# yaml-language-server: $schema="


def safety_profile(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_program("safety-profile", *args, cwd=cwd)


def test_init_writes_safety_profile_yaml_that_check_accepts(tmp_path: Path) -> None:
    result = safety_profile("init", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "safety_profile.yaml").is_file()
    assert "safety-profile check safety_profile.yaml" in result.stdout

    check = safety_profile("check", "safety_profile.yaml", cwd=tmp_path)
    assert check.returncode == 0, check.stdout
    assert check.stdout == "ok: 1 file valid\n"


def test_init_sets_every_field_to_its_default_under_its_description(tmp_path: Path) -> None:
    assert safety_profile("init", "team.safety_profile.yaml", cwd=tmp_path).returncode == 0
    written = tmp_path / "team.safety_profile.yaml"

    profile = SafetyProfile.from_yaml(written)
    assert profile == DEFAULT_SAFETY_PROFILE
    assert profile.model_fields_set == set(SCHEMA["properties"])  # every field is written

    lines = written.read_text(encoding="utf-8").splitlines()
    for name, field in SCHEMA["properties"].items():
        (at,) = [index for index, line in enumerate(lines) if line.startswith(f"{name}:")]
        comment = []
        for line in reversed(lines[:at]):
            if not line.startswith("# "):
                break
            comment.insert(0, line.removeprefix("# "))
        assert " ".join(comment) == field["description"], name


def first_line(path: Path) -> str:
    return path.read_text(encoding="utf-8").splitlines()[0]


# The schema on the repository's default branch: a URL that resolves before any release (the
# `$id` names the tag the next release makes). At a release, scripts/release.py moves it to
# that tag (tests/project/test_release.py).
PUBLISHED = (
    "https://raw.githubusercontent.com/cleveragents/cleveragents-safety-profile/"
    f"{SCHEMA_REVISION}/schema/safety_profile.schema.json"
)


def test_the_published_url_names_the_default_branch_or_a_released_tag() -> None:
    version = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert SCHEMA_REVISION in ("main", f"v{version['project']['version']}")
    assert SCHEMA["$id"].endswith("/schema/safety_profile.schema.json")
    assert PUBLISHED.removeprefix(SCHEMA["$id"].split("/v", 1)[0]) == (
        f"/{SCHEMA_REVISION}/schema/safety_profile.schema.json"
    )
    assert (REPO_ROOT / "schema" / "safety_profile.schema.json").is_file()


def test_outside_a_repository_the_modeline_is_the_published_schema_url(tmp_path: Path) -> None:
    assert safety_profile("init", cwd=tmp_path).returncode == 0
    assert first_line(tmp_path / "safety_profile.yaml") == MODELINE_PREFIX + PUBLISHED


def test_in_a_repository_holding_the_schema_the_modeline_is_relative_to_the_file(
    tmp_path: Path,
) -> None:
    """Every clone has the schema at the same place relative to the file: the nearest copy of
    this very schema (same `$id`), tracked or about to be, but never an ignored one."""
    new_repository(tmp_path, {"README.md": "a project\n", ".gitignore": "build/\n"})
    schema_text = safety_profile("schema", cwd=tmp_path).stdout
    write_files(
        tmp_path,
        {
            "schemas/safety_profile.schema.json": schema_text,  # untracked: about to be added
            # Nearer, but not the same release; and a copy git ignores.
            "config/old/safety_profile.schema.json": schema_text.replace(
                SCHEMA["$id"], SCHEMA["$id"].replace("/v", "/v0.0.")
            ),
            "config/build/safety_profile.schema.json": schema_text,
            "config/broken/safety_profile.schema.json": "{not json",
            ".gitignore": "build/\n",
        },
    )
    (tmp_path / os.fsdecode(b"config/\xff.yaml")).write_bytes(b"{}\n")  # a name that is not UTF-8
    assert safety_profile("init", "config/prod.safety_profile.yaml", cwd=tmp_path).returncode == 0
    modeline = MODELINE_PREFIX + "../schemas/safety_profile.schema.json"
    assert first_line(tmp_path / "config/prod.safety_profile.yaml") == modeline
    # From a subfolder, and once the copy is committed: the same path, relative to the file.
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "schema")
    assert (
        safety_profile("init", "team.safety_profile.yaml", cwd=tmp_path / "config").returncode == 0
    )
    assert first_line(tmp_path / "config/team.safety_profile.yaml") == modeline
    assert safety_profile("init", cwd=tmp_path).returncode == 0
    assert first_line(tmp_path / "safety_profile.yaml") == (
        MODELINE_PREFIX + "schemas/safety_profile.schema.json"
    )


def test_in_a_repository_without_the_schema_the_modeline_is_the_published_url(
    tmp_path: Path,
) -> None:
    new_repository(tmp_path, {"README.md": "a project\n"})
    assert safety_profile("init", cwd=tmp_path).returncode == 0
    assert first_line(tmp_path / "safety_profile.yaml") == MODELINE_PREFIX + PUBLISHED


def test_init_modeline_can_point_elsewhere(tmp_path: Path) -> None:
    url = SCHEMA["$id"]
    assert safety_profile("init", "--schema", url, cwd=tmp_path).returncode == 0
    text = (tmp_path / "safety_profile.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[0] == MODELINE_PREFIX + url


@pytest.mark.parametrize("location", ["", "my schemas/safety_profile.schema.json"])
def test_init_refuses_a_modeline_location_editors_cannot_read(
    tmp_path: Path, location: str
) -> None:
    result = safety_profile("init", "--schema", location, cwd=tmp_path)
    assert result.returncode == 2
    assert "must not be empty or contain spaces" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_init_never_overwrites_an_existing_file(tmp_path: Path) -> None:
    existing = tmp_path / "safety_profile.yaml"
    existing.write_text("require_sandbox: false\n", encoding="utf-8")

    result = safety_profile("init", cwd=tmp_path)

    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (
        "safety-profile: safety_profile.yaml already exists; not overwriting it "
        "(remove it first, or pass another FILE)\n"
    )
    assert existing.read_text(encoding="utf-8") == "require_sandbox: false\n"


def test_init_does_not_follow_a_dangling_symlink(tmp_path: Path) -> None:
    (tmp_path / "safety_profile.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    assert safety_profile("init", cwd=tmp_path).returncode == 1
    assert not (tmp_path / "elsewhere.yaml").exists()


def test_init_into_a_missing_folder_says_why(tmp_path: Path) -> None:
    result = safety_profile("init", "missing/safety_profile.yaml", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == (
        "safety-profile: cannot write missing/safety_profile.yaml (no such file or directory)\n"
    )


def test_the_release_script_moves_the_modeline_to_the_new_tag(tmp_path: Path) -> None:
    """scripts/release.py's step, on a copy of starter.py: the revision becomes the tag the
    release makes; a file without the line is refused, untouched."""
    spec = importlib.util.spec_from_file_location("release", REPO_ROOT / "scripts" / "release.py")
    assert spec is not None
    assert spec.loader is not None
    release = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(release)
    copy = tmp_path / "starter.py"
    copy.write_bytes(release.STARTER.read_bytes())
    release.bump_starter_revision(release.Version("0.2.0"), copy)
    text = copy.read_text(encoding="utf-8")
    assert '\nSCHEMA_REVISION = "v0.2.0"\n' in text
    assert text.replace('"v0.2.0"', f'"{SCHEMA_REVISION}"', 1) == release.STARTER.read_text(
        encoding="utf-8"
    )
    copy.write_text("nothing here\n", encoding="utf-8")
    with pytest.raises(release.ReleaseError, match="SCHEMA_REVISION"):
        release.bump_starter_revision(release.Version("0.2.0"), copy)
    assert copy.read_text(encoding="utf-8") == "nothing here\n"
