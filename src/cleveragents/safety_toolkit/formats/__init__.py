"""Every output format, one module each, behind one registry (`REPORTER_BY_NAME`).

A format is a `Reporter` (base.py) that implements the protocol of each command it renders
(`CheckReporter`, `DiffReporter`, ...: `PROTOCOL_BY_COMMAND`); each command's `--format`
choices come from which formats implement its protocol (`format_names`), and their help from
what each says it prints (`serves`, `format_help`). Adding a format is adding a module with its
`Reporter` and listing the class below (and its tests).

Importing this package is cheap (it is part of `check`'s start-up): each format imports what
it needs (json, the SARIF log, the models) only when it renders.
"""

from __future__ import annotations

from typing import Any, Literal, overload

from .base import (
    PROTOCOL_BY_COMMAND,
    CheckReporter,
    DiffReporter,
    Reporter,
    ResolveReporter,
    RulesReporter,
    ShowReporter,
)
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
    """The formats that implement `command`'s protocol, sorted."""
    protocol = PROTOCOL_BY_COMMAND[command]
    return sorted(name for name, cls in REPORTER_BY_NAME.items() if issubclass(cls, protocol))


def format_help(command: str) -> str:
    """`--format`'s help for `command`: each of its formats and what it prints."""
    described = "; ".join(
        f"{name}, {REPORTER_BY_NAME[name].serves[command]}"
        for name in sorted(format_names(command), key=list(REPORTER_BY_NAME).index)
    )
    return f"how to report: {described} (default: %(default)s)"


@overload
def reporter(command: Literal["check"], name: str, colour: bool = ...) -> CheckReporter: ...
@overload
def reporter(command: Literal["diff"], name: str, colour: bool = ...) -> DiffReporter: ...
@overload
def reporter(command: Literal["show"], name: str, colour: bool = ...) -> ShowReporter: ...
@overload
def reporter(command: Literal["resolve"], name: str, colour: bool = ...) -> ResolveReporter: ...
@overload
def reporter(command: Literal["rules"], name: str, colour: bool = ...) -> RulesReporter: ...
def reporter(command: str, name: str, colour: bool = False) -> Any:
    """The reporter of format `name` for `command`, typed as the command's protocol;
    LookupError for a format that does not implement it (the parser offers only those)."""
    if name not in format_names(command):
        raise LookupError(f"the format {name!r} does not render {command}")
    return REPORTER_BY_NAME[name](colour)
