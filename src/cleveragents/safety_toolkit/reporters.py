"""One reporter per output format of `safety-profile check`."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from cleveragents.reading.problems import Problem
from cleveragents.reading.terminal_text import visible

Reporter = Callable[[Sequence[Problem], int, bool], str]


def report_text(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """`FILE:LINE:COL: error: FIELD: message`, one line each, then a summary line."""
    error = "\033[31merror\033[0m" if colour else "error"
    lines = [problem.render(error) for problem in problems]
    failed = len({problem.file for problem in problems})
    plural = "" if files_checked == 1 else "s"
    if failed:
        lines.append(f"{failed} of {files_checked} file{plural} invalid")
    else:
        lines.append(f"ok: {files_checked} file{plural} valid")
    return "\n".join(lines) + "\n"


def report_json(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """A JSON array of {file, line, column, path, message, rule}; null line/column for files.

    Exact: strings are what the file and its name hold. ASCII only (json.dumps' default), so
    control, bidi and format characters are `\\u` escapes a terminal shows as text, and the
    output never fails to encode; a file name byte that is not UTF-8 is `\\udcXX`, which
    `os.fsencode` turns back into the name."""
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
                }
                for problem in problems
            ],
            indent=2,
            ensure_ascii=True,
        )
        + "\n"
    )


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def report_github(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::…`.

    File text is escaped for a terminal first (the log shows it, and bidi controls would
    reorder an annotation), then for the workflow command; the file name keeps its backslashes,
    which are path separators on Windows runners."""
    lines = []
    for problem in problems:
        properties = [f"file={_escape_property(visible(problem.file, escape_backslashes=False))}"]
        if problem.line:
            properties += [f"line={problem.line}", f"col={problem.column}"]
        properties.append(f"title={_escape_property(problem.rule)}")
        field = f"{visible(problem.path)}: " if problem.path else ""
        message = visible(problem.message, escape_backslashes=False)
        lines.append(f"::error {','.join(properties)}::{_escape_data(field + message)}")
    return "".join(line + "\n" for line in lines)


REPORTERS: dict[str, Reporter] = {
    "text": report_text,
    "json": report_json,
    "github": report_github,
}
