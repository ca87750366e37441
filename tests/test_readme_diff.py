"""What the README's "Does a change loosen a profile?" section shows is what the commands do."""

from __future__ import annotations

import shlex
from pathlib import Path

import yaml
from git_repos import git, new_repository, write_files
from programs import run_program
from readme import code_blocks
from test_diff_git import EXPECTED, FIRST, RENAMED

SECTION = "Does a change loosen a profile?"
BLOCKS = code_blocks(SECTION)


def console(command: str) -> list[str]:
    """The output lines the README shows under `$ {command}`."""
    for language, text in BLOCKS:
        lines = text.splitlines()
        if language == "console" and lines[0] == f"$ {command}":
            return lines[1:]
    raise AssertionError(f"README.md shows no `$ {command}`")


def run_shown(command: str, cwd: Path) -> list[str]:
    program, *args = shlex.split(command)
    result = run_program(program, *args, cwd=cwd)
    return result.stdout.splitlines()


def test_the_diff_example_is_real_output(tmp_path: Path) -> None:
    for language, text in BLOCKS:
        if (
            language == "yaml"
            and text.startswith("# ")
            and text.split("\n", 1)[0].endswith(".yaml")
        ):
            (tmp_path / text.split("\n", 1)[0][2:]).write_text(text, encoding="utf-8")
    command = "safety-profile diff old.safety_profile.yaml new.safety_profile.yaml"
    assert run_shown(command, tmp_path) == console(command)


def test_the_git_example_is_the_tested_one() -> None:
    # tests/test_diff_git.py builds that repository and asserts exactly this output.
    assert console("safety-profile diff --git HEAD") == EXPECTED


def test_the_pull_request_step_annotates_a_loosening(tmp_path: Path) -> None:
    (workflow,) = [text for language, text in BLOCKS if language == "yaml" and "runs-on" in text]
    steps = yaml.safe_load(workflow)["jobs"]["safety-profiles"]["steps"]
    command = steps[-1]["run"]
    assert command == "safety-profile diff --git origin/main --format github"
    assert steps[0]["with"]["fetch-depth"] == 0
    # A pull request's checkout: origin/main is the base; the working tree is the change.
    new_repository(tmp_path, FIRST)
    git(tmp_path, "update-ref", "refs/remotes/origin/main", "HEAD")
    write_files(tmp_path, {"config/renamed.safety_profile.yaml": RENAMED.format("false")})
    assert run_shown(command, tmp_path) == [
        "::error file=config/renamed.safety_profile.yaml,line=4,col=22,"
        "title=loosens.require_checkpoints::require_checkpoints loosens: true → false"
    ]


def test_the_resolve_notes_are_real_output(tmp_path: Path) -> None:
    (shown,) = [text for language, text in BLOCKS if language == "text" and "# note:" in text]
    write_files(
        tmp_path,
        {
            "plan.safety_profile.yaml": "require_sandbox: false\n",
            "project.safety_profile.yaml": "max_total_cost: 10.0\n",
        },
    )
    output = run_shown(
        "safety-profile resolve --plan plan.safety_profile.yaml "
        "--project project.safety_profile.yaml",
        tmp_path,
    )
    head = shown.splitlines()[:-1]  # up to the `...`
    assert output[: len(head)] == head
