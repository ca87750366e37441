"""A test whose tool is missing (the PostgreSQL server, Node.js) is skipped on a developer's
machine and fails under CI=true, where everything must run: the shared `missing_tool`, run in a
real pytest process each way."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT

TEST_NEEDING_A_TOOL = """\
from conftest import missing_tool


def test_needs_a_server():
    missing_tool("PostgreSQL's initdb is not installed")
"""


@pytest.mark.parametrize(
    ("ci", "status", "outcome"), [("true", 1, "1 failed"), ("", 0, "1 skipped")]
)
def test_missing_tool_skips_locally_and_fails_under_ci(
    tmp_path: Path, ci: str, status: int, outcome: str
) -> None:
    (tmp_path / "test_tool.py").write_text(TEST_NEEDING_A_TOOL, encoding="utf-8")
    environment = {**os.environ, "CI": ci, "PYTHONPATH": str(REPO_ROOT / "tests")}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", str(tmp_path)],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == status, result.stdout
    assert outcome in result.stdout
    if ci:
        assert "under CI=true this test must run, not skip" in result.stdout
