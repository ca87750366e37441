"""Run the project's installed programs (console scripts beside this Python) end to end."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from conftest import REPO_ROOT

BIN = Path(sys.executable).parent


def run_program(
    program: str,
    *args: str,
    cwd: Path = REPO_ROOT,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`program args...` from the virtual environment's bin folder; never raises on exit codes.
    `env` entries are added to (and override) the current environment."""
    return subprocess.run(
        [str(BIN / program), *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
    )


def run_on_a_terminal(
    program: str, *args: str, cwd: Path = REPO_ROOT, env: Mapping[str, str] | None = None
) -> bytes:
    """What `program args...` writes to a real terminal (a pty: stdout and stderr, `isatty()`
    true, TERM=xterm, NO_COLOR unset unless `env` sets it), as raw bytes."""
    leader, follower = pty.openpty()
    environment = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    environment.update(TERM="xterm", **(env or {}))
    with subprocess.Popen(
        [str(BIN / program), *args], cwd=cwd, stdout=follower, stderr=follower, env=environment
    ) as process:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the program closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait()
    os.close(leader)
    return b"".join(chunks)
