"""The `safety-profile-action` pre-commit hook, run by the real pre-commit on a scratch project.

`pre-commit try-repo` builds the hook from a committed copy of this repository (so files not
yet committed here count too) in a fresh pre-commit home: about 10 s, and it needs the package
index for the build backend and dependencies, like any user's first run.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import EXAMPLES, REPO_ROOT
from programs import run_program

BAD_NESTED = EXAMPLES / "actions" / "invalid" / "nested_retries_above_maximum.action.yaml"
GOOD = EXAMPLES / "actions" / "valid" / "spec_secure_deploy.action.yaml"
GIT_IDENTITY = ["-c", "user.name=test", "-c", "user.email=test@example.invalid"]


def git(folder: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", *GIT_IDENTITY, *args], cwd=folder, capture_output=True, text=True, check=True
    )
    return result.stdout


def committed_copy_of_this_repository(destination: Path) -> Path:
    """Tracked and untracked-but-not-ignored files, committed in a new repository."""
    listed = git(REPO_ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for name in filter(None, listed.split("\0")):
        source = REPO_ROOT / name
        if source.is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)
    git(destination, "init", "-q")
    git(destination, "add", "-A")
    git(destination, "commit", "-q", "-m", "hook under test")
    return destination


@pytest.fixture(scope="module")
def hook_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str]:
    hook_repo = committed_copy_of_this_repository(tmp_path_factory.mktemp("hook-repo"))
    project = tmp_path_factory.mktemp("project")
    files = {
        "actions/deploy/bad.yaml": BAD_NESTED.read_text(encoding="utf-8"),
        "actions/good.yml": GOOD.read_text(encoding="utf-8"),
        # Not under actions/: not an action for this hook.
        "notes/bad.yaml": BAD_NESTED.read_text(encoding="utf-8"),
        # A profile file kept beside actions is the `safety-profile` hook's job.
        "actions/team.safety_profile.yaml": "max_retries_per_step: 5\n",
    }
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    git(project, "init", "-q")
    git(project, "add", "-A")
    result = run_program(
        "pre-commit",
        *("try-repo", str(hook_repo), "safety-profile-action", "--all-files"),
        cwd=project,
        env={"PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pre-commit-home"))},
    )
    return result.returncode, result.stdout + result.stderr


def test_hook_fails_on_a_bad_nested_profile_with_its_line_and_path(
    hook_run: tuple[int, str],
) -> None:
    returncode, output = hook_run
    assert returncode == 1, output
    assert (
        "actions/deploy/bad.yaml:7:25: error: safety_profile.max_retries_per_step: "
        "500 is above the maximum 100"
    ) in output


def test_hook_checks_only_action_files(hook_run: tuple[int, str]) -> None:
    _, output = hook_run
    assert "1 of 2 files invalid" in output  # actions/deploy/bad.yaml and actions/good.yml
    assert "notes/bad.yaml" not in output
    assert "team.safety_profile.yaml" not in output
