"""The table "What each reader says" (docs/one-file-one-meaning.md), checked against the real
readers from the catalogue it is written from: each rule's `examples`.

Every example file is given to our CLI (which must report the example's rule), to the real
check-jsonschema 0.39 and to the real yaml-language-server 2.0 (opened as an editor opens it, the
VS Code settings mapping it to its schema); this test fails when a reader's verdict (`error`,
`accepts` or `crashes`) differs from the catalogue's. tests/cli/test_rules_command.py fails when the
page's table differs from the catalogue.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest
from conftest import REPO_ROOT, SCHEMA_DIR, console_script
from programs import run_program
from yaml_language_server import Editor, editor_session

from cleveragents.reading.rules import Example, Rule


class Row(NamedTuple):
    rule: Rule
    example: Example

    @property
    def kind(self) -> str:
        return "action" if "/actions/" in self.example.path else "profile"


@cache
def catalogue_rows() -> tuple[Row, ...]:
    return tuple(Row(rule, example) for rule in Rule for example in rule.doc.examples)


def _schema(kind: str) -> Path:
    return SCHEMA_DIR / ("action.schema.json" if kind == "action" else "safety_profile.schema.json")


def _check_jsonschema(kind: str, paths: tuple[str, ...]) -> dict[str, str]:
    """check-jsonschema's verdict on each file, from one process for all of `paths` (its JSON
    report names each file that fails to parse or validate). A process that crashes has no
    report: the files are checked again in two halves, down to the one file that crashes."""
    schema = str(_schema(kind))
    result = subprocess.run(
        [
            console_script("check-jsonschema"),
            *("--output-format", "json", "--base-uri", schema, "--schemafile", schema),
            *("--", *paths),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if "Traceback (most recent call last)" in result.stderr + result.stdout:
        if len(paths) == 1:
            return {paths[0]: "crashes"}
        half = len(paths) // 2
        return _check_jsonschema(kind, paths[:half]) | _check_jsonschema(kind, paths[half:])
    report = json.loads(result.stdout)
    failed = {
        problem["filename"] for problem in report.get("errors", []) + report.get("parse_errors", [])
    }
    assert failed <= set(paths), (failed, paths)
    assert (result.returncode != 0) == bool(failed), result.stdout + result.stderr
    return {path: "error" if path in failed else "accepts" for path in paths}


def _batches(rows: tuple[Row, ...]) -> list[tuple[str, tuple[str, ...]]]:
    """The files of each kind in one check-jsonschema process, except those with a directive
    line (`%YAML`, `%TAG`): check-jsonschema carries a directive over to the files after it in
    the same process, so each of those has a process of its own."""
    batches: list[tuple[str, tuple[str, ...]]] = []
    for kind in ("profile", "action"):
        shared: list[str] = []
        for row in rows:
            if row.kind != kind:
                continue
            lines = (REPO_ROOT / row.example.path).read_bytes().splitlines()
            if any(line.lstrip(b"\xef\xbb\xbf").startswith(b"%") for line in lines):
                batches.append((kind, (row.example.path,)))
            else:
                shared.append(row.example.path)
        if shared:
            batches.append((kind, tuple(shared)))
    return batches


@cache
def check_jsonschema_verdicts() -> dict[str, str]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        found = pool.map(lambda batch: _check_jsonschema(*batch), _batches(catalogue_rows()))
        return {path: verdict for verdicts in found for path, verdict in verdicts.items()}


@cache
def our_rules() -> dict[str, set[str]]:
    """The real CLI, once per kind: the rules its JSON report names for each file."""
    found: dict[str, set[str]] = {}
    for kind in ("profile", "action"):
        files = [row.example.path for row in catalogue_rows() if row.kind == kind]
        result = run_program("safety-profile", "check", "--kind", kind, "--format", "json", *files)
        found.update({name: set() for name in files})
        for problem in json.loads(result.stdout):
            found[problem["file"]].add(problem["rule"])
    return found


@pytest.fixture(scope="module")
def editor() -> Iterator[Editor]:
    with editor_session() as session:
        yield session


def _open_row(editor: Editor, row: Row) -> str:
    """Opened as VS Code opens the file: a name its settings map to the right schema, the text
    as read from disk (a leading BOM is not part of an editor's text). Its URI."""
    name = "actions/row{}.yaml" if row.kind == "action" else "row{}.safety_profile.yaml"
    text = (REPO_ROOT / row.example.path).read_bytes().decode("utf-8-sig")
    return editor.open(text, name)


def _editor_verdict(editor: Editor, uri: str) -> str:
    diagnostics = editor.client.diagnostics(uri)
    return "error" if any(item.get("severity") == 1 for item in diagnostics) else "accepts"


def test_the_table_has_each_case_once_with_a_real_example() -> None:
    rows = catalogue_rows()
    assert len(rows) >= 40
    assert len({row.example.case for row in rows}) == len(rows)
    assert len({row.example.path for row in rows}) == len(rows)
    for row in rows:
        assert (REPO_ROOT / row.example.path).is_file(), row.example.path


def test_our_hook_refuses_every_example_by_its_rule() -> None:
    rows = catalogue_rows()
    found = our_rules()
    assert [row for row in rows if row.rule.value not in found[row.example.path]] == []


def test_check_jsonschema_says_what_the_table_says() -> None:
    expected = {row.example.path: row.example.check_jsonschema.verdict for row in catalogue_rows()}
    assert check_jsonschema_verdicts() == expected


def test_the_editor_says_what_the_table_says(editor: Editor) -> None:
    rows = catalogue_rows()
    # Opened together, as an editor restoring its tabs does: the server checks each after a
    # pause of its own, and the pauses overlap.
    opened = {row.example.path: _open_row(editor, row) for row in rows}
    found = {path: _editor_verdict(editor, uri) for path, uri in opened.items()}
    assert found == {row.example.path: row.example.editor.verdict for row in rows}
