"""Issue 29's table in one run: each row as the issue states it, against its goal.

Run from the repository root, in the project's virtual environment (with the lsp extra):

    .venv/bin/python benchmarks/issue29.py
    .venv/bin/python benchmarks/issue29.py --repeat 15 --opens 15

Rows: `check` of 1 valid profile, 1 invalid profile and 1,000 files of which 10 % are invalid,
each as a ratio of check-jsonschema 0.39's wall time on the same files (`check_speed`, whose
rows these are); `diff --git HEAD` with 1 changed profile as a ratio of our own `check` of that
file; the language server's first `didOpen` → `publishDiagnostics` after start (a valid and an
invalid profile, in a repository and in none), in milliseconds. Whole-process runs alternate
between the commands compared (so a burst of load on a shared machine falls on each), after one
untimed run of each; each figure is a median. The load average is printed before and after: on
a busy machine the ratios are what to read, not the times.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from check_speed import ROWS, SCHEMA, _load, _profile_files, interleaved_wall_times
from diff_speed import GIT, changed_repository
from lsp_speed import Session

BIN = Path(sys.executable).parent
OURS, THEIRS = str(BIN / "safety-profile"), str(BIN / "check-jsonschema")
DIFF_GOAL = 1.5  # `diff --git HEAD` at most 1.5x our `check` of the one changed file
LSP_GOAL_MS = 30.0
VALID = "require_sandbox: true\nmax_retries_per_step: 2\nallowed_skill_categories: [code]\n"
INVALID = "require_sandbox: maybe\nmax_retries_per_step: 500\n"


def _line(name: str, figure: str, ratio: float, goal: float) -> str:
    verdict = "met" if ratio <= goal else "MISSED"
    return f"{name:>34}  {figure:>30}  {ratio:>7.3f}  <= {goal:<5}  {verdict}"


def check_rows(scratch: Path, repeat: int, rng: random.Random) -> None:
    for name in ("1 valid", "1 invalid", "1000, 10 % invalid"):
        row = ROWS[name]
        files = _profile_files(
            scratch / f"check{row.files}-{row.invalid}", row.files, row.invalid, rng
        )
        status = (1,) if row.invalid else (0,)
        ours, theirs = interleaved_wall_times(
            [
                ([OURS, "check", *files], status),
                ([THEIRS, "--schemafile", str(SCHEMA), *files], status),
            ],
            repeat,
        )
        figure = f"{ours * 1000:.0f} ms vs {theirs * 1000:.0f} ms"
        print(_line(f"check, {name}", figure, ours / theirs, row.goal))


def diff_row(scratch: Path, repeat: int, rng: random.Random) -> None:
    repository = scratch / "repository"
    repository.mkdir()
    [changed] = changed_repository(repository, 1, rng)
    # diff's exit status is 1 when the change loosens; check's is 0 for a valid file.
    commands = [([OURS, "diff", "--git", "HEAD"], (0, 1)), ([OURS, "check", changed], (0,))]
    diff_time, check_time = interleaved_wall_times(commands, repeat, repository)
    figure = f"{diff_time * 1000:.0f} ms vs {check_time * 1000:.0f} ms"
    print(_line("diff --git HEAD, 1 changed (x check)", figure, diff_time / check_time, DIFF_GOAL))


def _first_open_ms(folder: Path, text: str) -> float:
    """A fresh server: milliseconds from the first `didOpen` to its diagnostics."""
    path = folder / "agent.safety_profile.yaml"
    path.write_text(text, encoding="utf-8")
    session = Session(folder)
    try:
        start = time.perf_counter()
        session.open(path.as_uri(), text)
        return (time.perf_counter() - start) * 1000
    finally:
        session.close()


def lsp_rows(scratch: Path, opens: int) -> None:
    plain = scratch / "plain"
    plain.mkdir()
    repository = scratch / "lsp-repository"
    repository.mkdir()
    subprocess.run([*GIT, "init", "-q"], cwd=repository, check=True)
    (repository / "agent.safety_profile.yaml").write_text(VALID, encoding="utf-8")
    subprocess.run([*GIT, "add", "-A"], cwd=repository, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "profile"], cwd=repository, check=True)
    cases = [
        (f"lsp open, {which}, {where}", folder, text)
        for where, folder in (("no repository", plain), ("in a repository", repository))
        for which, text in (("valid", VALID), ("invalid", INVALID))
    ]
    for _, folder, text in cases:  # untimed: bytecode written, files in the page cache
        _first_open_ms(folder, text)
    taken: list[list[float]] = [[] for _ in cases]
    for _ in range(opens):
        for (_, folder, text), times in zip(cases, taken, strict=True):
            times.append(_first_open_ms(folder, text))
    for (name, _, _), times in zip(cases, taken, strict=True):
        median = statistics.median(times)
        print(
            _line(name, f"{median:.1f} ms", median / LSP_GOAL_MS, 1.0) + f" ({LSP_GOAL_MS:.0f} ms)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--opens", type=int, default=9)
    args = parser.parse_args()
    version = subprocess.run([THEIRS, "--version"], capture_output=True, text=True, check=True)
    print(f"{version.stdout.strip()}; medians of {args.repeat} interleaved runs; {_load()}")
    print(f"{'row':>34}  {'ours vs theirs (or ms)':>30}  {'ratio':>7}  goal")
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as scratch:
        check_rows(Path(scratch), args.repeat, rng)
        diff_row(Path(scratch), args.repeat, rng)
        lsp_rows(Path(scratch), args.opens)
    print(_load())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
