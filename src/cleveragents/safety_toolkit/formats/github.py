"""`--format github`: GitHub Actions workflow commands, `::error file=…,line=…,col=…,title=…::…`
for a problem or a loosening, `::notice` for a hint, a tightening or an added profile. Text
from a file is escaped as the text report does, then as workflow commands require (`%0A`,
`%3A`, …), so a file cannot forge or reorder an annotation."""

from __future__ import annotations

from cleveragents.reading.lean_typing import TYPE_CHECKING, final
from cleveragents.reading.problems import field_prefix, labelled
from cleveragents.reading.terminal_text import visible

from .base import CheckedFiles, CheckReporter, DiffReporter, Reporter

if TYPE_CHECKING:
    from cleveragents.reading.problems import Problem

    from ..core.diff import DiffReport

__all__ = ["GithubReporter"]


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(command: str, file: str, line: int, column: int, title: str, message: str) -> str:
    """One workflow command; no line or column for a whole file (line 0)."""
    # The log shows file text, and bidi controls would reorder an annotation: escape it for a
    # terminal first. The file name keeps its backslashes (path separators on Windows runners).
    properties = [f"file={_escape_property(visible(file, escape_backslashes=False))}"]
    if line:
        properties += [f"line={line}", f"col={column}"]
    properties.append(f"title={_escape_property(title)}")
    message = visible(message, escape_backslashes=False)
    return f"::{command} {','.join(properties)}::{_escape_data(message)}\n"


def _problem_command(problem: Problem) -> str:
    field = visible(field_prefix(problem.path))
    return _command(
        problem.severity.github,
        problem.file,
        problem.line,
        problem.column,
        problem.rule,
        field + problem.message,
    )


@final
class GithubReporter(Reporter, CheckReporter, DiffReporter):
    name = "github"

    def check(self, files: CheckedFiles) -> str:
        return "".join(_problem_command(problem) for problem in files.problems)

    def diff(self, report: DiffReport) -> str:
        lines = [_problem_command(problem) for problem in report.problems]
        for finding in report.findings:
            command = "error" if finding.verdict == "loosens" else "notice"
            words = labelled(finding.verdict.value, finding.path, finding.detail, field_first=True)
            lines.append(
                _command(command, finding.file, finding.line, finding.column, finding.rule, words)
            )
        return "".join(lines)
