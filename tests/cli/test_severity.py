"""Severity is one type carrying every word a report uses for it; only an error fails a file.

No rule is a warning yet, so the warning level is shown here through the reporters and the
language server's mapping, the real components a rule's problems go through."""

from __future__ import annotations

import json

import lsprotocol.types as lsp
import pytest
from conftest import REPO_ROOT

from cleveragents.reading.problems import Problem
from cleveragents.reading.rules import Rule, Severity
from cleveragents.safety_toolkit.core.kind_hint import with_hints_last
from cleveragents.safety_toolkit.formats import format_names, reporter
from cleveragents.safety_toolkit.formats.base import CheckedFiles

SARIF_SCHEMA = REPO_ROOT / "tests" / "sarif" / "sarif-schema-2.1.0.json"
# GitHub Actions' workflow commands for an annotation (docs.github.com, "Workflow commands").
GITHUB_ANNOTATIONS = {"error", "warning", "notice"}


def test_the_members_are_error_warning_and_hint_in_order_of_weight() -> None:
    assert [member.value for member in Severity] == ["error", "warning", "hint"]
    assert sorted(Severity, key=lambda member: member.rank) == list(Severity)
    assert [member for member in Severity if member.fails] == [Severity.ERROR]


@pytest.mark.parametrize("severity", list(Severity))
def test_each_mapping_names_a_level_the_other_side_knows(severity: Severity) -> None:
    assert lsp.DiagnosticSeverity(severity.lsp).name.lower() == severity.value
    levels = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))["definitions"]["result"]
    assert severity.sarif in levels["properties"]["level"]["enum"]
    assert severity.github in GITHUB_ANNOTATIONS
    assert severity.colour.startswith("\033[")
    assert severity.colour.endswith("m")


def _warning(file: str = "a.safety_profile.yaml") -> Problem:
    return Problem(file, 2, 1, "max_retries_per_step", "above 10", Rule.KIND_HINT, Severity.WARNING)


@pytest.mark.parametrize("name", format_names("check"))
def test_a_file_with_only_a_warning_is_reported_and_stays_valid(name: str) -> None:
    output = reporter("check", name).check(CheckedFiles(("a.safety_profile.yaml",), (_warning(),)))
    assert "above 10" in output
    if name == "text":
        assert output.splitlines() == [
            "a.safety_profile.yaml:2:1: warning: max_retries_per_step: above 10 [kind.hint]",
            "ok: 1 file valid",
        ]
    elif name == "json":
        assert json.loads(output)[0]["severity"] == "warning"
    elif name == "github":
        assert output.startswith("::warning ")
    elif name == "sarif":
        assert json.loads(output)["runs"][0]["results"][0]["level"] == "warning"
    else:  # a new format: at least its words for the warning
        assert Severity.WARNING.value in output or Severity.WARNING.sarif in output


def test_the_text_word_is_coloured_by_its_severity() -> None:
    output = reporter("check", "text", colour=True).check(
        CheckedFiles(("a.safety_profile.yaml",), (_warning(),))
    )
    assert f"{Severity.WARNING.colour}warning\033[0m" in output


def test_a_files_errors_come_first_then_warnings_then_hints() -> None:
    error = _warning()._replace(severity=Severity.ERROR, line=9)
    hint = _warning()._replace(severity=Severity.HINT, line=0)
    assert with_hints_last([hint, _warning(), error]) == [error, _warning(), hint]
