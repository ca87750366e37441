"""One reporter per output format of `safety-profile check`.

Errors make a file invalid; hints (severity `hint`, e.g. "this looks like an action") only
follow a file's errors: a `hint:` line in text, an element with `"severity": "hint"` in JSON,
a `::notice` in GitHub Actions."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from cleveragents.reading.problems import Problem

Reporter = Callable[[Sequence[Problem], int, bool], str]


_COLOURED = {"error": "\033[31merror\033[0m", "hint": "\033[36mhint\033[0m"}


def report_text(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """`FILE:LINE:COL: error: FIELD: message` (`FILE: hint: message` for a hint), one line
    each, then a summary line."""
    lines = [
        problem.render(_COLOURED[problem.severity] if colour else None) for problem in problems
    ]
    failed = len({problem.file for problem in problems if problem.severity == "error"})
    plural = "" if files_checked == 1 else "s"
    if failed:
        lines.append(f"{failed} of {files_checked} file{plural} invalid")
    else:
        lines.append(f"ok: {files_checked} file{plural} valid")
    return "\n".join(lines) + "\n"


def report_json(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """A JSON array of {file, line, column, path, message, rule, severity}; null line/column
    for the file as a whole; severity `error` or `hint`."""
    return (
        json.dumps(
            [
                {
                    "file": problem.file,
                    "line": problem.line or None,
                    "column": problem.column or None,
                    "path": problem.path,
                    "message": problem.message,
                    "rule": problem.rule,
                    "severity": problem.severity,
                }
                for problem in problems
            ],
            indent=2,
        )
        + "\n"
    )


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def report_github(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::…`, and
    `::notice` for a hint."""
    lines = []
    for problem in problems:
        properties = [f"file={_escape_property(problem.file)}"]
        if problem.line:
            properties += [f"line={problem.line}", f"col={problem.column}"]
        properties.append(f"title={_escape_property(problem.rule)}")
        field = f"{problem.path}: " if problem.path else ""
        command = "error" if problem.severity == "error" else "notice"
        message = _escape_data(field + problem.message)
        lines.append(f"::{command} {','.join(properties)}::{message}")
    return "".join(line + "\n" for line in lines)


REPORTERS: dict[str, Reporter] = {
    "text": report_text,
    "json": report_json,
    "github": report_github,
}
