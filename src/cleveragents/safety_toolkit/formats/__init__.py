"""Every output format, one module each, behind one registry (`FORMAT_BY_NAME`).

A format is a `Reporter` (base.py) that implements the protocol of each command it renders
(`CheckReporter`, `DiffReporter`, ...: `PROTOCOL_BY_COMMAND`). Its entry here names its module
and says, for each of those commands, what it prints (`serves`): each command's `--format`
choices and help come from the entries alone (`format_names`, `format_help`), so building the
parser imports no format, and a command imports only the one format it renders with
(`reporter`). tests/formats/test_formats.py holds each entry's commands to the protocols its class
implements. Adding a format is adding a module with its `Reporter`, its entry below (and its
tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module

from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple, overload

from .base import (
    CheckReporter,
    DiffReporter,
    Reporter,
    ResolveReporter,
    RulesReporter,
    ShowReporter,
)

if TYPE_CHECKING:
    from typing import Any, Literal

__all__ = ["FORMAT_BY_NAME", "Format", "Reporter", "format_help", "format_names", "reporter"]


class Format(NamedTuple):
    """One format's entry: its module (in this package) and class, and for each command it
    renders, what it prints in the words of that command's `--format` help."""

    module: str
    class_name: str
    serves: Mapping[str, str]  # command -> what this format prints for it

    def reporter_class(self) -> type[Reporter]:
        """The format's `Reporter` class (its module imported now)."""
        cls: type[Reporter] = getattr(import_module(f"{__name__}.{self.module}"), self.class_name)
        return cls


_PROBLEM = "{file, line, column, path, message, rule, severity}"

# The formats, in the order `--format`'s help lists them.
FORMAT_BY_NAME: Mapping[str, Format] = {
    "text": Format(
        "text",
        "TextReporter",
        {
            "check": "a line per problem and a summary",
            "diff": "a line per change and a summary",
            "resolve": "for people",
            "rules": "for people",
            "show": "YAML lines marked `# from file` or `# default`, for people",
        },
    ),
    "json": Format(
        "json",
        "JsonReporter",
        {
            "check": f"an array of {_PROBLEM}",
            "diff": "an object {loosens, files_compared, changes: [{file, line, column, path, "
            "change, old, new, message, rule}], problems: [as check's]}",
            "resolve": "for scripts",
            "rules": "for scripts: the rule as {id, title, description, fix, severity, readers, "
            "url, formerly}, or a list of them",
            "show": "{file, kind, document, origins, problems}, for scripts",
        },
    ),
    "github": Format(
        "github",
        "GithubReporter",
        {"check": "GitHub Actions annotations", "diff": "GitHub Actions annotations"},
    ),
    "sarif": Format(
        "sarif",
        "SarifReporter",
        {
            "check": "a SARIF 2.1.0 log for code scanning",
            "diff": "a SARIF 2.1.0 log for code scanning",
        },
    ),
}


def format_names(command: str) -> list[str]:
    """The formats that render `command`'s report, sorted."""
    return sorted(name for name, entry in FORMAT_BY_NAME.items() if command in entry.serves)


def format_help(command: str) -> str:
    """`--format`'s help for `command`: each of its formats and what it prints."""
    described = "; ".join(
        f"{name}, {entry.serves[command]}"
        for name, entry in FORMAT_BY_NAME.items()
        if command in entry.serves
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
    """The reporter of format `name` for `command`, typed as the command's protocol (only its
    own module is imported); LookupError for a format that does not render it (the parser
    offers only those)."""
    if name not in format_names(command):
        raise LookupError(f"the format {name!r} does not render {command}")
    return FORMAT_BY_NAME[name].reporter_class()(colour)
