"""Wall time of `safety-profile diff`: two files, and `--git HEAD` over a real repository
where N profile files changed since the last commit (as a pull request or a commit would).

Run from the repository root, in the project's virtual environment:

    .venv/bin/python benchmarks/diff_speed.py                  # 1, 100 and 1,000 files
    .venv/bin/python benchmarks/diff_speed.py --counts 10 --repeat 9

Each figure is the median of --repeat whole-process runs (start-up and git included, as the
pre-commit hook and CI run it); `check` of the same number of files is shown beside it.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
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


def timed(command: list[str], cwd: Path, repeat: int) -> float:
    # `diff` exits 1 when something loosens, which random edits do: only 2 is a failure.
    return wall_time(command, repeat, cwd=cwd, ok=(0, 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1, 100, 1000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cli = str(BIN / "safety-profile")
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
