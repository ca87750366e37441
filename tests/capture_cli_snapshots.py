"""What the real `safety-profile` CLI prints for every example file, kept as snapshots.

Capture them again (only when an output change is intended; review the diff):

    .venv/bin/python tests/capture_cli_snapshots.py

It runs the installed console script in subprocesses from the repository root, as a user
would: for each file under examples/ (profiles and actions, valid and invalid), `check` in
every format as either kind, `show` as either kind and `resolve` with the file as the project
and as the action layer, in both of its formats; and `check` of all of them in one run.
tests/test_cli_snapshots.py asserts the CLI still prints exactly these bytes (stdout and
stderr) and exits with the same status.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = REPO_ROOT / "tests" / "cli_snapshots"
EXAMPLE_FOLDERS = ("valid", "invalid", "actions/valid", "actions/invalid")
KINDS = ("profile", "action")
CHECK_FORMATS = ("text", "json", "github", "sarif")
RESOLVE_FORMATS = ("text", "json")
BATCH_FORMATS = ("text", "json")
# Output does not depend on the terminal's encoding: the same text on every machine.
ENVIRONMENT = {**os.environ, "PYTHONIOENCODING": "utf-8"}

Outcome = dict[str, Any]  # {"exit": int, "stdout": str, "stderr": str}


def example_files(folder: str) -> list[str]:
    """The YAML files of one example folder, as paths from the repository root."""
    found = sorted((REPO_ROOT / "examples" / folder).glob("*.yaml"))
    return [path.relative_to(REPO_ROOT).as_posix() for path in found]


def every_example_file() -> list[str]:
    return [file for folder in EXAMPLE_FOLDERS for file in example_files(folder)]


def commands_for_one_file(file: str) -> dict[str, list[str]]:
    """The commands run on one example file, by a name that says what each does."""
    commands = {}
    for kind in KINDS:
        for output_format in CHECK_FORMATS:
            commands[f"check --kind {kind} --format {output_format}"] = [
                "check",
                "--kind",
                kind,
                "--format",
                output_format,
                file,
            ]
        commands[f"show --kind {kind}"] = ["show", "--kind", kind, file]
    for layer in ("project", "action"):
        for output_format in RESOLVE_FORMATS:
            commands[f"resolve --{layer} --format {output_format}"] = [
                "resolve",
                f"--{layer}",
                file,
                "--format",
                output_format,
            ]
    return commands


def batch_commands() -> dict[str, list[str]]:
    """`check` of every example file in one process, as either kind: files the check accepts
    and files it reports in one report (the order of files and problems, hints last, the
    closing count). Each format's reporter is a function of the problems alone, and each
    file's snapshot holds every format, so text and JSON are enough here."""
    files = every_example_file()
    commands = {}
    for kind in KINDS:
        for output_format in BATCH_FORMATS:
            arguments = ["check", "--kind", kind, "--format", output_format, *files]
            commands[f"every example --kind {kind} --format {output_format}"] = arguments
    return commands


def snapshot_path(file: str) -> Path:
    """`examples/invalid/x.yaml` -> `tests/cli_snapshots/examples/invalid/x.yaml.json`."""
    return SNAPSHOTS / f"{file}.json"


BATCHES_PATH = SNAPSHOTS / "batches.json"


def run_cli(arguments: list[str]) -> Outcome:
    """The installed `safety-profile` run as a user runs it, from the repository root."""
    program = Path(sys.executable).with_name("safety-profile")
    result = subprocess.run(
        [str(program), *arguments],
        cwd=REPO_ROOT,
        env=ENVIRONMENT,
        capture_output=True,
        check=False,
    )
    return {
        "exit": result.returncode,
        "stdout": result.stdout.decode("utf-8"),
        "stderr": result.stderr.decode("utf-8"),
    }


def comparable(name: str, outcome: Outcome) -> Outcome:
    """The outcome as snapshots compare it: a SARIF log without its driver's rules and each
    result's index into them. The driver lists every rule of the catalogue, whatever the
    results (tests/test_sarif.py checks that list against the catalogue), so a new rule would
    otherwise change every SARIF snapshot; everything else is compared byte for byte."""
    if not name.endswith("--format sarif") or not outcome["stdout"]:
        return outcome
    log = json.loads(outcome["stdout"])
    for run in log["runs"]:
        run["tool"]["driver"].pop("rules", None)
        for result in run["results"]:
            result.pop("ruleIndex", None)
    stdout = json.dumps(log, indent=2) + "\n"
    assert json.loads(stdout) == log
    return {**outcome, "stdout": stdout}


def load_snapshot(path: Path) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = json.loads(path.read_text(encoding="utf-8"))
    return outcomes


def _run_all(commands: dict[str, list[str]], pool: ThreadPoolExecutor) -> dict[str, Outcome]:
    names = list(commands)
    return dict(zip(names, pool.map(run_cli, (commands[name] for name in names)), strict=True))


def _write(path: Path, outcomes: dict[str, Outcome]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(outcomes, indent=1) + "\n", encoding="utf-8")


def _captured() -> Iterator[tuple[Path, dict[str, Outcome]]]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        for file in every_example_file():
            yield snapshot_path(file), _run_all(commands_for_one_file(file), pool)
        yield BATCHES_PATH, _run_all(batch_commands(), pool)


def main() -> int:
    written = set()
    for path, outcomes in _captured():
        _write(path, outcomes)
        written.add(path)
    stale = set(SNAPSHOTS.rglob("*.json")) - written
    for path in stale:  # an example that no longer exists
        path.unlink()
    print(f"wrote {len(written)} snapshot files under {SNAPSHOTS.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
