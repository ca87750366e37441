"""Every output format, one module each, behind one registry (`REPORTER_BY_NAME`).

A format is a `Reporter` (base.py) that renders the reports of the commands it `serves`; each
command's `--format` choices and their help come from here (`format_names`, `format_help`), so
a command offers exactly the formats that can render its report. Adding a format is adding a
module with its `Reporter` and listing the class below (and its tests).

Importing this package is cheap (it is part of `check`'s start-up): each format imports what
it needs (json, the SARIF log, the models) only when it renders.
"""

from __future__ import annotations

from .base import Reporter
from .github import GithubReporter
from .json import JsonReporter
from .sarif import SarifReporter
from .text import TextReporter

__all__ = ["REPORTER_BY_NAME", "Reporter", "format_help", "format_names", "reporter"]

REPORTER_BY_NAME: dict[str, type[Reporter]] = {
    reporter.name: reporter
    for reporter in (TextReporter, JsonReporter, GithubReporter, SarifReporter)
}


def format_names(command: str) -> list[str]:
    """The formats that render `command`'s report, sorted."""
    return sorted(name for name, cls in REPORTER_BY_NAME.items() if command in cls.serves)


def format_help(command: str) -> str:
    """`--format`'s help for `command`: each of its formats and what it prints."""
    described = "; ".join(
        f"{name}, {REPORTER_BY_NAME[name].serves[command]}"
        for name in sorted(format_names(command), key=list(REPORTER_BY_NAME).index)
    )
    return f"how to report: {described} (default: %(default)s)"


def reporter(name: str, colour: bool = False) -> Reporter:
    """The reporter of format `name` (one of `format_names` of the command)."""
    return REPORTER_BY_NAME[name](colour)
