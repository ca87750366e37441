"""The CLI prints, byte for byte, what it printed when the snapshots were captured
(tests/capture_cli_snapshots.py says how): for every example file, profiles and actions,
valid and invalid, `check` in every format as either kind, `show` and `resolve`; and `check`
of every example in one run. SARIF logs are compared whole, their list of every rule included
(kept once in cli_snapshots/sarif_rules.json: see `capture_cli_snapshots.stored`).

Each file's commands run in this process through `main` (the console script's entry point),
so the whole set stays quick; the one-run checks of every example are real subprocesses."""

from __future__ import annotations

import pytest
from capture_cli_snapshots import (
    BATCHES_PATH,
    SNAPSHOTS,
    batch_commands,
    commands_for_one_file,
    every_example_file,
    load_snapshot,
    run_cli,
    snapshot_path,
)
from conftest import REPO_ROOT

from cleveragents.safety_toolkit.cli import main

EXAMPLE_FILES = every_example_file()


@pytest.mark.parametrize("file", EXAMPLE_FILES)
def test_every_command_on_an_example_prints_its_snapshot(
    file: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO_ROOT)
    expected = load_snapshot(snapshot_path(file))
    commands = commands_for_one_file(file)
    assert sorted(expected) == sorted(commands)
    for name, arguments in commands.items():
        status = main(arguments)
        captured = capsys.readouterr()
        outcome = {"exit": status, "stdout": captured.out, "stderr": captured.err}
        assert outcome == expected[name], f"safety-profile {' '.join(arguments)}"


@pytest.mark.parametrize("name", sorted(batch_commands()))
def test_every_example_checked_in_one_run_prints_its_snapshot(name: str) -> None:
    expected = load_snapshot(BATCHES_PATH)[name]
    assert run_cli(batch_commands()[name]) == expected


def test_every_example_has_a_snapshot_and_no_snapshot_is_orphaned() -> None:
    kept = set((SNAPSHOTS / "examples").rglob("*.json"))
    assert kept == {snapshot_path(file) for file in EXAMPLE_FILES}
    assert set(load_snapshot(BATCHES_PATH)) == set(batch_commands())
