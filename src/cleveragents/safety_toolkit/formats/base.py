"""What every output format is: a `Reporter` that implements, for each command it renders, that
command's protocol (`CheckReporter`, `DiffReporter`, ...).

A format names the protocols it implements as its bases, and is `@final`: the type checker
then reports a method it lacks (`Final class ... has abstract attributes`), and the commands
offer exactly the formats whose registry entry names them (`formats.format_names`), which a test
holds to the protocols the class implements. The protocols are abstract base classes, not
`typing.Protocol`s: a format names them, and `check` imports no typing (`lean_typing`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence

from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import ClassVar

    from cleveragents.domain.models.core.document_values import ShownDocument
    from cleveragents.reading.problems import Problem
    from cleveragents.reading.rules import Rule

    from ..core.diff import DiffReport
    from ..core.resolve import Resolution

__all__ = [
    "PROTOCOL_BY_COMMAND",
    "CheckReporter",
    "CheckedFiles",
    "DiffReporter",
    "Reporter",
    "ResolveReporter",
    "RulesReporter",
    "ShowReporter",
]


class CheckedFiles(NamedTuple):
    """What `check` reports: every file checked, as named (those that passed too), and their
    problems in the order they are reported (each file's errors, then its warnings and hints)."""

    paths: tuple[str, ...]
    problems: tuple[Problem, ...]

    def problems_of(self, path: str) -> tuple[Problem, ...]:
        """The problems of one checked file."""
        return tuple(problem for problem in self.problems if problem.file == path)


class Reporter:
    """One output format. Its registry entry (`formats.FORMAT_BY_NAME`) says, for each command
    whose protocol it implements, what it prints (tests/formats/test_formats.py holds the two to
    each other)."""

    name: ClassVar[str]

    def __init__(self, colour: bool = False) -> None:
        self.colour = colour  # only the text format colours, and only on a terminal


class CheckReporter(ABC):
    """`check`, and every command's invalid files, in the same words."""

    @abstractmethod
    def check(self, files: CheckedFiles) -> str: ...


class DiffReporter(ABC):
    @abstractmethod
    def diff(self, report: DiffReport) -> str: ...


class ShowReporter(ABC):
    @abstractmethod
    def show(
        self, document: ShownDocument | None, problems: Sequence[Problem], source: str, kind: str
    ) -> str:
        """The effective document of one file (None: the file is invalid, see `problems`)."""


class ResolveReporter(CheckReporter):
    """`resolve`: the effective profile, or (a layer is invalid) its files as `check` says."""

    @abstractmethod
    def resolve(self, resolution: Resolution) -> str: ...


class RulesReporter(ABC):
    @abstractmethod
    def rules(self, rule: Rule | None) -> str:
        """One rule explained, or (None) every rule of the catalogue."""


# The protocol a format implements to render each command's report.
PROTOCOL_BY_COMMAND: Mapping[str, type] = {
    "check": CheckReporter,
    "diff": DiffReporter,
    "show": ShowReporter,
    "resolve": ResolveReporter,
    "rules": RulesReporter,
}
