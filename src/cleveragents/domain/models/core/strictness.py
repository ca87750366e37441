"""Strictness: which of two Safety Profiles constrains a plan more, field by field.

Each field's rule comes from its facts, kept beside the schema (`x-strictness` in
schema/safety_profile.schema.json, read by `cleveragents.reading.field_facts`): `true` or `false`
is stricter (booleans), `lower` is stricter (numbers; `null`, where a field allows it, is the
loosest), or a `subset` is stricter (lists taken as sets; `[]` is the loosest, the order does not
matter, and a change that allows any item not allowed before loosens, even when it also removes
one). A field without facts has no rule, and comparing it raises LookupError.

Profiles compare by their effective values (`document_values`): a key left out counts as its
default. The commands compare a file's values without building a model (`compare_values`,
`values_below`); the models compare through the same functions.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from types import MappingProxyType

from cleveragents.reading.field_facts import FIELD_FACTS, Stricter, field_facts
from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple

from .document_values import model_profile_values

if TYPE_CHECKING:
    from typing import Any

    from pydantic import BaseModel

__all__ = [
    "STRICTNESS_RULES",
    "Change",
    "FieldChange",
    "StrictnessRule",
    "compare_profiles",
    "compare_values",
    "fields_below",
    "values_below",
]


class Change(enum.StrEnum):
    """What a new value does to a field's constraint, compared with the old value."""

    TIGHTENS = "tightens"
    LOOSENS = "loosens"


def _true_is_stricter(old: Any, new: Any) -> Change | None:
    if bool(old) == bool(new):
        return None
    return Change.TIGHTENS if new else Change.LOOSENS


def _false_is_stricter(old: Any, new: Any) -> Change | None:
    return _true_is_stricter(not old, not new)


def _lower_is_stricter(old: Any, new: Any) -> Change | None:
    if new == old:
        return None
    return Change.TIGHTENS if new < old else Change.LOOSENS


def _lower_limit_is_stricter(old: Any, new: Any) -> Change | None:
    # None is "no limit": looser than any number.
    if old is None or new is None:
        if old is new:
            return None
        return Change.LOOSENS if new is None else Change.TIGHTENS
    return _lower_is_stricter(old, new)


def _subset_is_stricter(old: Any, new: Any) -> Change | None:
    # An empty list allows every category: looser than any list that names some.
    old_set, new_set = frozenset(old), frozenset(new)
    if old_set == new_set:
        return None
    if not old_set or not new_set:
        return Change.LOOSENS if not new_set else Change.TIGHTENS
    # Anything allowed now that was not allowed before loosens, whatever else was removed.
    return Change.TIGHTENS if new_set < old_set else Change.LOOSENS


class StrictnessRule(NamedTuple):
    """How to tell which of two values of one field is stricter. (NamedTuples, not
    dataclasses, here: importing dataclasses, with inspect, was a tenth of `diff`'s start-up.)"""

    stricter: str
    """The rule in words, for people (docs/loosening.md, `--help`, SARIF rule help)."""
    compare: Callable[[Any, Any], Change | None]
    """`(old, new)`: what `new` does compared with `old`; None when they are equally strict."""


# How each direction compares; a number that may be null (no limit) compares with
# `_lower_limit_is_stricter`.
_COMPARE: dict[Stricter, Callable[[Any, Any], Change | None]] = {
    Stricter.TRUE: _true_is_stricter,
    Stricter.FALSE: _false_is_stricter,
    Stricter.LOWER: _lower_is_stricter,
    Stricter.SUBSET: _subset_is_stricter,
}

STRICTNESS_RULES: Mapping[str, StrictnessRule] = MappingProxyType(
    {
        field: StrictnessRule(
            facts.stricter_words,
            _lower_limit_is_stricter
            if facts.stricter is Stricter.LOWER and facts.null
            else _COMPARE[facts.stricter],
        )
        for field, facts in FIELD_FACTS.items()
    }
)


class FieldChange(NamedTuple):
    """One field whose strictness differs between two profiles."""

    field: str
    old: Any
    new: Any
    change: Change

    @property
    def tightens(self) -> bool:
        return self.change is Change.TIGHTENS

    @property
    def loosens(self) -> bool:
        return self.change is Change.LOOSENS


def _rule(field: str) -> StrictnessRule:
    field_facts(field)  # a field without facts: LookupError, saying where to add them
    return STRICTNESS_RULES[field]


def compare_values(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[FieldChange, ...]:
    """Every field on which the profile of effective values `new` is stricter or looser than
    `old` (`document_values`: every field, in schema order).

    Fields that are equally strict are left out: equal values, and category lists that hold
    the same categories in another order. Raises LookupError for a field without a rule."""
    changes = []
    for field, new_value in new.items():
        old_value = old[field]
        change = _rule(field).compare(old_value, new_value)
        if change is not None:
            changes.append(FieldChange(field, old_value, new_value, change))
    return tuple(changes)


def compare_profiles(old: BaseModel, new: BaseModel) -> tuple[FieldChange, ...]:
    """`compare_values` for two `SafetyProfile`s (typed as their base so this module needs no
    import of the model, which calls it)."""
    return compare_values(model_profile_values(old).values, model_profile_values(new).values)


def values_below(profile: Mapping[str, Any], floor: Mapping[str, Any]) -> tuple[FieldChange, ...]:
    """Every field on which the effective values `profile` are looser than `floor`'s, in schema
    order: `old` is the floor's value, `new` the profile's.

    The same order as `compare_values` (and so `diff`): a field the floor leaves out constrains
    as its default does, and so does a field the profile leaves out."""
    return tuple(change for change in compare_values(floor, profile) if change.loosens)


def fields_below(profile: BaseModel, floor: BaseModel) -> tuple[FieldChange, ...]:
    """`values_below` for two `SafetyProfile`s."""
    return values_below(model_profile_values(profile).values, model_profile_values(floor).values)
