"""What every output format is: a `Reporter` renders each command's report it serves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from cleveragents.domain.models.core.document_values import ShownDocument
    from cleveragents.reading.problems import Problem
    from cleveragents.reading.rules import Rule

    from ..diff import DiffReport
    from ..resolve import Resolution

__all__ = ["Reporter"]


class Reporter:
    """One output format. `serves` names the commands it renders, each with what it prints
    for that command, in the words of the command's `--format` help; a command offers exactly
    the formats that serve it. `check` renders a list of problems, which every command
    reports for invalid files in the same words; the other methods render one command's
    report."""

    name: ClassVar[str]
    serves: ClassVar[Mapping[str, str]]  # command -> what this format prints for it

    def __init__(self, colour: bool = False) -> None:
        self.colour = colour  # only the text format colours, and only on a terminal

    def check(self, problems: Sequence[Problem], files_checked: int) -> str:
        raise NotImplementedError

    def diff(self, report: DiffReport) -> str:
        raise NotImplementedError

    def show(
        self, document: ShownDocument | None, problems: Sequence[Problem], source: str, kind: str
    ) -> str:
        """The effective document of one file (None: the file is invalid, see `problems`)."""
        raise NotImplementedError

    def resolve(self, resolution: Resolution) -> str:
        raise NotImplementedError

    def rules(self, rule: Rule | None) -> str:
        """One rule explained, or (None) every rule of the catalogue."""
        raise NotImplementedError
