"""`safety-profile diff OLD NEW`, run for real: field by field, every format, invalid files
reported exactly as `check` reports them, and the exit status (0 nothing loosens, 1 something
loosens or a file is invalid, 2 usage)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import EXAMPLES, INVALID_PROFILES
from git_repos import git, new_repository
from programs import run_program

from cleveragents.safety_toolkit.formats import format_names

ACTIONS = EXAMPLES / "actions"
INVALID_ACTIONS = sorted((ACTIONS / "invalid").glob("*.yaml"))

OLD = """\
allowed_skill_categories: [deploy, test]
require_sandbox: true
max_retries_per_step: 5
max_total_cost: 100.0
"""
NEW = """\
# reviewed
allowed_skill_categories: [deploy, ops]
require_sandbox: false
max_retries_per_step: 2
"""


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_program("safety-profile", *args, cwd=cwd)


@pytest.fixture
def pair(tmp_path: Path) -> Path:
    (tmp_path / "old.safety_profile.yaml").write_text(OLD, encoding="utf-8")
    (tmp_path / "new.safety_profile.yaml").write_text(NEW, encoding="utf-8")
    return tmp_path


def test_text_one_line_per_changed_field_with_its_position_in_new(pair: Path) -> None:
    result = run("diff", "old.safety_profile.yaml", "new.safety_profile.yaml", cwd=pair)
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout == (
        "new.safety_profile.yaml:2:1: loosens: max_total_cost: 100.0 → null "
        "(no limit; the key was removed: its default applies) [loosens.max_total_cost]\n"
        'new.safety_profile.yaml:2:27: loosens: allowed_skill_categories: ["deploy", "test"] → '
        '["deploy", "ops"] (adds "ops"; removes "test") [loosens.allowed_skill_categories]\n'
        "new.safety_profile.yaml:3:18: loosens: require_sandbox: true → false "
        "[loosens.require_sandbox]\n"
        "new.safety_profile.yaml:4:23: tightens: max_retries_per_step: 5 → 2 "
        "[tightens.max_retries_per_step]\n"
        "3 changes loosen, 1 change tightens (1 file compared)\n"
    )


def test_only_tightening_exits_0_and_the_reverse_loosens(pair: Path) -> None:
    (pair / "stricter.safety_profile.yaml").write_text(
        "allowed_skill_categories: [deploy]\nmax_total_cost: 10.0\n", encoding="utf-8"
    )
    tighter = run("diff", "old.safety_profile.yaml", "stricter.safety_profile.yaml", cwd=pair)
    assert tighter.returncode == 0
    assert (
        tighter.stdout.splitlines()[-1]
        == "ok: nothing loosens; 3 changes tighten (1 file compared)"
    )
    looser = run("diff", "stricter.safety_profile.yaml", "old.safety_profile.yaml", cwd=pair)
    assert looser.returncode == 1
    assert 'loosens: allowed_skill_categories: ["deploy"] → ["deploy", "test"]' in looser.stdout


def test_same_profile_written_differently_is_no_change(pair: Path) -> None:
    (pair / "same.safety_profile.yaml").write_text(
        "max_total_cost: 100\nmax_retries_per_step: 5.0\nallowed_skill_categories: [test, deploy]\n"
        "require_sandbox: true  # the default, spelt out\n",
        encoding="utf-8",
    )
    result = run("diff", "old.safety_profile.yaml", "same.safety_profile.yaml", cwd=pair)
    assert (result.returncode, result.stdout) == (0, "ok: nothing loosens (1 file compared)\n")


def test_json_lists_each_change_with_old_and_new_values(pair: Path) -> None:
    result = run(
        "diff", "--format", "json", "old.safety_profile.yaml", "new.safety_profile.yaml", cwd=pair
    )
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert (report["loosens"], report["files_compared"], report["problems"]) == (True, 1, [])
    assert report["changes"][1] == {
        "file": "new.safety_profile.yaml",
        "line": 2,
        "column": 27,
        "path": "allowed_skill_categories",
        "change": "loosens",
        "old": ["deploy", "test"],
        "new": ["deploy", "ops"],
        "message": '["deploy", "test"] → ["deploy", "ops"] (adds "ops"; removes "test")',
        "rule": "loosens.allowed_skill_categories",
    }
    assert [(c["path"], c["change"], c["old"], c["new"]) for c in report["changes"]] == [
        ("max_total_cost", "loosens", 100.0, None),
        ("allowed_skill_categories", "loosens", ["deploy", "test"], ["deploy", "ops"]),
        ("require_sandbox", "loosens", True, False),
        ("max_retries_per_step", "tightens", 5, 2),
    ]


def test_github_annotations_error_on_loosening_notice_on_tightening(pair: Path) -> None:
    result = run(
        "diff", "--format", "github", "old.safety_profile.yaml", "new.safety_profile.yaml", cwd=pair
    )
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[2] == (
        "::error file=new.safety_profile.yaml,line=3,col=18,title=loosens.require_sandbox"
        "::require_sandbox loosens: true → false"
    )
    assert lines[3] == (
        "::notice file=new.safety_profile.yaml,line=4,col=23,title=tightens.max_retries_per_step"
        "::max_retries_per_step tightens: 5 → 2"
    )


# -- actions: the embedded profile -------------------------------------------------------------
ACTION_HEAD = (
    "name: local/deploy\ndefinition_of_done: Deployed\n"
    "strategy_actor: local/default\nexecution_actor: local/default\n"
)


@pytest.mark.parametrize(
    ("old_block", "new_block", "status", "expected"),
    [
        (
            "safety_profile:\n  require_sandbox: true\n",
            "safety_profile:\n  require_sandbox: false\n",
            1,
            "new.yaml:6:20: loosens: safety_profile.require_sandbox: true → false "
            "[loosens.require_sandbox]",
        ),
        (
            "safety_profile:\n  max_retries_per_step: 5\n",
            "safety_profile:\n  max_retries_per_step: 1\n",
            0,
            "new.yaml:6:25: tightens: safety_profile.max_retries_per_step: 5 → 1 "
            "[tightens.max_retries_per_step]",
        ),
        (  # an action that loses its profile loosens: the next layer applies
            "safety_profile:\n  require_sandbox: true\n",
            "",
            1,
            "new.yaml:1:1: loosens: safety_profile: removed: the next layer applies "
            "[loosens.removed]",
        ),
        (
            "",
            "safety_profile: {}\n",
            0,
            "new.yaml:5:1: added: safety_profile: it overrides the next layer; review it whole "
            "[diff.added]",
        ),
    ],
)
def test_kind_action_compares_the_embedded_profiles(
    tmp_path: Path, old_block: str, new_block: str, status: int, expected: str
) -> None:
    (tmp_path / "old.yaml").write_text(ACTION_HEAD + old_block, encoding="utf-8")
    (tmp_path / "new.yaml").write_text(ACTION_HEAD + new_block, encoding="utf-8")
    result = run("diff", "--kind", "action", "old.yaml", "new.yaml", cwd=tmp_path)
    assert result.returncode == status
    assert result.stdout.splitlines()[0] == expected


# -- invalid files: exactly as `check` reports them --------------------------------------------
def test_invalid_or_missing_files_are_reported_as_check_reports_them(pair: Path) -> None:
    bad = EXAMPLES / "invalid" / "several_problems.safety_profile.yaml"
    result = run("diff", "old.safety_profile.yaml", str(bad), cwd=pair)
    check = run("check", str(bad), cwd=pair)
    assert result.returncode == 1
    assert result.stdout.splitlines()[:-1] == check.stdout.splitlines()[:-1]
    assert result.stdout.splitlines()[-1] == "1 file invalid (1 file compared)"
    missing = run("diff", "absent.yaml", "new.safety_profile.yaml", cwd=pair)
    assert missing.returncode == 1
    assert missing.stdout.splitlines()[0] == (
        "absent.yaml: error: no such file; check the path [file.missing]"
    )


def _modified_examples(folder: Path, examples: list[Path], valid: str) -> list[str]:
    """A repository where each example was committed as a valid file and is now changed to
    the example's (invalid) content: one `diff --git` run reports them all."""
    names = [example.name for example in examples]
    new_repository(folder, dict.fromkeys(names, valid))
    for example in examples:
        (folder / example.name).write_bytes(example.read_bytes())
    return names


