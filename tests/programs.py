"""Run the project's installed programs (console scripts beside this Python) end to end."""

from __future__ import annotations

import os
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
