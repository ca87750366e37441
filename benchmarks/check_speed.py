"""Wall time of `safety-profile check` against `check-jsonschema` on the same files.

Run from the repository root, in the project's virtual environment:

    .venv/bin/python benchmarks/check_speed.py          # 1 valid, 1 invalid, 1,000 and 10,000
    .venv/bin/python benchmarks/check_speed.py --counts 1 --repeat 9

Each figure is the median of --repeat whole-process runs (start-up included, as pre-commit
runs it), after one untimed run of each; the two tools' runs alternate, so both see the same
load on a shared machine. Programs run as installed ones do, with their compiled bytecode
(`__pycache__`): PYTHONDONTWRITEBYTECODE is left out of their environment, or an editable
install would compile its sources again at every start, which no installed hook does. The
`invalid` row is one file with a schema error (`max_retries_per_step: 500`), which both tools
report. The floor is Python starting, importing PyYAML and composing the file with libyaml:
what no YAML checker in Python can go below. Targets from the start-up issue (13): at most
0.30x check-jsonschema's time on 1 valid file, 0.50x on 1 invalid file, 0.20x on 1,000 files
and 0.10x on 10,000.
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

TARGETS = {"1": 0.30, "1 invalid": 0.50, "1000": 0.20, "10000": 0.10}
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
    commands: list[tuple[list[str], tuple[int, ...]]], repeat: int
) -> list[float]:
    """The median wall time of each (command, exit statuses it may end with), running them in
    turn `repeat` times: on a shared machine a burst of load then falls on every command."""
    for command, ok in commands:  # untimed: bytecode written, files in the page cache
        _run_once(command, None, ok)
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(repeat):
        for (command, ok), taken in zip(commands, times, strict=True):
            taken.append(_run_once(command, None, ok))
    return [statistics.median(taken) for taken in times]


def _profile_files(folder: Path, count: int, rng: random.Random, invalid: bool) -> list[str]:
    folder.mkdir()
    files = []
    for index in range(count):
        path = folder / f"agent{index:05d}.safety_profile.yaml"
        lines = realistic_profile(rng).splitlines(keepends=True)
        if invalid:  # a schema error both tools report: above the maximum, 100
            lines = [line for line in lines if not line.startswith("max_retries_per_step:")]
            lines.append("max_retries_per_step: 500\n")
        path.write_text("".join(lines), encoding="utf-8")
        files.append(str(path))
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1, 1000, 10000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--no-invalid", action="store_true", help="leave out the one-invalid-file row"
    )
    args = parser.parse_args()
    bin_dir = Path(sys.executable).parent
    ours, theirs = str(bin_dir / "safety-profile"), str(bin_dir / "check-jsonschema")
    rng = random.Random(2026)
    cases = [(str(count), count, False) for count in args.counts]
    if not args.no_invalid:
        cases.insert(1 if 1 in args.counts else 0, ("1 invalid", 1, True))
    print(
        f"{'files':>9}  {'safety-profile':>14}  {'check-jsonschema':>16}  {'ratio':>6}  "
        f"{'floor':>7}  target"
    )
    with tempfile.TemporaryDirectory() as scratch:
        for name, count, invalid in cases:
            files = _profile_files(Path(scratch) / name.replace(" ", "-"), count, rng, invalid)
            verdict_status = (1,) if invalid else (0,)
            commands = [
                ([ours, "check", *files], verdict_status),
                ([theirs, "--schemafile", str(SCHEMA), *files], verdict_status),
            ]
            if count == 1:
                commands.append(([sys.executable, "-c", FLOOR, files[0]], (0,)))
            our_time, their_time, *floor = interleaved_wall_times(commands, args.repeat)
            ratio = our_time / their_time
            target = TARGETS.get(name)
            verdict = (
                ""
                if target is None
                else f"<= {target:.2f}  " + ("met" if ratio <= target else "MISSED")
            )
            shown_floor = f"{floor[0]:>6.3f}s" if floor else f"{'':>7}"
            print(
                f"{name:>9}  {our_time:>13.3f}s  {their_time:>15.3f}s  {ratio:>6.3f}  "
                f"{shown_floor}  {verdict}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