@pytest.mark.parametrize("output_format", format_names("diff"))
@pytest.mark.parametrize("kind", ["profile", "action"])
def test_every_invalid_example_is_reported_exactly_as_check_reports_it(
    tmp_path: Path, output_format: str, kind: str
) -> None:
    if kind == "profile":
        names = _modified_examples(tmp_path, INVALID_PROFILES, "{}\n")
        paths: tuple[str, ...] = ()
    else:
        valid = (ACTIONS / "valid" / "minimal.action.yaml").read_text(encoding="utf-8")
        names = _modified_examples(tmp_path, INVALID_ACTIONS, valid)
        paths = tuple(names)  # not under actions/: named explicitly
    diff = run(
        "diff", "--kind", kind, "--format", output_format, "--git", "HEAD", *paths, cwd=tmp_path
    )
    check = run("check", "--kind", kind, "--format", output_format, *names, cwd=tmp_path)
    assert (diff.returncode, check.returncode) == (1, 1)
    if output_format == "text":
        assert diff.stdout.splitlines()[:-1] == check.stdout.splitlines()[:-1]
        invalid = len(names)
        assert diff.stdout.splitlines()[-1] == f"{invalid} files invalid ({invalid} files compared)"
    elif output_format == "json":
        assert json.loads(diff.stdout)["problems"] == json.loads(check.stdout)
    elif output_format == "github":
        assert diff.stdout == check.stdout
    else:
        assert (
            json.loads(diff.stdout)["runs"][0]["results"]
            == (json.loads(check.stdout)["runs"][0]["results"])
        )
    assert "Traceback" not in diff.stderr


# -- usage ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ("diff",),
        ("diff", "only-one.yaml"),
        ("diff", "a.yaml", "b.yaml", "c.yaml"),
        ("diff", "--staged", "a.yaml", "b.yaml"),
        ("diff", "--git", "HEAD", "--pre-commit"),
        ("diff", "--git", "HEAD", "--staged", "--to", "main"),
        ("diff", "--format", "xml", "a.yaml", "b.yaml"),
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, args: tuple[str, ...]) -> None:
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert "usage: safety-profile diff" in result.stderr
    assert "Traceback" not in result.stderr


def test_help_says_which_value_is_stricter_with_examples(tmp_path: Path) -> None:
    result = run("diff", "--help", cwd=tmp_path)
    assert result.returncode == 0
    help_text = result.stdout
    assert "allow_unsafe_tools        false is stricter" in help_text
    assert (
        "max_total_cost            lower is stricter; null (no limit) is the loosest" in help_text
    )
    assert "safety-profile diff --git origin/main --format github" in help_text
    assert "exit status: 0 nothing loosens, 1 a change loosens or a file is invalid" in help_text
    git(tmp_path, "init", "-q")  # --git in a repository without that revision: a usage error
    unknown = run("diff", "--git", "origin/main", cwd=tmp_path)
    assert unknown.returncode == 2
    assert "unknown revision 'origin/main'" in unknown.stderr
