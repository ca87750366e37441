"""What an editor must show for a file: `safety-profile check --format json`, run as a real
process, turned into the fields of a diagnostic in a position encoding.

Shared by the pytest-lsp tests and the headless Neovim test; the conversion is written here
independently of the server's, so the two can disagree."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from conftest import EXAMPLES, REPO_ROOT, console_script, relative

from cleveragents.safety_toolkit.core.kinds import KINDS

CLI = console_script("safety-profile")
EXAMPLE_FILES = sorted(EXAMPLES.rglob("*.yaml"))


class Shown(NamedTuple):
    """One diagnostic as a user sees it: 0-based line and column (in the encoding's units)."""

    line: int
    column: int
    message: str
    code: str
    severity: str  # "error", "warning" or "hint" (a Severity's word)


def kind_of(example: Path) -> str:
    """The kind the hooks check a file as, by its repository path (a file named like a safety
    profile under actions/ is a profile: the action hook excludes it)."""
    [kind] = [name for name, kind in KINDS.items() if kind.matches(relative(example))]
    return kind


def editor_text(data: bytes) -> str:
    """The text an editor shows for a file's bytes (Neovim's order: BOM, UTF-8, Latin-1)."""
    for codec in ("utf-8-sig", "utf-16"):
        try:
            if codec == "utf-8-sig" or data.startswith((b"\xff\xfe", b"\xfe\xff")):
                return data.decode(codec)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def units(text: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def check_json(files: Sequence[Path], kind: str) -> list[dict[str, object]]:
    result = subprocess.run(
        [CLI, "check", "--format", "json", "--kind", kind, "--", *map(relative, files)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    problems: list[dict[str, object]] = json.loads(result.stdout)
    return problems


def expected_diagnostics(files: Sequence[Path], encoding: str) -> dict[Path, list[Shown]]:
    """For each file, what `check --format json` says, as diagnostics in `encoding`."""
    expected: dict[Path, list[Shown]] = {path: [] for path in files}
    for kind in ("profile", "action"):
        of_kind = [path for path in files if kind_of(path) == kind]
        if not of_kind:
            continue
        for problem in check_json(of_kind, kind):
            path = REPO_ROOT / str(problem["file"])
            line = int(problem["line"] or 1) - 1  # type: ignore[call-overload]
            column = 0
            if problem["column"]:
                lines = re.split(r"\r\n|\r|\n", editor_text(path.read_bytes()))
                before = lines[line][: int(problem["column"]) - 1]  # type: ignore[call-overload]
                column = units(before, encoding)
            shown = Shown(
                line,
                column,
                str(problem["message"]),
                str(problem["rule"]),
                str(problem["severity"]),
            )
            expected[path].append(shown)
    return expected
