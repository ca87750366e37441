"""The README's table of what each reader says about each rule, checked against the real readers.

For every row, the example file it links is given to our CLI, to the real check-jsonschema 0.39
and to the real yaml-language-server 2.0 (opened as an editor opens it, the VS Code settings
mapping it to its schema). Each cell of the table starts with the verdict: `error`, `accepts` or
`crashes`; this test fails when a reader's verdict differs from its cell.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from conftest import REPO_ROOT, SCHEMA_DIR, console_script
from language_server import Editor, editor_session
from programs import run_program
from readme import documentation_text

MARK = "<!-- readers-table -->"
VERDICTS = ("error", "accepts", "crashes")


@dataclass(frozen=True)
class Row:
    rule: str
    example: str  # relative to the repository root
    ours: str
    check_jsonschema: str
    editor: str

    @property
    def kind(self) -> str:
        return "action" if "/actions/" in self.example else "profile"


def _verdict(cell: str) -> str:
    word = cell.strip().split(" ")[0].rstrip(":,").lower()
    assert word in VERDICTS, f"a cell must start with {VERDICTS}: {cell!r}"
    return word


@cache
def readme_rows() -> tuple[Row, ...]:
    table = documentation_text().split(MARK)[1].strip().split("\n\n")[0]
    rows = []
    for line in table.splitlines()[2:]:  # after the header and its rule
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        link = re.search(r"\]\((?:https://[^)]*/blob/main/)?(examples/[^)]+)\)", cells[1])
        assert link, f"each row links its example file: {line}"
        rows.append(Row(cells[0], link.group(1), *map(_verdict, cells[2:5])))
    return tuple(rows)


def _schema(kind: str) -> Path:
    return SCHEMA_DIR / ("action.schema.json" if kind == "action" else "safety_profile.schema.json")


def _check_jsonschema(row: Row) -> str:
    """One process per file: check-jsonschema carries a %YAML directive over to later files."""
    schema = str(_schema(row.kind))
    result = subprocess.run(
        [
            console_script("check-jsonschema"),
            *("--base-uri", schema, "--schemafile", schema, row.example),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if "Traceback (most recent call last)" in result.stderr + result.stdout:
        return "crashes"
    return "accepts" if result.returncode == 0 else "error"


@cache
def check_jsonschema_verdicts() -> dict[str, str]:
    rows = readme_rows()
    with ThreadPoolExecutor(max_workers=2) as pool:
        verdicts = pool.map(_check_jsonschema, rows)
        return dict(zip((row.example for row in rows), verdicts, strict=True))


@cache
def our_verdicts() -> dict[str, str]:
    """The real CLI, once per kind, its JSON report naming the files with problems."""
    verdicts = {}
    for kind in ("profile", "action"):
        files = [row.example for row in readme_rows() if row.kind == kind]
        result = run_program("safety-profile", "check", "--kind", kind, "--format", "json", *files)
        failed = {problem["file"] for problem in json.loads(result.stdout)}
        verdicts.update({name: "error" if name in failed else "accepts" for name in files})
    return verdicts


@pytest.fixture(scope="module")
def editor() -> Iterator[Editor]:
    with editor_session() as session:
        yield session


def _editor_verdict(editor: Editor, row: Row) -> str:
    """Opened as VS Code opens the file: a name its settings map to the right schema, the text
    as read from disk (a leading BOM is not part of an editor's text)."""
    name = "actions/row{}.yaml" if row.kind == "action" else "row{}.safety_profile.yaml"
    text = (REPO_ROOT / row.example).read_bytes().decode("utf-8-sig")
    diagnostics = editor.client.diagnostics(editor.open(text, name))
    return "error" if any(item.get("severity") == 1 for item in diagnostics) else "accepts"


def test_the_table_covers_every_rule_once_with_a_real_example() -> None:
    rows = readme_rows()
    assert len(rows) >= 40
    assert len({row.rule for row in rows}) == len(rows)
    for row in rows:
        assert (REPO_ROOT / row.example).is_file(), row.example


def test_our_hook_refuses_every_example_in_the_table() -> None:
    assert {row.example: row.ours for row in readme_rows()} == our_verdicts()
    assert set(our_verdicts().values()) == {"error"}


def test_check_jsonschema_says_what_the_table_says() -> None:
    expected = {row.example: row.check_jsonschema for row in readme_rows()}
    assert check_jsonschema_verdicts() == expected


def test_the_editor_says_what_the_table_says(editor: Editor) -> None:
    found = {row.example: _editor_verdict(editor, row) for row in readme_rows()}
    assert found == {row.example: row.editor for row in readme_rows()}
