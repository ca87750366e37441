"""The test suite's cost: wall time and CPU seconds of a pytest run, whole or per test file.

Run from the repository root, in the project's virtual environment:

    .venv/bin/python benchmarks/suite_cpu.py                      # the suite, as the README runs it
    .venv/bin/python benchmarks/suite_cpu.py tests/formats/test_sarif.py  # files: one pytest run
    .venv/bin/python benchmarks/suite_cpu.py --per-file           # one `-n 0` run per file, ranked
    .venv/bin/python benchmarks/suite_cpu.py --per-file tests/cli/test_cli.py tests/lsp/*.py
    .venv/bin/python benchmarks/suite_cpu.py -- -n 3              # pytest options after `--`

CPU seconds are the user + system time of pytest and everything it starts (language servers,
pip, pre-commit, VS Code), read with `resource.getrusage(RUSAGE_CHILDREN)` around each run. They
hardly change with the machine's load, so they compare a change's before and after on a busy
machine, where wall time does not; wall time is printed as well, with the load average, so a
figure can say how busy the machine was. CI=true is set, as in CI: a missing tool fails.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Cost:
    """What one pytest run took."""

    wall: float
    cpu: float
    exit_code: int


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_pytest(arguments: list[str]) -> Cost:
    """One `python -m pytest ARGUMENTS` run in the repository root, quiet; its cost."""
    environment = {**os.environ, "CI": "true"}
    cpu_before, wall_before = children_cpu(), time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", *arguments],
        cwd=REPO_ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )
    cost = Cost(
        time.perf_counter() - wall_before, children_cpu() - cpu_before, completed.returncode
    )
    if completed.returncode != 0:
        print(completed.stdout[-4000:], file=sys.stderr)
    return cost


def test_files() -> list[str]:
    return sorted(
        path.relative_to(REPO_ROOT).as_posix() for path in REPO_ROOT.glob("tests/*/test_*.py")
    )


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min), {os.cpu_count()} cores"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="test files (default: the whole suite)")
    parser.add_argument(
        "--per-file", action="store_true", help="one `-n 0` pytest run per file, ranked by CPU"
    )
    given = sys.argv[1:]
    split = given.index("--") if "--" in given else len(given)
    arguments, extra = parser.parse_args(given[:split]), given[split + 1 :]
    print(load(), flush=True)
    if not arguments.per_file:
        cost = run_pytest([*arguments.files, *extra])
        print(f"wall {cost.wall:7.1f} s  cpu {cost.cpu:7.1f} s  exit {cost.exit_code}")
        print(load())
        return cost.exit_code
    costs: dict[str, Cost] = {}
    for name in arguments.files or test_files():
        costs[name] = run_pytest([name, "-n", "0", *extra])
        cost = costs[name]
        print(
            f"{cost.cpu:7.1f} cpu-s {cost.wall:7.1f} wall-s  exit {cost.exit_code}  {name}",
            flush=True,
        )
    print("\nranked by CPU seconds:")
    for name, cost in sorted(costs.items(), key=lambda item: -item[1].cpu):
        print(f"{cost.cpu:7.1f} cpu-s {cost.wall:7.1f} wall-s  {name}")
    total_cpu = sum(cost.cpu for cost in costs.values())
    total_wall = sum(cost.wall for cost in costs.values())
    print(f"total {total_cpu:.1f} cpu-s, {total_wall:.1f} wall-s over {len(costs)} files")
    print(load())
    return max((cost.exit_code for cost in costs.values()), default=0)


if __name__ == "__main__":
    raise SystemExit(main())
