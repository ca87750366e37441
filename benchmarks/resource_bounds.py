"""Time and peak memory of `safety-profile check` on hostile inputs.

    .venv/bin/python benchmarks/resource_bounds.py

Each case runs the installed CLI in its own process; peak memory is that process's maximum
resident set size. The bounds (docs/one-file-one-meaning.md): 1 MiB per file, 64 levels of nesting,
100,000 values and 1 MiB of text after alias expansion, 40 digits in an integer; libyaml itself
stops flow nesting at 1,000.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def alias_bomb(levels: int) -> bytes:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 9)}]")
    return ("\n".join(lines) + "\n").encode()


def block_nesting(depth: int) -> bytes:
    return (
        "".join(" " * level + f"k{level}:\n" for level in range(depth)).encode()
        + b" " * depth
        + b"v\n"
    )


def text_bomb(copies_per_level: int) -> bytes:
    """A 600 KB string repeated copies_per_level**3 times through aliases (64,000 for 40)."""
    lines = ['notes: &n "' + "x" * 600_000 + '"']
    for level, alias in enumerate(["n", "a", "b"]):
        lines.append(f"l{level}: &{'abc'[level]} [{', '.join([f'*{alias}'] * copies_per_level)}]")
    return ("\n".join(lines) + "\n").encode()


CASES = {
    "small valid profile (baseline)": b"require_sandbox: true\nmax_retries_per_step: 3\n",
    "alias bomb, 9^9 values": alias_bomb(9),
    "alias bomb, 9^12 values": alias_bomb(12),
    "10,000-deep flow nesting": b"allowed_skill_categories: " + b"[" * 10_000 + b"]" * 10_000,
    "1,000-deep block nesting": block_nesting(1_000),
    "90,000 categories (within the bounds)": b"allowed_skill_categories:\n"
    + b"  - code\n" * 90_000,
    "110,000 categories (too many values)": b"allowed_skill_categories: ["
    + b"a," * 110_000
    + b"]\n",
    "2 MiB file (over the limit)": b"# " + b"x" * (2 * 1024 * 1024) + b"\n",
    "600 KB text x 64,000 through aliases": text_bomb(40),
    "4,000-digit integer": b"max_retries_per_step: 0x" + b"f" * 4000 + b"\n",
}


def measure(path: Path) -> tuple[int, float, float, str]:
    start = time.perf_counter()
    process = subprocess.Popen(
        [str(BIN / "safety-profile"), "check", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    output = process.stdout.read() if process.stdout else b""
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    first = output.decode(errors="replace").splitlines()[0]
    message = first.split(": error: ", 1)[-1]
    return process.returncode, elapsed, usage.ru_maxrss / 1024, message


def main() -> int:
    print(f"{'input':<36} {'bytes':>9} {'exit':>4} {'wall':>8} {'peak RSS':>9}  first message")
    with tempfile.TemporaryDirectory() as scratch:
        for name, data in CASES.items():
            path = Path(scratch) / "case.safety_profile.yaml"
            path.write_bytes(data)
            code, elapsed, peak_mib, message = measure(path)
            print(
                f"{name:<36} {len(data):>9} {code:>4} {elapsed * 1000:>6.0f}ms "
                f"{peak_mib:>6.1f}MiB  {message[:70]}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
