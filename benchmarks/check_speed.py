"""Wall time of `safety-profile check` against `check-jsonschema` on the same files.

Run from the repository root, in the project's virtual environment:

    .venv/bin/python benchmarks/check_speed.py                 # 1, 1,000 and 10,000 files
    .venv/bin/python benchmarks/check_speed.py --counts 1 --repeat 9

Each figure is the median of --repeat whole-process runs (start-up included, as pre-commit
runs it). Targets from the CLI issue: at most 0.5x check-jsonschema's time on 1 file, 0.25x on
1,000 and 0.2x on 10,000.
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

TARGETS = {1: 0.5, 1000: 0.25, 10000: 0.2}
SCHEMA = Path(__file__).resolve().parent.parent / "schema" / "safety_profile.schema.json"
CATEGORIES = ["code", "test", "deploy", "research", "docs", "review", "ops", "data"]


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


def wall_time(
    command: list[str], repeat: int, cwd: Path | None = None, ok: tuple[int, ...] = (0,)
) -> float:
    """Median wall time of `repeat` runs; an exit status not in `ok` stops the benchmark."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = subprocess.run(command, cwd=cwd, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        if result.returncode not in ok:
            sys.exit(f"{command[0]} failed:\n{result.stdout.decode()}{result.stderr.decode()}")
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1, 1000, 10000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    bin_dir = Path(sys.executable).parent
    ours, theirs = str(bin_dir / "safety-profile"), str(bin_dir / "check-jsonschema")
    rng = random.Random(2026)
    print(f"{'files':>6}  {'safety-profile':>14}  {'check-jsonschema':>16}  {'ratio':>6}  target")
    with tempfile.TemporaryDirectory() as scratch:
        for count in args.counts:
            folder = Path(scratch) / str(count)
            folder.mkdir()
            files = []
            for index in range(count):
                path = folder / f"agent{index:05d}.safety_profile.yaml"
                path.write_text(realistic_profile(rng), encoding="utf-8")
                files.append(str(path))
            our_time = wall_time([ours, "check", *files], args.repeat)
            their_time = wall_time([theirs, "--schemafile", str(SCHEMA), *files], args.repeat)
            ratio = our_time / their_time
            target = TARGETS.get(count)
            verdict = (
                "" if target is None else f"<= {target}  {'met' if ratio <= target else 'MISSED'}"
            )
            print(f"{count:>6}  {our_time:>13.3f}s  {their_time:>15.3f}s  {ratio:>6.3f}  {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
