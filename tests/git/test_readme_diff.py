"""What the README's "Does a change loosen a profile?" section shows is what the commands do."""

from __future__ import annotations

import shlex
from pathlib import Path

from git_repos import write_files
from programs import run_program
from readme import code_blocks, section_text
from test_diff_git import EXPECTED

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
    # tests/git/test_diff_git.py builds that repository and asserts exactly this output.
    assert console("safety-profile diff --git HEAD") == EXPECTED


def test_the_pull_request_section_sends_to_the_review_action() -> None:
    """A pull request is reviewed by the action (tests/hooks/test_review_action.py runs it against a
    hostile pull request), not by `diff --git origin/main` after the pull request's own
    pre-commit configuration ran, which a hook of that configuration could fool."""
    text = section_text(SECTION, "In a pull request (GitHub Actions)")
    assert "(review-action.md)" in text
    assert "--git origin/main --format github" not in text
    assert not [block for block in BLOCKS if "runs-on" in block[1]]


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
