"""The `safety-profile` pre-commit hook on many files: pre-commit's parallel batches against
`require_serial: true` (one process, so one report).

Run from the repository root, in the project's virtual environment:

    .venv/bin/python benchmarks/hook_batches.py                 # 10,000 files, 5 runs each
    .venv/bin/python benchmarks/hook_batches.py --files 1000 --repeat 9

It commits a copy of this working tree as the hook repository, makes a user repository of
realistic profiles (a few of them invalid, so the hook prints its report) and times the whole
`pre-commit run safety-profile --all-files` both ways, alternating, after one warm-up run each
(which builds the hook's environment). It prints the median wall time of each and how many
summary lines (`N of M files invalid`) one run printed.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from check_speed import realistic_profile

REPO_ROOT = Path(__file__).resolve().parent.parent
PRE_COMMIT = str(Path(sys.executable).with_name("pre-commit"))
GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
SUMMARY = re.compile(r"^\d+ of \d+ files? invalid$|^ok: \d+ files? valid$", re.MULTILINE)


def committed_copy_of_this_tree(destination: Path) -> str:
    """This working tree's tracked and untracked-but-not-ignored files, committed; the commit."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for name in filter(None, listed.split("\0")):
        if (REPO_ROOT / name).is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / name, destination / name)
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "hook under test"]):
        subprocess.run([*GIT, *step], cwd=destination, check=True)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=destination, capture_output=True, text=True, check=True
    )
    return head.stdout.strip()


def user_repository(folder: Path, count: int, invalid: int) -> None:
    rng = random.Random(2026)
    profiles = folder / "profiles"
    profiles.mkdir(parents=True)
    for index in range(count):
        text = realistic_profile(rng) if index >= invalid else "max_retries_per_step: 500\n"
        (profiles / f"agent{index:05d}.safety_profile.yaml").write_text(text, encoding="utf-8")
    subprocess.run([*GIT, "init", "-q"], cwd=folder, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=folder, check=True)


def config(hook_repo: Path, rev: str, serial: bool) -> str:
    return (
        f"repos:\n  - repo: {hook_repo}\n    rev: {rev}\n    hooks:\n"
        f"      - id: safety-profile\n        require_serial: {str(serial).lower()}\n"
    )


def run_hook(folder: Path, config_file: Path, environment: dict[str, str]) -> tuple[float, str]:
    command = [PRE_COMMIT, "run", "safety-profile", "--all-files", "--verbose", "--color=never"]
    start = time.perf_counter()
    result = subprocess.run(
        [*command, "--config", str(config_file)],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env=environment,
    )
    elapsed = time.perf_counter() - start
    if result.returncode not in (0, 1) or "Traceback" in result.stdout + result.stderr:
        sys.exit(f"pre-commit failed:\n{result.stdout}{result.stderr}")
    return elapsed, result.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--invalid", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        (scratch / "hook").mkdir()
        rev = committed_copy_of_this_tree(scratch / "hook")
        user_repository(scratch / "user", args.files, args.invalid)
        environment = {**os.environ, "PRE_COMMIT_HOME": str(scratch / "home")}
        configs = {}
        for name, serial in (("parallel batches", False), ("require_serial: true", True)):
            configs[name] = scratch / f"{'serial' if serial else 'parallel'}.yaml"
            configs[name].write_text(config(scratch / "hook", rev, serial), encoding="utf-8")
        times: dict[str, list[float]] = {name: [] for name in configs}
        reports: dict[str, int] = {}
        for config_file in configs.values():  # warm-up: builds the hook's environment
            run_hook(scratch / "user", config_file, environment)
        for _ in range(args.repeat):
            for name, config_file in configs.items():
                elapsed, output = run_hook(scratch / "user", config_file, environment)
                times[name].append(elapsed)
                reports[name] = len(SUMMARY.findall(output))
    print(f"{args.files:,} files, {os.cpu_count()} cores, median of {args.repeat} runs")
    print(f"{'':26}  {'wall':>7}  reports")
    for name, measured in times.items():
        print(f"{name:26}  {statistics.median(measured):6.2f}s  {reports[name]:>7}")
    ratio = statistics.median(times["require_serial: true"]) / statistics.median(
        times["parallel batches"]
    )
    print(f"ratio serial/parallel: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
