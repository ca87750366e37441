"""The hook as repo owners use it: the real `pre-commit try-repo` against this checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import EXAMPLES, REPO_ROOT, console_script

PRE_COMMIT = console_script("pre-commit")


@pytest.fixture(scope="module")
def user_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository of a user with good and bad profiles, and a YAML file the hook must skip."""
    repo = tmp_path_factory.mktemp("user-repo")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    files = {
        "config/safety_profile.yaml": EXAMPLES / "valid/spec_example.safety_profile.yaml",
        "config/bad-value.safety-profile.yml": EXAMPLES
        / "invalid/retries_above_maximum.safety_profile.yaml",
        "config/typo.safety_profile.yaml": EXAMPLES / "invalid/typo_key.safety_profile.yaml",
        "config/duplicate.safety_profile.yaml": EXAMPLES
        / "invalid/duplicate_key.safety_profile.yaml",
        # Not a profile by name: the default `files` pattern leaves it alone.
        "config/unrelated.yaml": EXAMPLES / "invalid/typo_key.safety_profile.yaml",
    }
    for name, source in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, repo / name)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    return repo


def try_repo(repo: Path, hook_id: str, *files: str) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "PRE_COMMIT_HOME": str(repo.parent / "pre-commit-home"),
        "NO_COLOR": "1",
    }
    return subprocess.run(
        [PRE_COMMIT, "try-repo", str(REPO_ROOT), hook_id, "--color", "never", "--files", *files],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        env=environment,
    )


def test_hook_manifest_declares_the_profile_hook() -> None:
    hooks = {
        hook["id"]: hook
        for hook in yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text())
    }
    hook = hooks["safety-profile"]
    assert hook["types"] == ["yaml"]
    assert hook["language"] == "python"


def test_valid_profile_passes(user_repo: Path) -> None:
    result = try_repo(user_repo, "safety-profile", "config/safety_profile.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


def test_bad_profiles_fail_naming_file_line_and_field(user_repo: Path) -> None:
    names = [
        "config/safety_profile.yaml",
        "config/bad-value.safety-profile.yml",
        "config/typo.safety_profile.yaml",
        "config/duplicate.safety_profile.yaml",
        "config/unrelated.yaml",
    ]
    result = try_repo(user_repo, "safety-profile", *names)
    assert result.returncode == 1, result.stdout + result.stderr
    output = result.stdout
    assert "Failed" in output
    assert (
        "config/bad-value.safety-profile.yml:1:23: error: max_retries_per_step: "
        "500 is above the maximum 100"
    ) in output
    assert (
        "config/typo.safety_profile.yaml:2:1: error: allow_unsafe_tool: unknown field "
        "'allow_unsafe_tool'; did you mean 'allow_unsafe_tools'?"
    ) in output
    assert (
        "config/duplicate.safety_profile.yaml:3:1: error: allow_unsafe_tools: duplicate key "
        "'allow_unsafe_tools' (first on line 1, again on line 3); keep only one"
    ) in output
    assert "unrelated.yaml" not in output
    assert "Traceback" not in output + result.stderr


def test_diff_selects_the_files_the_check_hooks_match() -> None:
    # `diff --git` and the loosening hook (which asks git itself) use the same patterns.
    from cleveragents.safety_toolkit.kinds import KINDS

    hooks = {
        hook["id"]: hook
        for hook in yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text())
    }
    assert (KINDS["profile"].files, KINDS["profile"].exclude) == (
        hooks["safety-profile"]["files"],
        None,
    )
    assert (KINDS["action"].files, KINDS["action"].exclude) == (
        hooks["safety-profile-action"]["files"],
        hooks["safety-profile-action"]["exclude"],
    )
