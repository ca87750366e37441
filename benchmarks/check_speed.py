"""Wall time of `safety-profile check` against `check-jsonschema` 0.39 on the same files.

Run from the repository root, in the project's virtual environment:

    .venv/bin/python benchmarks/check_speed.py                 # the rows below, 7 runs each
    .venv/bin/python benchmarks/check_speed.py --repeat 15 --rows "1 valid" "1 invalid"

Each figure is the median of --repeat whole-process runs (start-up included, as pre-commit
runs it), after one untimed run of each; the tools' runs alternate, so both see the same load
on a shared machine, and the load average is printed before and after. Programs run as
installed ones do, with their compiled bytecode (`__pycache__`): PYTHONDONTWRITEBYTECODE is left
out of their environment, or an editable install would compile its sources again at every
start, which no installed hook does. An invalid file has a schema error both tools report
(`max_retries_per_step: 500`). The floor is Python starting, importing PyYAML and composing the
file with libyaml: what no YAML checker in Python can go below.

The rows and goals are issue 29's (every error without pydantic): at most 0.20x
check-jsonschema's time on 1 valid profile, 0.25x on 1 invalid profile and 0.18x on 1,000 files
of which 10 % are invalid; `10000` (all valid, issue 13's 0.10x) is there to ask for.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple


class Row(NamedTuple):
    name: str
    files: int
    invalid: int
    goal: float


ROWS = {
    row.name: row
    for row in (
        Row("1 valid", 1, 0, 0.20),
        Row("1 invalid", 1, 1, 0.25),
        Row("1000, 10 % invalid", 1000, 100, 0.18),
        Row("10000", 10000, 0, 0.10),
    )
}
DEFAULT_ROWS = ["1 valid", "1 invalid", "1000, 10 % invalid"]
SCHEMA = Path(__file__).resolve().parent.parent / "schema" / "safety_profile.schema.json"
CATEGORIES = ["code", "test", "deploy", "research", "docs", "review", "ops", "data"]
# Installed programs start from compiled bytecode; let the editable install's be written too.
ENVIRONMENT = {
    name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"
}
FLOOR = "import sys, yaml; yaml.compose(open(sys.argv[1], 'rb').read(), Loader=yaml.CSafeLoader)"


def realistic_profile(rng: random.Random) -> str:
    """A profile like people write: a comment, some fields set, some left to defaults."""
    per_plan = round(rng.uniform(1, 100), 2)
    fields = {
        "require_sandbox": rng.choice(["true", "false"]),
        "require_checkpoints": rng.choice(["true", "false"]),
        "require_human_approval": rng.choice(["true", "false"]),
        "allow_unsafe_tools": "false",
        "max_cost_per_plan": str(per_plan),
        "max_retries_per_step": str(rng.randint(0, 10)),
        "max_total_cost": str(round(per_plan * rng.uniform(1, 10), 2)),
    }
    chosen = rng.sample(sorted(fields), k=rng.randint(3, len(fields)))
    lines = ["# Safety profile for one of our agents", *(f"{k}: {fields[k]}" for k in chosen)]
    lines.append("allowed_skill_categories:")
    lines += [f"  - {c}" for c in rng.sample(CATEGORIES, k=rng.randint(1, 4))]
    return "\n".join(lines) + "\n"


def _run_once(command: list[str], cwd: Path | None, ok: tuple[int, ...]) -> float:
    """One run's wall time; an exit status not in `ok` stops the benchmark."""
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=ENVIRONMENT, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if result.returncode not in ok:
        sys.exit(f"{command[0]} failed:\n{result.stdout.decode()}{result.stderr.decode()}")
    return elapsed


def wall_time(
    command: list[str], repeat: int, cwd: Path | None = None, ok: tuple[int, ...] = (0,)
) -> float:
    """Median wall time of `repeat` runs; an exit status not in `ok` stops the benchmark."""
    return statistics.median(_run_once(command, cwd, ok) for _ in range(repeat))


def interleaved_wall_times(
    commands: list[tuple[list[str], tuple[int, ...]]], repeat: int, cwd: Path | None = None
) -> list[float]:
    """The median wall time of each (command, exit statuses it may end with), running them in
    turn `repeat` times (in `cwd`): on a shared machine a burst of load then falls on every
    command."""
    for command, ok in commands:  # untimed: bytecode written, files in the page cache
        _run_once(command, cwd, ok)
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(repeat):
        for (command, ok), taken in zip(commands, times, strict=True):
            taken.append(_run_once(command, cwd, ok))
    return [statistics.median(taken) for taken in times]


def _profile_files(folder: Path, count: int, invalid: int, rng: random.Random) -> list[str]:
    """`count` realistic profiles, `invalid` of them (spread evenly) with a schema error."""
    folder.mkdir()
    every = count // invalid if invalid else 0
    files = []
    for index in range(count):
        path = folder / f"agent{index:05d}.safety_profile.yaml"
        lines = realistic_profile(rng).splitlines(keepends=True)
        if every and index % every == 0:  # a schema error both tools report: above 100
            lines = [line for line in lines if not line.startswith("max_retries_per_step:")]
            lines.append("max_retries_per_step: 500\n")
        path.write_text("".join(lines), encoding="utf-8")
        files.append(str(path))
    return files


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", nargs="+", choices=list(ROWS), default=DEFAULT_ROWS)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    bin_dir = Path(sys.executable).parent
    ours, theirs = str(bin_dir / "safety-profile"), str(bin_dir / "check-jsonschema")
    version = subprocess.run([theirs, "--version"], capture_output=True, text=True, check=True)
    rng = random.Random(2026)
    print(f"{version.stdout.strip()}; median of {args.repeat} interleaved runs; {_load()}")
    print(
        f"{'row':>18}  {'safety-profile':>14}  {'check-jsonschema':>16}  {'ratio':>6}  "
        f"{'floor':>7}  goal"
    )
    with tempfile.TemporaryDirectory() as scratch:
        for name in args.rows:
            row = ROWS[name]
            folder = Path(scratch) / f"row{args.rows.index(name)}"
            files = _profile_files(folder, row.files, row.invalid, rng)
            verdict_status = (1,) if row.invalid else (0,)
            commands = [
                ([ours, "check", *files], verdict_status),
                ([theirs, "--schemafile", str(SCHEMA), *files], verdict_status),
            ]
            if row.files == 1:
                commands.append(([sys.executable, "-c", FLOOR, files[0]], (0,)))
            our_time, their_time, *floor = interleaved_wall_times(commands, args.repeat)
            ratio = our_time / their_time
            verdict = "met" if ratio <= row.goal else "MISSED"
            shown_floor = f"{floor[0]:>6.3f}s" if floor else f"{'':>7}"
            print(
                f"{name:>18}  {our_time:>13.3f}s  {their_time:>15.3f}s  {ratio:>6.3f}  "
                f"{shown_floor}  <= {row.goal:.2f}  {verdict}"
            )
    print(_load())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
