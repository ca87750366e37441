"""One reporter per output format of `safety-profile check` (and of the problems `diff`
and `resolve` report the same way)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from cleveragents.reading.problems import Problem
from cleveragents.reading.terminal_text import visible

Reporter = Callable[[Sequence[Problem], int, bool], str]


RED, GREEN, RESET = "\033[31m", "\033[32m", "\033[0m"


def painted(text: str, colour_code: str, colour: bool) -> str:
    return f"{colour_code}{text}{RESET}" if colour else text


def problem_lines(problems: Sequence[Problem], colour: bool) -> list[str]:
    """`FILE:LINE:COL: error: FIELD: message`, one line each."""
    error = painted("error", RED, colour)
    return [problem.render(error) for problem in problems]


def report_text(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """`FILE:LINE:COL: error: FIELD: message`, one line each, then a summary line."""
    lines = problem_lines(problems, colour)
    failed = len({problem.file for problem in problems})
    plural = "" if files_checked == 1 else "s"
    if failed:
        lines.append(f"{failed} of {files_checked} file{plural} invalid")
    else:
        lines.append(f"ok: {files_checked} file{plural} valid")
    return "\n".join(lines) + "\n"


def problem_json(problem: Problem) -> dict[str, object]:
    """{file, line, column, path, message, rule}; null line/column for a whole file."""
    return {
        "file": problem.file,
        "line": problem.line or None,
        "column": problem.column or None,
        "path": problem.path,
        "message": problem.message,
        "rule": problem.rule,
    }


def report_json(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """A JSON array of {file, line, column, path, message, rule}; null line/column for files.

    Exact: strings are what the file and its name hold. ASCII only (json.dumps' default), so
    control, bidi and format characters are `\\u` escapes a terminal shows as text, and the
    output never fails to encode; a file name byte that is not UTF-8 is `\\udcXX`, which
    `os.fsencode` turns back into the name."""
    return json.dumps([problem_json(problem) for problem in problems], indent=2) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(
    command: str, file: str, line: int, column: int, title: str, message: str
) -> str:
    """One GitHub Actions workflow command (`::error file=…,line=…,col=…,title=…::…`); no
    line or column for a whole file (line 0)."""
    # File text is escaped for a terminal first (the log shows it, and bidi controls would
    # reorder an annotation), then for the workflow command; the file name keeps its
    # backslashes, which are path separators on Windows runners.
    properties = [f"file={_escape_property(visible(file, escape_backslashes=False))}"]
    if line:
        properties += [f"line={line}", f"col={column}"]
    properties.append(f"title={_escape_property(title)}")
    message = visible(message, escape_backslashes=False)
    return f"::{command} {','.join(properties)}::{_escape_data(message)}\n"


def problem_github_command(problem: Problem) -> str:
    field = f"{visible(problem.path)}: " if problem.path else ""
    return github_command(
        "error", problem.file, problem.line, problem.column, problem.rule, field + problem.message
    )


def report_github(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::…`."""
    return "".join(problem_github_command(problem) for problem in problems)


def report_sarif(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """A SARIF 2.1.0 log (GitHub code scanning): one error result per problem."""
    from .sarif import problem_result, sarif_log  # only this format needs it

    return sarif_log([problem_result(problem) for problem in problems])


REPORTERS: dict[str, Reporter] = {
    "text": report_text,
    "json": report_json,
    "github": report_github,
    "sarif": report_sarif,
}
