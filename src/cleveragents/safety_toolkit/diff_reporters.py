"""One reporter per output format of `safety-profile diff`.

Invalid files come first, reported exactly as `check` reports them (its own line, JSON object,
annotation or SARIF result); then one entry per change.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from .diff import DiffReport, Finding, Verdict
from .reporters import (
    GREEN,
    RED,
    github_command,
    invalid_files,
    painted,
    problem_github_command,
    problem_json,
    problem_lines,
)

DiffReporter = Callable[[DiffReport, bool], str]

_COLOURS = {Verdict.LOOSENS: RED, Verdict.TIGHTENS: GREEN}


def _counted(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def summary(report: DiffReport) -> str:
    """`2 changes loosen, 1 tightens (3 files compared)`, or `ok: nothing loosens ...`."""
    parts = []
    for verdict, one, many in (
        (Verdict.LOOSENS, "change loosens", "changes loosen"),
        (Verdict.TIGHTENS, "change tightens", "changes tighten"),
        (Verdict.ADDED, "profile added", "profiles added"),
    ):
        if report.count(verdict):
            parts.append(_counted(report.count(verdict), one, many))
    invalid = len(invalid_files(report.problems))
    if invalid:
        parts.append(_counted(invalid, "file invalid", "files invalid"))
    compared = f"({_counted(report.files_compared, 'file', 'files')} compared)"
    if report.failed:
        return f"{', '.join(parts)} {compared}"
    found = f"; {', '.join(parts)}" if parts else ""
    return f"ok: nothing loosens{found} {compared}"


def report_text(report: DiffReport, colour: bool) -> str:
    """`NEW:LINE:COL: loosens: FIELD: old → new`, one line per change, then a summary."""
    lines = problem_lines(report.problems, colour)
    for finding in report.findings:
        colour_code = _COLOURS.get(finding.verdict)
        label = finding.verdict.value
        lines.append(finding.render(painted(label, colour_code, colour) if colour_code else label))
    lines.append(summary(report))
    return "\n".join(lines) + "\n"


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


def report_json(report: DiffReport, colour: bool) -> str:
    """{loosens, files_compared, changes: [...], problems: [check's objects]}."""
    document = {
        "loosens": report.count(Verdict.LOOSENS) > 0,
        "files_compared": report.files_compared,
        "changes": [_finding_json(finding) for finding in report.findings],
        "problems": [problem_json(problem) for problem in report.problems],
    }
    return json.dumps(document, indent=2) + "\n"  # ASCII only: safe on any terminal


def report_github(report: DiffReport, colour: bool) -> str:
    """GitHub Actions annotations: `::error` for invalid files and loosenings, `::notice` for
    tightenings and added profiles."""
    lines = [problem_github_command(problem) for problem in report.problems]
    for finding in report.findings:
        command = "error" if finding.verdict is Verdict.LOOSENS else "notice"
        path = f"{finding.path} " if finding.path else ""
        message = f"{path}{finding.verdict.value}: {finding.detail}"
        lines.append(
            github_command(
                command, finding.file, finding.line, finding.column, finding.rule, message
            )
        )
    return "".join(lines)


def report_sarif(report: DiffReport, colour: bool) -> str:
    """A SARIF 2.1.0 log: invalid files as `check` reports them, loosenings as errors,
    tightenings and added profiles as informational results."""
    from .sarif import SarifResult, problem_result, sarif_log

    results = [problem_result(problem) for problem in report.problems]
    for finding in report.findings:
        path = f"{finding.path} " if finding.path else ""
        results.append(
            SarifResult(
                finding.rule,
                f"{path}{finding.verdict.value}: {finding.detail}",
                finding.file,
                finding.line,
                finding.column,
                level="error" if finding.verdict is Verdict.LOOSENS else "none",
            )
        )
    return sarif_log(results)


DIFF_REPORTERS: dict[str, DiffReporter] = {
    "text": report_text,
    "json": report_json,
    "github": report_github,
    "sarif": report_sarif,
}
