"""`safety-profile diff --git REV [PATH...]` on real git repositories with real commits."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml
from git_repos import git, new_repository, write_files
from programs import run_program
from strictness_changes import CHANGES

RENAMED = """\
# The team's profile: reviewed by the security team.
# Change it only with their approval.
max_retries_per_step: 5
require_checkpoints: {}
require_human_approval: true
allowed_skill_categories: [code, test]
"""
FIRST = {
    "config/prod.safety_profile.yaml": "require_sandbox: true\nmax_total_cost: 100.0\n",
    "config/gone.safety_profile.yaml": "allowed_skill_categories: [deploy]\n",
    # Long enough for git to see the edited file as renamed (more than half of it is kept);
    # a rename is still a deletion and an addition, compared with the baseline.
    "config/renamed.safety_profile.yaml": RENAMED.format("true"),
    "profiles/team.yaml": "allow_unsafe_tools: false\n",  # not named like a profile
    "notes.yaml": "anything: at all\n",
}


def run(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return run_program("safety-profile", *args, cwd=cwd, env=env)


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """One commit, then in the working tree: a modified profile, a deleted one, a renamed and
    changed one, a new untracked one and changes to files that are not profiles."""
    new_repository(tmp_path, FIRST)
    write_files(
        tmp_path,
        {
            "config/prod.safety_profile.yaml": "require_sandbox: false\nmax_total_cost: 50.0\n",
            "config/new.safety_profile.yaml": "allow_unsafe_tools: true\n",
            "profiles/team.yaml": "allow_unsafe_tools: true\n",
            "notes.yaml": "- not: a profile\n",
        },
    )
    git(tmp_path, "rm", "-q", "config/gone.safety_profile.yaml")
    git(tmp_path, "mv", "config/renamed.safety_profile.yaml", "config/moved.safety_profile.yaml")
    (tmp_path / "config/moved.safety_profile.yaml").write_text(
        RENAMED.format("false"), encoding="utf-8"
    )
    return tmp_path


MOVED_ADDED = [
    "config/moved.safety_profile.yaml: added: it overrides the next layer; review it whole "
    "[diff.added]",
    "config/moved.safety_profile.yaml:3:23: loosens: max_retries_per_step: 3 → 5 (added: "
    "looser than DEFAULT_SAFETY_PROFILE) [loosens.max_retries_per_step]",
]
RENAMED_REMOVED = (
    "config/renamed.safety_profile.yaml: loosens: removed: the next layer applies [loosens.removed]"
)
EXPECTED = [
    "config/gone.safety_profile.yaml: loosens: removed: the next layer applies [loosens.removed]",
    *MOVED_ADDED,
    "config/moved.safety_profile.yaml:4:22: loosens: require_checkpoints: true → false (added: "
    "looser than DEFAULT_SAFETY_PROFILE) [loosens.require_checkpoints]",
    "config/new.safety_profile.yaml: added: it overrides the next layer; review it whole "
    "[diff.added]",
    # An added profile is compared with what applied before it: the built-in default.
    "config/new.safety_profile.yaml:1:21: loosens: allow_unsafe_tools: false → true "
    "(added: looser than DEFAULT_SAFETY_PROFILE) [loosens.allow_unsafe_tools]",
    "config/prod.safety_profile.yaml:1:18: loosens: require_sandbox: true → false "
    "[loosens.require_sandbox]",
    "config/prod.safety_profile.yaml:2:17: tightens: max_total_cost: 100.0 → 50.0 "
    "[tightens.max_total_cost]",
    RENAMED_REMOVED,
    "6 changes loosen, 1 change tightens, 2 profiles added (5 files compared)",
]


def test_working_tree_against_a_revision(repository: Path) -> None:
    result = run("diff", "--git", "HEAD", cwd=repository)
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.splitlines() == EXPECTED


def test_from_a_subfolder_paths_are_relative_to_it(repository: Path) -> None:
    result = run("diff", "--git", "HEAD", cwd=repository / "config")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [line.removeprefix("config/") for line in EXPECTED]
    profiles = run("diff", "--git", "HEAD", "../profiles", cwd=repository / "config")
    assert profiles.stdout.splitlines()[0] == (
        "../profiles/team.yaml:1:21: loosens: allow_unsafe_tools: false → true "
        "[loosens.allow_unsafe_tools]"
    )


def test_paths_limit_the_comparison_and_take_any_yaml_file_under_them(repository: Path) -> None:
    folder = run("diff", "--git", "HEAD", "profiles", cwd=repository)
    assert folder.stdout.splitlines() == [
        "profiles/team.yaml:1:21: loosens: allow_unsafe_tools: false → true "
        "[loosens.allow_unsafe_tools]",
        "1 change loosens (1 file compared)",
    ]
    one_file = run("diff", "--git", "HEAD", "config/prod.safety_profile.yaml", cwd=repository)
    assert (
        one_file.stdout.splitlines()[-1] == "1 change loosens, 1 change tightens (1 file compared)"
    )


def test_staged_content_or_another_revision(repository: Path) -> None:
    # Nothing staged but the deletion and the rename: the working tree's edits do not count.
    staged = run("diff", "--git", "HEAD", "--staged", cwd=repository)
    assert staged.stdout.splitlines() == [
        "config/gone.safety_profile.yaml: loosens: removed: the next layer applies "
        "[loosens.removed]",
        *MOVED_ADDED,
        RENAMED_REMOVED,
        "3 changes loosen, 1 profile added (3 files compared)",
    ]
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", "second")
    between = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=repository)
    assert between.stdout.splitlines() == EXPECTED
    nothing = run("diff", "--git", "HEAD", cwd=repository)
    assert (nothing.returncode, nothing.stdout) == (0, "ok: nothing loosens (0 files compared)\n")


def test_an_invalid_old_version_is_named_by_path_and_revision(tmp_path: Path) -> None:
    new_repository(tmp_path, {"a.safety_profile.yaml": "max_retries_per_step: 500\n"})
    (tmp_path / "a.safety_profile.yaml").write_text("max_retries_per_step: 5\n", encoding="utf-8")
    result = run("diff", "--git", "HEAD", cwd=tmp_path)
    assert result.returncode == 1
    # The file is named by its path (annotations and SARIF place it); the message says where.
    assert result.stdout.splitlines()[0] == (
        "a.safety_profile.yaml:1:23: error: max_retries_per_step: 500 is above the maximum 100 "
        "(the version in HEAD) [schema.less-than-equal]"
    )


def test_every_field_both_ways_in_one_run(tmp_path: Path) -> None:
    """The strictness table, end to end: one profile file per row, committed with the old
    value and changed to the new one."""
    names = [f"row{index:02}.safety_profile.yaml" for index in range(len(CHANGES))]
    new_repository(
        tmp_path,
        {
            name: yaml.safe_dump({field: old})
            for name, (field, old, *_) in zip(names, CHANGES, strict=True)
        },
    )
    write_files(
        tmp_path,
        {
            name: yaml.safe_dump({field: new})
            for name, (field, _, new, *_) in zip(names, CHANGES, strict=True)
        },
    )
    result = run("diff", "--git", "HEAD", "--format", "json", cwd=tmp_path)
    report = json.loads(result.stdout)
    found = {change["file"]: (change["path"], change["change"]) for change in report["changes"]}
    assert found == {
        name: (field, forward.value)
        for name, (field, _, _, forward, _) in zip(names, CHANGES, strict=True)
    }
    assert report["files_compared"] == len(CHANGES)
    assert result.returncode == 1


@pytest.mark.parametrize(
    "ref", ["refs/tags/HEAD", "refs/heads/HEAD", "refs/HEAD", "refs/remotes/HEAD/HEAD"]
)
def test_a_ref_named_head_is_not_head_on_a_branch_with_no_commit(tmp_path: Path, ref: str) -> None:
    """Red-team finding: on a branch with no commit yet (an orphan branch, a first commit),
    git's name guessing takes `HEAD` for any ref so named, which a clone brings along (a
    remote's tag `HEAD`). Holding a loose profile, it made the loosening hook compare with it
    and pass ("nothing loosens"). HEAD is read exactly: before the first commit, everything is
    added and compared with the default."""
    loose = "require_sandbox: false\nallow_unsafe_tools: true\n"
    new_repository(tmp_path, {"prod.safety_profile.yaml": loose})
    git(tmp_path, "update-ref", ref, "HEAD")
    git(tmp_path, "checkout", "-q", "--orphan", "release")
    for args in (("--git", "HEAD"), ("--pre-commit",)):
        result = run("diff", *args, cwd=tmp_path)
        assert (result.returncode, result.stdout.splitlines()[-1]) == (
            1,
            "2 changes loosen, 1 profile added (1 file compared)",
        ), result.stdout


@pytest.mark.parametrize(
    "branch",
    [os.fsdecode(b"caf\xe9"), "main\u00a0"],  # not UTF-8; a no-break space after `main`
    ids=["not-utf8", "no-break-space"],
)
def test_a_first_commit_on_any_branch_name_compares_with_nothing(
    tmp_path: Path, branch: str
) -> None:
    """Red-team findings on the HEAD fix: a branch name that is not UTF-8 crashed it, and one
    ending in a no-break space was read as `main` (which has commits) and refused."""
    new_repository(tmp_path, {"other.yaml": "x: 1\n"})
    git(tmp_path, "branch", "-q", "-M", "main")  # a branch with commits, named `main`
    git(tmp_path, "checkout", "-q", "--orphan", branch)
    git(tmp_path, "rm", "-q", "--cached", "other.yaml")
    write_files(tmp_path, {"a.safety_profile.yaml": "require_sandbox: false\n"})
    git(tmp_path, "add", "a.safety_profile.yaml")
    result = run("diff", "--pre-commit", cwd=tmp_path)
    assert (result.returncode, result.stdout.splitlines()[-1]) == (
        1,
        "1 change loosens, 1 profile added (1 file compared)",
    ), result.stdout + result.stderr


def test_a_head_whose_commit_git_cannot_read_is_git_s_error_not_a_first_commit(
    tmp_path: Path,
) -> None:
    """Red-team finding: HEAD's branch exists but its commit object is gone (a clone whose
    alternate object store went away): that is git's error, not "everything is added"."""
    new_repository(tmp_path, {"a.safety_profile.yaml": "require_sandbox: true\n"})
    commit = git(tmp_path, "rev-parse", "HEAD").strip()
    (tmp_path / ".git" / "objects" / commit[:2] / commit[2:]).unlink()
    write_files(tmp_path, {"a.safety_profile.yaml": "require_sandbox: false\n"})
    for args in (("--git", "HEAD"), ("--pre-commit",)):
        result = run("diff", *args, cwd=tmp_path)
        assert result.returncode == 2, result.stdout
        assert f"bad ref HEAD ({commit})" in result.stderr
        assert "Traceback" not in result.stderr


