"""One reporter per output format of `safety-profile check` (and of the problems `diff`
and `resolve` report the same way).

Errors make a file invalid; hints (severity `hint`, e.g. "this looks like an action") only
follow a file's errors: a `hint:` line in text, an element with `"severity": "hint"` in JSON,
a `::notice` in GitHub Actions, a `note` in SARIF."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cleveragents.reading.problems import Problem, field_prefix
from cleveragents.reading.terminal_text import visible

Reporter = Callable[[Sequence[Problem], int, bool], str]


RED, GREEN, CYAN, RESET = "\033[31m", "\033[32m", "\033[36m", "\033[0m"
_SEVERITY_COLOURS = {"error": RED, "hint": CYAN}


def painted(text: str, colour_code: str, colour: bool) -> str:
    return f"{colour_code}{text}{RESET}" if colour else text


def problem_lines(problems: Sequence[Problem], colour: bool) -> list[str]:
    """`FILE:LINE:COL: error: FIELD: message` (`FILE: hint: message` for a hint), one line
    each."""
    return [
        problem.render(painted(problem.severity, _SEVERITY_COLOURS[problem.severity], colour))
        for problem in problems
    ]


def invalid_files(problems: Sequence[Problem]) -> set[str]:
    """The files with an error (a hint alone does not make a file invalid)."""
    return {problem.file for problem in problems if problem.severity == "error"}


def report_text(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """`FILE:LINE:COL: error: FIELD: message`, one line each, then a summary line."""
    lines = problem_lines(problems, colour)
    failed = len(invalid_files(problems))
    plural = "" if files_checked == 1 else "s"
    if failed:
        lines.append(f"{failed} of {files_checked} file{plural} invalid")
    else:
        lines.append(f"ok: {files_checked} file{plural} valid")
    return "\n".join(lines) + "\n"


def problem_json(problem: Problem) -> dict[str, object]:
    """{file, line, column, path, message, rule, severity}; null line/column for a whole file;
    severity `error` or `hint`."""
    return {
        "file": problem.file,
        "line": problem.line or None,
        "column": problem.column or None,
        "path": problem.path,
        "message": problem.message,
        "rule": problem.rule,
        "severity": problem.severity,
    }


def report_json(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """A JSON array of {file, line, column, path, message, rule, severity}; null line/column
    for the file as a whole.

    Exact: strings are what the file and its name hold. ASCII only (json.dumps' default), so
    control, bidi and format characters are `\\u` escapes a terminal shows as text, and the
    output never fails to encode; a file name byte that is not UTF-8 is `\\udcXX`, which
    `os.fsencode` turns back into the name."""
    import json  # only this format needs it; `check` starts without it

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
    field = visible(field_prefix(problem.path))
    command = "error" if problem.severity == "error" else "notice"
    return github_command(
        command, problem.file, problem.line, problem.column, problem.rule, field + problem.message
    )


def report_github(problems: Sequence[Problem], files_checked: int, colour: bool) -> str:
    """GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::…`, and
    `::notice` for a hint."""
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
