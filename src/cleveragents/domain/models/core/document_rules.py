"""The rules JSON Schema cannot express, each written once, as plain functions.

The models call them from their validators (and turn what they find into pydantic errors); the
validator of the command paths (`document_check`) calls the same functions and gives the same
messages (`RuleMessage`), so the two can never disagree about a rule. Nothing here imports
pydantic.

* A cost is a finite number: JSON cannot store `.nan` or `.inf`, and an integer too large for
  a double is not a cost either.
* `max_cost_per_plan` does not exceed `max_total_cost`.
* Skill categories are normalised (stripped, blanks dropped, de-duplicated in order), and a list
  of only blank items is an error: it would normalise to [], which allows every category.
* The keys a model keeps as written (an action's or automation profile's own keys), which JSON
  Schema lets through: no key, at any depth inside them, holds invisible characters (Unicode
  category Cf: U+200B, U+2060, U+FEFF, ...), and every number kept is finite.
* An action's top-level key must not pass for an action field, or stand where a profile field
  belongs, or the action would silently lose the setting its author wrote: a field name with
  invisible characters, one spelt with look-alike characters (`safety_profile` in Cyrillic
  letters, by Unicode's confusables data, UTS #39, as the `confusable_homoglyphs` package ships
  it), a Safety Profile field written one level too far out, or a near miss (`safety_profle`).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator, Sequence

from cleveragents.reading.characters import invisible_characters, name_characters
from cleveragents.reading.describe import describe_value
from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple
from cleveragents.reading.problems import Loc

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "BLANK_CATEGORIES",
    "CATEGORIES_FIELD",
    "COST_FIELDS",
    "COST_ORDER",
    "NOT_FINITE",
    "NULL_NOT_ALLOWED",
    "PER_PLAN_FIELD",
    "RETRIES_FIELD",
    "TOTAL_FIELD",
    "RuleFinding",
    "RuleMessage",
    "action_key_findings",
    "confusable_skeleton",
    "cost_order_holds",
    "is_finite_number",
    "kept_key_findings",
    "normalised_categories",
]


# The profile fields the rules below read.
CATEGORIES_FIELD = "allowed_skill_categories"
PER_PLAN_FIELD, TOTAL_FIELD = COST_FIELDS = ("max_cost_per_plan", "max_total_cost")
RETRIES_FIELD = "max_retries_per_step"


class RuleMessage(NamedTuple):
    """A rule's error as the models raise it: its type and its message, where `{name}`
    stands for a value of the error's context."""

    kind: str
    template: str


NOT_FINITE = RuleMessage("finite_number", "Input should be a finite number")
COST_ORDER = RuleMessage(
    "cost_order",
    "max_cost_per_plan ({per_plan}) exceeds max_total_cost ({total}); the per-plan cost must "
    "not exceed the total cost",
)
BLANK_CATEGORIES = RuleMessage(
    "blank_categories",
    "the list holds only blank items, which would allow every category; name the categories, "
    "or write [] to allow every category",
)
NULL_NOT_ALLOWED = RuleMessage(
    "null_not_allowed", "null is not allowed here; leave the key out or give a value"
)


# --- costs ------------------------------------------------------------------------------------


def is_finite_number(value: Any) -> bool:
    """False for a number that is not finite as a double (`.nan`, `.inf`, an integer beyond
    the largest double); True for any finite number and for anything that is not a number
    (the schema decides about those)."""
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        try:
            float(value)
        except OverflowError:
            return False
        return True
    return not isinstance(value, float) or math.isfinite(value)


def cost_order_holds(per_plan: float | None, total: float | None) -> bool:
    """Whether the per-plan cost stays within the total cost (either may be None: no limit).
    The costs as the model holds them: floats."""
    return per_plan is None or total is None or per_plan <= total


# --- skill categories -------------------------------------------------------------------------


def normalised_categories(categories: Sequence[str]) -> tuple[str, ...] | None:
    """The categories stripped, blank ones dropped and duplicates removed (first-seen order);
    None when the list holds only blank items, which would allow every category."""
    stripped = (category.strip() for category in categories)
    # dict.fromkeys keeps first-seen order while dropping duplicates.
    normalised = tuple(dict.fromkeys(category for category in stripped if category))
    if categories and not normalised:
        return None
    return normalised


# --- kept keys --------------------------------------------------------------------------------


class RuleFinding(NamedTuple):
    """A broken rule, as the models report it: the error's type, its message (a template for
    `context`'s values when `context` is given), where, and the input it names."""

    kind: str
    message: str
    loc: Loc
    input: Any
    context: dict[str, Any] | None = None