def test_before_the_first_commit_everything_is_added(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    write_files(
        tmp_path,
        {
            "a.safety_profile.yaml": "require_sandbox: false\n",
            "b.safety_profile.yaml": "max_retries_per_step: 1\n",
        },
    )
    git(tmp_path, "add", "-A")
    for args in (("--git", "HEAD"), ("--pre-commit",)):
        result = run("diff", *args, cwd=tmp_path)
        assert (result.returncode, result.stdout.splitlines()[-3:]) == (
            1,
            [
                "a.safety_profile.yaml:1:18: loosens: require_sandbox: true → false "
                "(added: looser than DEFAULT_SAFETY_PROFILE) [loosens.require_sandbox]",
                "b.safety_profile.yaml: added: it overrides the next layer; review it whole "
                "[diff.added]",
                "1 change loosens, 2 profiles added (2 files compared)",
            ],
        )


def test_pre_commit_mode_uses_the_refs_pre_commit_sets(repository: Path) -> None:
    # Without the refs: HEAD against the staged content.
    staged = run("diff", "--pre-commit", cwd=repository)
    assert staged.stdout.splitlines()[-1] == "3 changes loosen, 1 profile added (3 files compared)"
    assert staged.stderr == (
        "an intended loosening? commit it with the hook skipped once: "
        "SKIP=safety-profile-loosening git commit ...\n"
    )
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", "second")
    pushed = run(
        "diff",
        "--pre-commit",
        cwd=repository,
        PRE_COMMIT_FROM_REF=git(repository, "rev-parse", "HEAD~1").strip(),
        PRE_COMMIT_TO_REF=git(repository, "rev-parse", "HEAD").strip(),
    )
    assert pushed.returncode == 1
    assert pushed.stdout.splitlines() == EXPECTED


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--git", "no-such-branch"), "unknown revision 'no-such-branch'"),
        (("--git=-p",), "'-p' is not a revision"),
        (("--git", "HEAD", "/"), "is outside the repository"),
        (("a.yaml", "b.yaml", "--baseline", "c.yaml"), "--baseline goes with --git REV"),
    ],
)
def test_git_usage_errors_exit_2(repository: Path, args: tuple[str, ...], message: str) -> None:
    result = run("diff", *args, cwd=repository)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_outside_a_repository_is_a_usage_error(tmp_path: Path) -> None:
    result = run("diff", "--git", "HEAD", cwd=tmp_path)
    assert result.returncode == 2
    assert "is not inside a git repository" in result.stderr


