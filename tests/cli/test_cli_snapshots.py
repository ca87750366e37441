"""The CLI prints, byte for byte, what its snapshots and the examples' `.expected` files hold
(tests/snapshots.py writes them all: `python -m tests.snapshots`, then review `git diff`).

The comparison runs the CLI in this process, as the tool does; a few commands also run as
the real console script in a subprocess, which proves that an in-process run prints what a
user's run prints (exit status, standard output and error, as bytes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import snapshots
from snapshots import (
    BATCHES_PATH,
    FORMATS_PATH,
    INVALID_ACTION,
    INVALID_PROFILE,
    REPO_ROOT,
    VALID_PROFILE,
    Outcome,
    batch_commands,
    load_snapshot,
    shown_command,
)

from cleveragents.safety_toolkit.formats import FORMAT_BY_NAME


def test_every_snapshot_and_expected_file_is_what_the_cli_prints_now() -> None:
    """Every example as its own kind, every format on its commands' cases, every example in
    one run: a difference is shown as the unified diff the tool's `--check` prints."""
    difference = snapshots.differences(snapshots.wanted_files())
    assert not difference, (
        "the CLI prints something else now; if that is meant, run "
        "`python -m tests.snapshots` and review the diff:\n" + difference
    )


def test_every_format_of_the_registry_is_captured_for_every_command_it_serves() -> None:
    kept = {tuple(name.split()[1:4]) for name in load_snapshot(FORMATS_PATH)}
    served = {
        (command, "--format", name)
        for name, entry in FORMAT_BY_NAME.items()
        for command in entry.serves
    }
    assert kept == served


def run_console_script(arguments: list[str]) -> Outcome:
    """The installed `safety-profile`, as a user runs it from the repository root."""
    result = subprocess.run(
        [str(Path(sys.executable).with_name("safety-profile")), *arguments],
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        capture_output=True,
        check=False,
    )
    return {
        "exit": result.returncode,
        "stdout": result.stdout.decode("utf-8"),
        "stderr": result.stderr.decode("utf-8"),
    }


# One run per format on a file with several problems, and one of each other command.
REAL_RUNS = [
    *(["check", "--format", name, "--kind", "profile", INVALID_PROFILE] for name in FORMAT_BY_NAME),
    ["check", "--format", "text", "--kind", "action", VALID_PROFILE],
    ["show", "--format", "text", "--kind", "action", INVALID_ACTION],
    ["resolve", "--format", "text", "--project", VALID_PROFILE],
    ["diff", "--format", "text", VALID_PROFILE, snapshots.LOOSER_PROFILE],
]


@pytest.mark.parametrize("arguments", REAL_RUNS, ids=shown_command)
def test_the_real_console_script_prints_the_snapshot(arguments: list[str]) -> None:
    assert run_console_script(arguments) == load_snapshot(FORMATS_PATH)[shown_command(arguments)]


@pytest.mark.parametrize("name", [name for name in batch_commands() if name.endswith(" text")])
def test_the_real_console_script_checks_every_example_in_one_run(name: str) -> None:
    assert run_console_script(batch_commands()[name]) == load_snapshot(BATCHES_PATH)[name]
