"""The `safety-profile-action` pre-commit hook, run by the real pre-commit on a scratch project.

`pre-commit try-repo` builds the hook from a committed copy of this repository (so files not
yet committed here count too) in a fresh pre-commit home: about 10 s, and it needs the package
index for the build backend and dependencies, like any user's first run.
"""

from __future__ import annotations

import pytest
from conftest import EXAMPLES
from git_repos import committed_copy_of_this_repository, git, write_files
from programs import run_program

BAD_NESTED = EXAMPLES / "actions" / "invalid" / "nested_retries_above_maximum.action.yaml"
GOOD = EXAMPLES / "actions" / "valid" / "spec_secure_deploy.action.yaml"


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
    write_files(project, files)
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
