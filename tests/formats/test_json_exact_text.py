"""JSON output keeps a key's exact text, raw control characters included (JSON escapes them),
while the text report escapes them for the terminal. The parser reads such characters as
spaces (the text step blanks them, so the rest of the file is still checked); the key the
reports name is the file's own. The real console script, on a file written byte by byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from programs import run_program

# Plain and quoted keys holding raw bytes the YAML text step refuses: C0 controls, a byte
# order mark, NEL (a line break to some readers).
FILE = b'ke\x01y: 1\n"q\x02k": 2\nb\xef\xbb\xbfom: 3\nn\xc2\x85el: 4\nrequire_sandbox: true\n'
KEYS = ["ke\x01y", "q\x02k", "b\ufeffom", "n\x85el"]
SHOWN = ["ke\\x01y", "q\\x02k", "b\\ufeffom", "n\\u0085el"]


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    path = tmp_path / "keys.safety_profile.yaml"
    path.write_bytes(FILE)
    return path


def test_json_paths_are_the_exact_keys(hostile: Path) -> None:
    result = run_program(
        "safety-profile", "check", "--format", "json", hostile.name, cwd=hostile.parent
    )
    assert result.returncode == 1
    problems = json.loads(result.stdout)
    assert [problem["path"] for problem in problems] == KEYS
    assert result.stdout.isascii()  # each such character is a \u escape in the JSON text


def test_text_lines_escape_the_keys_for_the_terminal(hostile: Path) -> None:
    result = run_program("safety-profile", "check", hostile.name, cwd=hostile.parent)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert [line.split(": ")[2] for line in lines[:-1]] == SHOWN
    assert not any(character in result.stdout for character in "\x01\x02\ufeff\x85")
