"""Does a document checked as one kind look like another? The hint `check`, `show` and
`resolve` add to a failed file's problems.

Decided from the top-level keys alone: the other kind's fields are present and make up most
of the keys, and this kind's fields are fewer. The file is still checked as the kind asked
for: a security check never chooses its own rules.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from cleveragents.reading.lean_typing import TYPE_CHECKING
from cleveragents.reading.problems import Problem
from cleveragents.reading.rules import Rule

from .kinds import KINDS, named_as

if TYPE_CHECKING:
    from typing import Protocol

    class Checked(Protocol):
        """A checked file, by either path (`document_check` or the models'): its problems and
        its top-level keys."""

        @property
        def problems(self) -> tuple[Problem, ...]: ...

        @property
        def top_level_keys(self) -> tuple[str, ...]: ...


__all__ = [
    "hint_problem",
    "problems_with_hint",
    "renaming_advice",
    "resembled_kind",
    "with_hints_last",
]


def _field_names(kind: str) -> frozenset[str]:
    # The schema's names: a file checked as one kind never builds the other kind's model.
    return frozenset(KINDS[kind].field_names())


def resembled_kind(keys: Collection[str], checked: str) -> str | None:
    """The kind whose fields `keys` (a document's top-level keys) are, when it is not `checked`
    and most of the keys are its fields; else None."""
    present = set(keys)
    own = len(present & _field_names(checked))
    for other in KINDS:
        if other == checked:
            continue
        theirs = len(present & _field_names(other))
        if theirs > own and 2 * theirs > len(present):
            return other
    return None


def hint_problem(file: str, resembled: str, checked: str, advice: str) -> Problem:
    """`FILE: hint: this looks like an action, not a safety profile: ADVICE`."""
    message = f"this looks like {KINDS[resembled].label}, not {KINDS[checked].label}: {advice}"
    return Problem(file, 0, 0, "", message, Rule.KIND_HINT, Rule.KIND_HINT.doc.severity)


def with_hints_last(problems: Iterable[Problem]) -> list[Problem]:
    """Sorted by file, each file's errors in order, then its warnings, then its hints."""
    return sorted(problems, key=lambda problem: (problem.file, problem.severity.rank, problem))


def renaming_advice(file: str, resembled: str, advice: str) -> str:
    """What to do about a file that looks like `resembled`, for a hook user too: where its
    name already makes it one (the hooks check it so), `advice` alone (`use --kind action`);
    else the name the hooks check as that kind, then `advice`."""
    from ..git.paths import quoted

    if KINDS[resembled].matches(file):
        return advice
    label = KINDS[resembled].label
    renamed = named_as(file, resembled)
    if renamed is None:
        return f"no name in its folder makes it {label} for the hooks; move it, or {advice}"
    return f"rename it {quoted(renamed)} (the hooks check that name as {label}), or {advice}"


def problems_with_hint(
    file: str,
    result: Checked,
    checked: str,
    advice: Mapping[str, str],
    *,
    by_name: bool = False,
) -> list[Problem]:
    """The problems of a file checked as `checked`, then the hint when it failed and looks like
    another kind; `advice[kind]` says what to do, e.g. "use --kind action". `by_name`: the
    file's kind came from its name (as the hooks pick files), so the hint says what to rename
    it where its name is not the other kind's (`renaming_advice`)."""
    if not result.problems or not result.top_level_keys:
        return list(result.problems)
    resembled = resembled_kind(result.top_level_keys, checked)
    if resembled is None:
        return list(result.problems)
    said = advice[resembled]
    if by_name:
        said = renaming_advice(file, resembled, said)
    return [*result.problems, hint_problem(file, resembled, checked, said)]