def _walk(value: Any, loc: Loc) -> Iterator[tuple[Loc, Any]]:
    """(loc, value) for `value` and everything inside it, keys included (as their own locs)."""
    yield loc, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, (*loc, key))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _walk(item, (*loc, index))


def _kept_value_findings(key: str, value: Any, data: Any) -> list[RuleFinding]:
    findings: list[RuleFinding] = []
    for loc, item in _walk(value, (key,)):
        name = loc[-1]
        hidden = invisible_characters(name) if isinstance(name, str) else []
        if hidden:
            findings.append(
                RuleFinding(
                    "invisible_characters",
                    f"the key {name!r} holds invisible characters ({name_characters(hidden)}), "
                    "so it is not the key it looks like; remove them",
                    loc,
                    data,
                )
            )
        if isinstance(item, float) and not math.isfinite(item):
            findings.append(
                RuleFinding(
                    "non_finite_number",
                    "{number} is not a finite number, which JSON cannot store; "
                    "write a finite number",
                    loc,
                    item,
                    {"number": describe_value(item)},
                )
            )
    return findings


def kept_key_findings(data: dict[Any, Any], fields: Sequence[str]) -> list[RuleFinding]:
    """Every problem with the keys `data` holds beyond the model's `fields`."""
    findings: list[RuleFinding] = []
    for key, value in data.items():
        if isinstance(key, str) and key not in fields:
            findings.extend(_kept_value_findings(key, value, data))
    return findings


def confusable_skeleton(text: str) -> str:
    """`text` folded as UTS #39 folds confusables, toward ASCII: compatibility forms
    normalised (NFKC: fullwidth letters), invisible characters removed, and each remaining
    non-ASCII character replaced by the ASCII character Unicode lists it as confusable with."""
    normalised = unicodedata.normalize("NFKC", text)
    hidden = set(invisible_characters(normalised))
    visible = "".join(character for character in normalised if character not in hidden)
    if visible.isascii():
        return visible
    # Imported only for a non-ASCII key: its data takes a moment to load.
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(visible, greedy=True, preferred_aliases=["latin"]) or []
    ascii_for = {}
    for entry in found:
        ascii_glyphs = [glyph["c"] for glyph in entry["homoglyphs"] if glyph["c"].isascii()]
        if ascii_glyphs:
            ascii_for[entry["character"]] = ascii_glyphs[0]
    return "".join(ascii_for.get(character, character) for character in visible)


def _top_level_key_finding(
    key: str, fields: Sequence[str], profile_fields: Sequence[str], data: Any
) -> RuleFinding | None:
    """The finding for a kept top-level `key` of an action, if it passes for something else."""
    loc = (key,)
    hidden = invisible_characters(key)
    visible = "".join(character for character in key if character not in hidden)
    if hidden and visible in fields:
        return RuleFinding(
            "invisible_characters",
            f"the key {key!r} is {visible!r} with invisible characters "
            f"({name_characters(hidden)}), so the action would not have its {visible}; "
            f"write {visible} without them",
            loc,
            data,
        )
    skeleton = confusable_skeleton(key)
    if skeleton != key and skeleton in fields:
        others = [character for character in key if not character.isascii()]
        return RuleFinding(
            "confusable_field",
            f"the key {key!r} looks like {skeleton!r} but is written with other characters "
            f"({name_characters(others)}), so the action would not have its {skeleton}; "
            f"write {skeleton} in plain letters",
            loc,
            data,
        )
    if key in profile_fields:
        return RuleFinding(
            "profile_field_at_top_level",
            f"{key!r} is a safety profile field, not an action field; indent it under "
            "safety_profile",
            loc,
            data,
        )
    import difflib  # only an action's own keys need it

    close = difflib.get_close_matches(key.lower(), fields, cutoff=0.85)
    if close:
        return RuleFinding(
            "misspelt_field",
            f"misspelt field {key!r}; did you mean {close[0]!r}? (other top-level keys are "
            "kept, near misses of action fields are not)",
            loc,
            data,
        )
    return None


def action_key_findings(
    data: dict[Any, Any], fields: Sequence[str], profile_fields: Sequence[str]
) -> list[RuleFinding]:
    """Every problem with an action's kept top-level keys: those that pass for an action
    field (`fields`) or a profile field (`profile_fields`), then the rules for every kept key,
    except where a key's own finding already says more about the same place."""
    specific: list[RuleFinding] = []
    for key in data:
        if isinstance(key, str) and key not in fields:
            found = _top_level_key_finding(key, fields, profile_fields, data)
            if found is not None:
                specific.append(found)
    said = {finding.loc for finding in specific}
    general = [finding for finding in kept_key_findings(data, fields) if finding.loc not in said]
    return [*specific, *general]
