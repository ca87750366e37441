"""Advice: the warnings about a valid document, each rule's check in one registry (`ADVICE`).

A valid document may still hold something its author likely did not mean: a setting that has
no effect, say. Each entry of `ADVICE` is one such rule: its id in the rule catalogue (family
`advice`, severity `warning`, where its title, description and fix are written) and its check,
a function over the valid document as loaded that yields each place it warns about, with the
words for that place. `Checker.check` runs every entry on every valid document, so `check`,
the hooks, the language server and each output format (text, JSON, SARIF, GitHub) report the
warnings with no code of their own; a warning never makes a file invalid (the exit status comes
from errors alone). An invalid document gets no advice: its errors come first.

Adding a rule (docs/development.md, "Adding a rule"): its `Rule` entry at the end of the
catalogue, its check and its entry here, and an example under examples/ that it warns about.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple
from cleveragents.reading.problems import Loc, Problem, render_loc
from cleveragents.reading.rules import Rule

if TYPE_CHECKING:
    from typing import Any

    from cleveragents.reading.nodes import YamlDocument

__all__ = ["ADVICE", "Advice", "Advised", "advice_problems"]


class Advised(NamedTuple):
    """One place a rule warns about: where in the document, and what to say there (after
    `FIELD: `)."""

    loc: Loc
    message: str


class Advice(NamedTuple):
    """One warning rule: its catalogue entry and its check over a valid document."""

    rule: Rule
    check: Callable[[Mapping[str, Any]], Iterator[Advised]]


def overruled_automation_flags(document: Mapping[str, Any]) -> Iterator[Advised]:
    """Each flag an action's automation profile states that its safety profile decides
    otherwise (spec, "Precedence over AutomationProfile"); every such flag when the action
    sets no safety profile."""
    automation = document.get("automation_profile")
    if not isinstance(automation, Mapping):
        return
    # Imported only for an action that has an automation profile: a profile's check stays lean.
    from cleveragents.domain.models.core.document_values import profile_values
    from cleveragents.domain.models.core.rendering import yaml_value
    from cleveragents.reading.field_facts import automation_profile_yields

    profile: Mapping[str, Any] | None = document.get("safety_profile")
    for flag in automation_profile_yields():
        if flag not in automation:
            continue
        if profile is None:
            why = "this action sets no safety_profile, so the one that applies decides it"
        else:
            decided = profile_values(profile).values[flag]
            if decided == automation[flag]:
                continue
            given = "" if flag in profile else " (its default)"
            why = f"safety_profile.{flag} is {yaml_value(decided)}{given}, and decides it"
        stated = yaml_value(automation[flag])
        yield Advised(("automation_profile", flag), f"{stated} has no effect: {why}")


# Every warning rule, in the order its warnings are listed for one place.
ADVICE: tuple[Advice, ...] = (
    Advice(Rule.ADVICE_AUTOMATION_FLAG_OVERRULED, overruled_automation_flags),
)


def advice_problems(valid: Mapping[str, Any], document: YamlDocument, file: str) -> list[Problem]:
    """Every rule's warnings about `valid` (the document as loaded, once checked valid), placed
    at the values they are about in `document`."""
    return [
        Problem(
            file,
            *document.position(advised.loc),
            render_loc(advised.loc),
            advised.message,
            advice.rule,
            advice.rule.doc.severity,
        )
        for advice in ADVICE
        for advised in advice.check(valid)
    ]
