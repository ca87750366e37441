"""What the real `safety-profile` CLI prints for every example file, kept as snapshots.

Capture them again (only when an output change is intended; review the diff):

    .venv/bin/python tests/capture_cli_snapshots.py

It runs the installed console script in subprocesses from the repository root, as a user
would: for each file under examples/ (profiles and actions, valid and invalid), `check` in
every format as either kind, `show` as either kind and `resolve` with the file as the project
and as the action layer, in both of its formats; and `check` of all of them in one run.
tests/test_cli_snapshots.py asserts the CLI still prints exactly these bytes (stdout and
stderr) and exits with the same status. SARIF logs included: the driver's list of every rule,
the same in each, is kept once in cli_snapshots/sarif_rules.json (see `stored`).
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


# Every SARIF log lists every rule of the catalogue in its driver: the same text, tens of KB,
# in every `--format sarif` outcome. It is kept once, byte for byte as the CLI prints it, in
# SARIF_RULES_PATH; each snapshot holds the rest of the log with RULES_STORED in its place.
# `load_snapshot` puts the list back, so every SARIF log is still compared whole.
SARIF_RULES_PATH = SNAPSHOTS / "sarif_rules.json"
RULES_PRINTED = '"rules": '
RULES_STORED = f'{RULES_PRINTED}"<the text of tests/cli_snapshots/sarif_rules.json>"'


def sarif_rules_text(stdout: str) -> str | None:
    """The driver's rule list of a one-run SARIF log, exactly as printed; None for output that
    is not such a log."""
    try:
        log = json.loads(stdout)
        start = stdout.index(RULES_PRINTED) + len(RULES_PRINTED)
        rules, end = json.JSONDecoder().raw_decode(stdout, start)
    except ValueError:
        return None
    if len(log.get("runs", [])) != 1 or rules != log["runs"][0]["tool"]["driver"].get("rules"):
        return None
    text: str = stdout[start:end]
    return text


def stored(outcome: Outcome, rules_text: str) -> Outcome:
    """The outcome as its snapshot keeps it: a SARIF log's rule list, when it is `rules_text`,
    replaced by RULES_STORED (and checked to come back byte for byte)."""
    if sarif_rules_text(outcome["stdout"]) != rules_text:
        return outcome
    stdout = outcome["stdout"].replace(RULES_PRINTED + rules_text, RULES_STORED, 1)
    kept = {**outcome, "stdout": stdout}
    assert restored(kept, rules_text) == outcome
    return kept


def restored(outcome: Outcome, rules_text: str) -> Outcome:
    """The outcome the CLI printed, from its snapshot: the inverse of `stored`."""
    if outcome["stdout"].count(RULES_STORED) != 1:
        return outcome
    return {
        **outcome,
        "stdout": outcome["stdout"].replace(RULES_STORED, RULES_PRINTED + rules_text),
    }


def load_snapshot(path: Path) -> dict[str, Outcome]:
    """A snapshot file's outcomes, each as the CLI printed it."""
    rules_text = SARIF_RULES_PATH.read_text(encoding="utf-8").removesuffix("\n")
    outcomes: dict[str, Outcome] = json.loads(path.read_text(encoding="utf-8"))
    return {name: restored(outcome, rules_text) for name, outcome in outcomes.items()}


def _run_all(commands: dict[str, list[str]], pool: ThreadPoolExecutor) -> dict[str, Outcome]:
    names = list(commands)
    return dict(zip(names, pool.map(run_cli, (commands[name] for name in names)), strict=True))


def _write(path: Path, outcomes: dict[str, Outcome], rules_text: str) -> None:
    kept = {name: stored(outcome, rules_text) for name, outcome in outcomes.items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")


def _captured() -> Iterator[tuple[Path, dict[str, Outcome]]]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        for file in every_example_file():
            yield snapshot_path(file), _run_all(commands_for_one_file(file), pool)
        yield BATCHES_PATH, _run_all(batch_commands(), pool)


def main() -> int:
    first = run_cli(["check", "--format", "sarif", every_example_file()[0]])
    rules_text = sarif_rules_text(first["stdout"])
    assert rules_text is not None, first
    SARIF_RULES_PATH.write_text(rules_text + "\n", encoding="utf-8")
    written = {SARIF_RULES_PATH}
    for path, outcomes in _captured():
        _write(path, outcomes, rules_text)
        written.add(path)
    stale = set(SNAPSHOTS.rglob("*.json")) - written
    for path in stale:  # an example that no longer exists
        path.unlink()
    print(f"wrote {len(written)} snapshot files under {SNAPSHOTS.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