def test_pre_commit_mode_reports_an_invalid_staged_file_in_one_line(tmp_path: Path) -> None:
    """The check hook reports an invalid staged profile; the loosening hook says it is invalid
    in one line and fails. Problems no check hook reports stay in full: a file not named like
    the kind's (under a PATH argument), an invalid old version, and what a push compares."""
    bad = "max_retries_per_step: 500\n"
    new_repository(
        tmp_path,
        {"-a.safety_profile.yaml": "{}\n", "profiles/b.yaml": "{}\n", "actions/c.yaml": bad},
    )
    write_files(
        tmp_path,
        {"-a.safety_profile.yaml": bad, "profiles/b.yaml": bad, "actions/c.yaml": "name: [x\n"},
    )
    git(tmp_path, "add", "-A")
    result = run("diff", "--pre-commit", "--", "-a.safety_profile.yaml", "profiles", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "-a.safety_profile.yaml: error: invalid, so it cannot be compared; the safety-profile "
        "hook reports why (or run: safety-profile check -- -a.safety_profile.yaml) [diff.invalid]",
        "profiles/b.yaml:1:23: error: max_retries_per_step: 500 is above the maximum 100 "
        "[schema.less-than-equal]",
        "2 files invalid (2 files compared)",
    ]
    action = run("diff", "--pre-commit", "--kind", "action", "--format", "json", cwd=tmp_path)
    problems = [(p["file"], p["rule"], p["message"]) for p in json.loads(action.stdout)["problems"]]
    assert action.returncode == 1
    # The old version's problems are no hook's: in full, marked as the version in HEAD.
    assert problems[0] == (
        "actions/c.yaml",
        "diff.invalid",
        "invalid, so it cannot be compared; the safety-profile-action hook reports why "
        "(or run: safety-profile check --kind action actions/c.yaml)",
    )
    assert len(problems) > 1
    assert all(message.endswith("(the version in HEAD)") for *_, message in problems[1:])
    sarif = run("diff", "--pre-commit", "--kind", "action", "--format", "sarif", cwd=tmp_path)
    (rule,) = [
        rule
        for rule in json.loads(sarif.stdout)["runs"][0]["tool"]["driver"]["rules"]
        if rule["id"] == "diff.invalid"
    ]
    assert rule["shortDescription"]["text"] == "An invalid file, reported by the check hook"
    # Outside the pre-commit stage nothing is deferred.
    staged = run("diff", "--git", "HEAD", "--staged", cwd=tmp_path)
    assert "-a.safety_profile.yaml:1:23: error: max_retries_per_step: 500" in staged.stdout
    git(tmp_path, "commit", "-q", "-m", "invalid")
    pushed = run(
        "diff",
        "--pre-commit",
        cwd=tmp_path,
        PRE_COMMIT_FROM_REF=git(tmp_path, "rev-parse", "HEAD~1").strip(),
        PRE_COMMIT_TO_REF=git(tmp_path, "rev-parse", "HEAD").strip(),
    )
    assert "-a.safety_profile.yaml:1:23: error: max_retries_per_step: 500" in pushed.stdout
    assert "cannot be compared" not in pushed.stdout
