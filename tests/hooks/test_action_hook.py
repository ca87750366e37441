"""The `safety-profile-action` pre-commit hook, run by the real pre-commit on a scratch project.

The hook comes from a committed copy of this repository (so files not yet committed here count
too), its environment built by pre-commit once per test run (conftest's `hook_repository`).
"""

from __future__ import annotations

import pytest
from conftest import EXAMPLES
from git_repos import HookRepository, git, run_hooks, write_files

BAD_NESTED = EXAMPLES / "actions" / "invalid" / "nested_retries_above_maximum.action.yaml"
GOOD = EXAMPLES / "actions" / "valid" / "spec_secure_deploy.action.yaml"
GITHUB_COMPOSITE_ACTION = """\
name: setup
description: Set up the toolchain
runs:
  using: composite
  steps:
    - run: echo setting up
      shell: bash
"""
NESTED_ERROR = ":7:25: error: safety_profile.max_retries_per_step: 500 is above the maximum 100"


@pytest.fixture(scope="module")
def hook_run(
    tmp_path_factory: pytest.TempPathFactory, hook_repository: HookRepository
) -> tuple[int, str]:
    project = tmp_path_factory.mktemp("project")
    files = {
        "actions/deploy/bad.yaml": BAD_NESTED.read_text(encoding="utf-8"),
        "actions/good.yml": GOOD.read_text(encoding="utf-8"),
        # Not under actions/: not an action for this hook.
        "notes/bad.yaml": BAD_NESTED.read_text(encoding="utf-8"),
        # A profile file kept beside actions is the `safety-profile` hook's job.
        "actions/team.safety_profile.yaml": "max_retries_per_step: 5\n",
        # Any case (issue 11).
        "Actions/Release.YAML": BAD_NESTED.read_text(encoding="utf-8"),
        # The target of a symlinked action: not under actions/, checked through the link.
        "shared/deploy.yaml": BAD_NESTED.read_text(encoding="utf-8"),
        # A GitHub composite action, not a CleverAgents one: left alone.
        ".github/actions/setup/action.yaml": GITHUB_COMPOSITE_ACTION,
    }
    write_files(project, files)
    (project / "actions/linked.yaml").symlink_to("../shared/deploy.yaml")
    git(project, "init", "-q")
    git(project, "add", "-A")
    result = run_hooks(
        hook_repository, project, ["safety-profile-action"], "--all-files", "--verbose"
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
    # actions/deploy/bad.yaml, Actions/Release.YAML, actions/linked.yaml and actions/good.yml
    assert "3 of 4 files invalid" in output
    assert f"Actions/Release.YAML{NESTED_ERROR}" in output
    assert f"actions/linked.yaml{NESTED_ERROR}" in output
    assert "notes/bad.yaml" not in output
    assert "shared/deploy.yaml" not in output
    assert "team.safety_profile.yaml" not in output
    assert ".github" not in output
    assert "strategy_actor" not in output
