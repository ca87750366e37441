"""The `safety-profile-loosening` pre-commit hook, run by the real `pre-commit run` on a user's
repository with real commits: a loosening fails naming the field, a tightening passes.

The hook comes from a committed copy of this repository, its environment built by pre-commit
once per test run (conftest's `hook_repository`).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT
from git_repos import GIT_IDENTITY, HookRepository, git, new_repository, run_hooks, write_files
from programs import BIN, run_program
from readme import code_blocks

HOOK = "safety-profile-loosening"
PROFILE = "config/prod.safety_profile.yaml"
COMMITTED = "require_sandbox: true\nmax_total_cost: 100.0\nallowed_skill_categories: [deploy]\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return new_repository(tmp_path, {PROFILE: COMMITTED, "README.md": "a project\n"})


def run_hook(
    hooks: HookRepository, project: Path, *args: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """The loosening hook alone, `pre-commit run ARGS` in `project`."""
    return run_hooks(hooks, project, [HOOK], *args, **env)


def stage(project: Path, text: str) -> None:
    write_files(project, {PROFILE: text})
    git(project, "add", "-A")


def test_the_manifest_declares_the_hook_for_commits_merges_and_pushes() -> None:
    hooks = {
        hook["id"]: hook
        for hook in yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text())
    }
    hook = hooks[HOOK]
    assert hook["stages"] == ["pre-commit", "pre-merge-commit", "pre-push"]
    assert (hook["pass_filenames"], hook["always_run"]) == (False, True)


def test_a_staged_loosening_or_deletion_fails_naming_the_field(
    hook_repository: HookRepository, project: Path
) -> None:
    write_files(project, {"config/team.safety_profile.yaml": "allowed_skill_categories: [code]\n"})
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "a second profile")
    stage(project, COMMITTED.replace("max_total_cost: 100.0\n", ""))
    git(project, "rm", "-q", "config/team.safety_profile.yaml")
    # Not staged: pre-commit (and the hook) compare what would be committed.
    write_files(project, {"config/unstaged.safety_profile.yaml": "allow_unsafe_tools: true\n"})
    result = run_hook(hook_repository, project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Failed" in result.stdout
    assert (
        "config/prod.safety_profile.yaml:1:1: loosens: max_total_cost: 100.0 → null "
        "(no limit; the key was removed: its default applies)"
    ) in result.stdout
    assert "config/team.safety_profile.yaml: loosens: removed: the next layer applies" in (
        result.stdout
    )
    assert "unstaged" not in result.stdout
    assert "SKIP=safety-profile-loosening git commit" in result.stdout
    # The README shows this run's lines about the first profile and the escape.
    (shown,) = [
        text
        for language, text in code_blocks("Does a change loosen a profile?")
        if language == "text" and "- hook id: safety-profile-loosening" in text
    ]
    for line in shown.splitlines():
        if line.startswith(("config/", "an intended", "no loosening", "- hook id")):
            assert line in result.stdout, line


def test_a_staged_tightening_passes(hook_repository: HookRepository, project: Path) -> None:
    stage(project, COMMITTED.replace("100.0", "20.0"))
    result = run_hook(hook_repository, project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


def test_the_skip_escape_for_an_intended_loosening(
    hook_repository: HookRepository, project: Path
) -> None:
    stage(project, COMMITTED.replace("true", "false"))
    result = run_hook(hook_repository, project, SKIP=HOOK)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Skipped" in result.stdout


def test_pre_push_compares_the_pushed_commits(
    hook_repository: HookRepository, project: Path
) -> None:
    before = git(project, "rev-parse", "HEAD").strip()
    stage(project, COMMITTED.replace("[deploy]", "[]"))
    git(project, "commit", "-q", "-m", "allow every category")
    after = git(project, "rev-parse", "HEAD").strip()
    result = run_hook(
        hook_repository,
        project,
        *("--hook-stage", "pre-push", "--from-ref", before, "--to-ref", after),
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert (
        'config/prod.safety_profile.yaml:3:27: loosens: allowed_skill_categories: ["deploy"] → [] '
        "(every category)"
    ) in result.stdout


def test_a_hostile_change_is_caught_by_the_hook(
    hook_repository: HookRepository, tmp_path: Path
) -> None:
    """One commit trying every way that got past the hook: a name git reads as syntax, a link
    whose target is loosened, an attribute that changes the checkout (in another case too), a
    new loose profile, a loose profile renamed into a new place, a link through a folder that
    does not exist, and the whole commit in one report. (A staged name that is not UTF-8
    stops pre-commit 4.7 itself with a UnicodeDecodeError before any hook runs: the commit
    fails, closed; `diff --git` on its own takes such names, see test_diff_git_hostile.py.)"""
    import os

    strict = "require_sandbox: true\n"
    project = tmp_path / "project"
    project.mkdir()
    write_files(
        project,
        {
            "0:prod.safety_profile.yaml": strict,
            "prod.safety_profile.yaml": strict,
            "data/team.yaml": strict,
            "encoded.safety_profile.yaml": strict,
            "cased.safety_profile.yaml": strict,
            "envs/dev/safety_profile.yaml": "allow_unsafe_tools: true\n",
        },
    )
    os.symlink("data/team.yaml", project / "team.safety_profile.yaml")
    new_repository(project, {})
    loose = strict.replace("true", "false")
    write_files(
        project,
        {
            "0:prod.safety_profile.yaml": loose,
            "data/team.yaml": loose,
            ".gitattributes": "encoded.safety_profile.yaml filter=lfs\n"
            "CASED.safety_profile.yaml working-tree-encoding=SHIFT_JIS\n",
            "new.safety_profile.yaml": "allow_unsafe_tools: true\n",
        },
    )
    os.symlink("nowhere/../data/team.yaml", project / "via.safety_profile.yaml")
    (project / "envs/prod").mkdir()
    git(project, "mv", "envs/dev/safety_profile.yaml", "envs/prod/safety_profile.yaml")
    git(project, "add", "-A")
    result = run_hook(hook_repository, project)
    assert result.returncode == 1, result.stdout + result.stderr
    for line in (
        "0:prod.safety_profile.yaml:1:18: loosens: require_sandbox: true → false",
        "team.safety_profile.yaml:1:18: loosens: require_sandbox: true → false",
        "encoded.safety_profile.yaml: error: in the index: the git attribute filter=lfs",
        "new.safety_profile.yaml:1:21: loosens: allow_unsafe_tools: false → true (added: looser "
        "than DEFAULT_SAFETY_PROFILE)",
        "cased.safety_profile.yaml: error: in the index: the git attribute "
        "working-tree-encoding=SHIFT_JIS",
        "envs/dev/safety_profile.yaml: loosens: removed: the next layer applies",
        "envs/prod/safety_profile.yaml:1:21: loosens: allow_unsafe_tools: false → true (added: "
        "looser than DEFAULT_SAFETY_PROFILE)",
        "via.safety_profile.yaml: error: in the index: 'via.safety_profile.yaml' leads through "
        "'nowhere', which does not exist",
    ):
        assert line in result.stdout, line
    assert "internal error" not in result.stdout


def test_a_push_of_a_whole_new_history_compares_every_profile_with_the_baseline(
    hook_repository: HookRepository, project: Path
) -> None:
    """Pushing a branch whose root commit the remote lacks, pre-commit sets no range: every
    pushed profile is new, compared with DEFAULT_SAFETY_PROFILE (not HEAD with the index,
    which holds nothing new)."""
    stage(project, "allow_unsafe_tools: true\n")
    git(project, "commit", "-q", "-m", "loosen")
    remote = ("--remote-name", "origin", "--remote-url", "file:///nowhere")
    branch = git(project, "symbolic-ref", "HEAD").strip()
    branches = ("--local-branch", branch, "--remote-branch", branch)
    result = run_hook(
        hook_repository,
        project,
        *("--hook-stage", "pre-push", "--all-files", *remote, *branches),
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert (
        "config/prod.safety_profile.yaml:1:21: loosens: allow_unsafe_tools: false → true "
        "(added: looser than DEFAULT_SAFETY_PROFILE)"
    ) in result.stdout


INVALID = "require_sandbox: true\nmax_total_cost: 100.0\nallowed_skill_categories: [deploy\n"


def test_an_invalid_profile_is_reported_once_and_fails_both_hooks(
    hook_repository: HookRepository, project: Path
) -> None:
    """Both hooks configured: the check hook says what is wrong, the loosening hook says in one
    line that the file is invalid, and still fails: an invalid file never passes as a change."""
    stage(project, INVALID)
    both = run_hooks(hook_repository, project, ["safety-profile", HOOK])
    assert both.returncode == 1, both.stdout + both.stderr
    check_section, loosening_section = both.stdout.split("no loosening of Safety Profiles")
    assert "check Safety Profiles" in check_section
    assert check_section.count("Failed") == loosening_section.count("Failed") == 1
    assert both.stdout.count(f"{PROFILE}:4:1: error:") == 1
    assert f"{PROFILE}:4:1: error:" in check_section
    deferred = (
        f"{PROFILE}: error: invalid, so it cannot be compared; the safety-profile hook reports "
        f"why (or run: safety-profile check {PROFILE}) [diff.invalid]"
    )
    assert loosening_section.strip().splitlines()[4:] == [
        deferred,
        "1 file invalid (1 file compared)",
    ]
    assert "SKIP=" not in both.stdout  # an invalid file is not a loosening to skip

    # The loosening hook alone still fails, and says how to see why.
    alone = run_hooks(hook_repository, project, [HOOK])
    assert alone.returncode == 1, alone.stdout + alone.stderr
    assert deferred in alone.stdout
    # The command it names shows the problems.
    shown = run_program("safety-profile", "check", PROFILE, cwd=project)
    assert f"{PROFILE}:4:1: error:" in shown.stdout


def test_a_merge_that_loosens_a_profile_fails_at_the_pre_merge_commit_stage(
    hook_repository: HookRepository, tmp_path: Path
) -> None:
    """`git merge` of a branch that drops require_human_approval made a merge commit that no
    hook looked at: the hook ran at pre-commit and pre-push only. Installed for
    pre-merge-commit too, it compares the merge's result with HEAD, the first parent."""
    strict = "require_sandbox: true\nrequire_human_approval: true\n"
    config = {
        "repos": [
            {
                "repo": hook_repository.url,
                "rev": hook_repository.rev,
                "hooks": [{"id": HOOK}],
            }
        ]
    }
    project = new_repository(
        tmp_path, {PROFILE: strict, ".pre-commit-config.yaml": yaml.safe_dump(config)}
    )
    git(project, "checkout", "-q", "-b", "feature")
    write_files(project, {PROFILE: "require_sandbox: true\n"})
    git(project, "commit", "-qam", "no more approval")
    git(project, "checkout", "-q", "-")
    write_files(project, {"README.md": "main moves on\n"})
    git(project, "add", "-A")
    git(project, "commit", "-qm", "main")
    before = git(project, "rev-parse", "HEAD")
    env = {"PRE_COMMIT_HOME": str(hook_repository.home), "NO_COLOR": "1"}
    installed = run_program(
        "pre-commit", "install", "--hook-type", "pre-merge-commit", cwd=project, env=env
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    merge = subprocess.run(
        ["git", *GIT_IDENTITY, "merge", "--no-edit", "feature"],
        cwd=project,
        env={**os.environ, **env, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert merge.returncode != 0, merge.stdout + merge.stderr
    assert (
        f"{PROFILE}:1:1: loosens: require_human_approval: true → false (the key was removed: its "
        "default applies)"
    ) in merge.stdout + merge.stderr
    assert git(project, "rev-parse", "HEAD") == before  # no merge commit
