"""`--format json`, for scripts: exact (strings are what the file and its name hold) and ASCII
only (json.dumps' default), so control, bidi and format characters are `\\u` escapes a terminal
shows as text, and the output never fails to encode; a file name byte that is not UTF-8 is
`\\udcXX`, which `os.fsencode` turns back into the name."""

from __future__ import annotations

from collections.abc import Sequence

from cleveragents.reading.lean_typing import TYPE_CHECKING, final

from .base import CheckedFiles, DiffReporter, Reporter, ResolveReporter, RulesReporter, ShowReporter

if TYPE_CHECKING:
    from typing import Any

    from cleveragents.domain.models.core.document_values import ShownDocument
    from cleveragents.reading.problems import Problem
    from cleveragents.reading.rules import Rule

    from ..core.diff import DiffReport, Finding
    from ..core.resolve import Resolution

__all__ = ["JsonReporter", "problem_json"]


def _dumps(document: Any) -> str:
    import json  # only this format needs it; `check` starts without it

    return json.dumps(document, indent=2) + "\n"


def problem_json(problem: Problem) -> dict[str, object]:
    """{file, line, column, path, message, rule, severity}; null line/column for a whole file;
    severity is a `Severity`'s word (`error`, `warning`, `hint`)."""
    return {
        "file": problem.file,
        "line": problem.line or None,
        "column": problem.column or None,
        "path": problem.path,
        "message": problem.message,
        "rule": problem.rule,
        "severity": problem.severity,
    }


def _finding_json(finding: Finding) -> dict[str, object]:
    return {
        "file": finding.file,
        "line": finding.line or None,
        "column": finding.column or None,
        "path": finding.path,
        "change": finding.verdict.value,
        "old": finding.old,
        "new": finding.new,
        "message": finding.detail,
        "rule": finding.rule,
    }


def field_origins(document: ShownDocument, prefix: str = "") -> dict[str, str]:
    """`file` or `default` for each field by dotted path, nested documents' fields too: what
    the text output marks `# from file` or `# default` (the keys of the dumped document)."""
    origins: dict[str, str] = {}
    for field in document.fields:
        origins[prefix + field.key] = "file" if field.given else "default"
        if field.nested is not None:
            origins.update(field_origins(field.nested, f"{prefix}{field.key}."))
    return origins


@final
class JsonReporter(Reporter, DiffReporter, ShowReporter, ResolveReporter, RulesReporter):
    name = "json"

    def check(self, files: CheckedFiles) -> str:
        """An array of {file, line, column, path, message, rule, severity}; null line/column
        for the file as a whole."""
        return _dumps([problem_json(problem) for problem in files.problems])

    def diff(self, report: DiffReport) -> str:
        """{loosens, files_compared, changes: [...], problems: [check's objects]}."""
        return _dumps(
            {
                "loosens": any(finding.verdict == "loosens" for finding in report.findings),
                "files_compared": report.files_compared,
                "changes": [_finding_json(finding) for finding in report.findings],
                "problems": [problem_json(problem) for problem in report.problems],
            }
        )

    def show(
        self, document: ShownDocument | None, problems: Sequence[Problem], source: str, kind: str
    ) -> str:
        """{file, kind, document, origins, problems}: the effective document (null when the
        file is invalid), where each field's value came from, and check's objects for its
        problems."""
        return _dumps(
            {
                "file": source,
                "kind": kind,
                "document": None if document is None else document.dump(),
                "origins": {} if document is None else field_origins(document),
                "problems": [problem_json(problem) for problem in problems],
            }
        )

    def rules(self, rule: Rule | None) -> str:
        from ..core.rule_docs import rule_json, rules_json

        return rules_json() if rule is None else rule_json(rule)

    def resolve(self, resolution: Resolution) -> str:
        """Provenance, source, profile, each layer, autonomy settings, ignored flags and the
        notes where the applied profile is looser than a layer it overrides."""
        from cleveragents.domain.models.core.layers import Provenance

        return _dumps(
            {
                "provenance": resolution.ref.provenance.value,
                "source": resolution.source,
                "profile": resolution.ref.shown.dump(),
                "layers": [
                    {
                        "layer": provenance.value,
                        "file": resolution.files.get(provenance),
                        "sets_profile": provenance in resolution.profiles,
                        "applies": provenance is resolution.ref.provenance,
                    }
                    for provenance in Provenance
                ],
                "autonomy_settings": dict(resolution.settings.autonomy_settings),
                "ignored_automation_flags": dict(resolution.settings.ignored_automation_flags),
                "notes": [
                    {
                        "layer": note.layer.value,
                        "overrides": note.overrides.value,
                        "field": note.change.field,
                        "overridden_value": note.change.old,
                        "value": note.change.new,
                        "note": note.text,
                    }
                    for note in resolution.notes
                ],
                "floors": [
                    {
                        "source": floor.source,
                        "below": [
                            {"field": change.field, "floor_value": change.old, "value": change.new}
                            for change in below
                        ],
                    }
                    for floor, below in resolution.floors
                ],
            }
        )
