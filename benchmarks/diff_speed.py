"""Wall time of `safety-profile diff`: two files, and `--git HEAD` over a real repository
where N profile files changed since the last commit (as a pull request or a commit would);
with --links, a repository that also holds thousands of profiles that are links.

Run from the repository root, in the project's virtual environment:

    .venv/bin/python benchmarks/diff_speed.py                  # 1, 100 and 1,000 files
    .venv/bin/python benchmarks/diff_speed.py --counts 10 --repeat 9
    .venv/bin/python benchmarks/diff_speed.py --links 10000 --counts 1000   # time, peak memory

Each figure is the median of --repeat whole-process runs (start-up and git included, as the
pre-commit hook and CI run it); `check` of the same number of files is shown beside it. With
--links, each run's peak memory is the largest resident set of the command's process (its
git processes included, as the kernel counts a process's waited-for children), and --cli
names another `safety-profile` to compare with (another checkout's, before a change).
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

from check_speed import realistic_profile, wall_time

BIN = Path(sys.executable).parent
GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]


def changed_repository(folder: Path, count: int, rng: random.Random) -> list[str]:
    """`count` profiles committed, then each rewritten (a realistic edit of every field)."""
    names = [f"profiles/team{index:05}.safety_profile.yaml" for index in range(count)]
    (folder / "profiles").mkdir()
    for name in names:
        (folder / name).write_text(realistic_profile(rng), encoding="utf-8")
    subprocess.run([*GIT, "init", "-q"], cwd=folder, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=folder, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "profiles"], cwd=folder, check=True)
    for name in names:
        (folder / name).write_text(realistic_profile(rng), encoding="utf-8")
    return names


def linked_repository(folder: Path, links: int, count: int, rng: random.Random) -> None:
    """`count` profiles as in `changed_repository`, and `links` more that are links to 1,000
    files under data/ (ten links to each), committed and left unchanged."""
    changed_repository(folder, count, rng)
    (folder / "data").mkdir()
    (folder / "links").mkdir()
    targets = min(links, 1000)
    for index in range(targets):
        (folder / "data" / f"t{index:05}.yaml").write_text(realistic_profile(rng), "utf-8")
    for index in range(links):
        os.symlink(
            f"../data/t{index % targets:05}.yaml",
            folder / "links" / f"l{index:05}.safety_profile.yaml",
        )
    # Commit the links and their targets only: the profiles stay changed in the working tree.
    subprocess.run([*GIT, "add", "data", "links"], cwd=folder, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "links"], cwd=folder, check=True)


def time_and_peak(command: list[str], cwd: Path) -> tuple[float, float]:
    """One run's wall time (s) and peak resident memory (MiB); `diff` may exit 0 or 1."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"{command} exited {process.returncode}")
    return elapsed, usage.ru_maxrss / 1024


def links_benchmark(cli: str, links: int, counts: list[int], repeat: int) -> None:
    rng = random.Random(12)
    print("| file links | changed profiles | diff --git HEAD (median) | peak memory (max) |")
    print("|------------|------------------|--------------------------|-------------------|")
    for count in counts:
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            linked_repository(folder, links, count, rng)
            runs = [time_and_peak([cli, "diff", "--git", "HEAD"], folder) for _ in range(repeat)]
            wall = statistics.median(run[0] for run in runs)
            peak = max(run[1] for run in runs)
            print(f"| {links:,} | {count:,} | {wall:.2f} s | {peak:.0f} MiB |")


def timed(command: list[str], cwd: Path, repeat: int) -> float:
    # `diff` exits 1 when something loosens, which random edits do: only 2 is a failure.
    return wall_time(command, repeat, cwd=cwd, ok=(0, 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1, 100, 1000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--links", type=int, help="file links in the repository as well")
    parser.add_argument("--cli", default=str(BIN / "safety-profile"), help="the command to time")
    args = parser.parse_args()
    cli = args.cli
    if args.links:
        links_benchmark(cli, args.links, args.counts, args.repeat)
        return 0
    rng = random.Random(12)
    print("| changed files | diff --git HEAD | check (same files) |")
    print("|---------------|-----------------|--------------------|")
    for count in args.counts:
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            names = changed_repository(folder, count, rng)
            diff = timed([cli, "diff", "--git", "HEAD"], folder, args.repeat)
            check = timed([cli, "check", *names], folder, args.repeat)
            print(f"| {count:,} | {diff:.3f} s | {check:.3f} s |")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for name in ("old", "new"):
            (folder / f"{name}.yaml").write_text(realistic_profile(rng), encoding="utf-8")
        two = timed([cli, "diff", "old.yaml", "new.yaml"], folder, args.repeat)
        print(f"\ndiff OLD NEW (two files): {two:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
