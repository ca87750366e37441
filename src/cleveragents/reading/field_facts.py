"""The facts about each Safety Profile field, in one table kept beside the schema.

Each property of `schema/safety_profile.schema.json` carries an `x-strictness` object (an
annotation: validators, editors and the model generator ignore it):

* `stricter`: which value is stricter, `true`, `false`, `lower` or `subset`;
* `null`: what `null` means (`"no limit"`), for a field that may be null;
* `empty`: what `[]` means (`"every category"`), and `item`: what one item is (`"category"`);
* `automation_profile_yields`: `true` for a flag an action's automation profile also states and
  the safety profile always decides (spec: "Precedence over AutomationProfile").

`scripts/generate_validators.py` copies the objects into the generated validator module
(`STRICTNESS`), so reading them costs no JSON parse; this module turns them into `FIELD_FACTS`,
from which the strictness comparisons, the rule catalogue's words (`STRICTER`), `diff`'s and the
floor's notes, the overlapping flags and the tables of docs/loosening.md and docs/floor.md are
built. A new field needs its `x-strictness` and nothing here.

Standard library only (`reading` is the lowest layer): no dataclasses.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

from cleveragents.schema_validators.safety_profile_schema import PROPERTIES, STRICTNESS

from .lean_typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "FIELD_FACTS",
    "FieldFacts",
    "Stricter",
    "automation_profile_yields",
    "field_facts",
]


class Stricter(enum.StrEnum):
    """Which value of a field is stricter."""

    TRUE = "true"  # a boolean: true is stricter
    FALSE = "false"  # a boolean: false is stricter
    LOWER = "lower"  # a number: lower is stricter (null, where allowed, is the loosest)
    SUBSET = "subset"  # a list taken as a set: a subset is stricter ([] is the loosest)


class FieldFacts(NamedTuple):
    """What one field's `x-strictness` says, and the words built from it."""

    name: str
    stricter: Stricter
    null: str = ""  # what null means ("no limit"); "" when null is not a value
    empty: str = ""  # what [] means ("every category"); "" when it means nothing special
    item: str = ""  # what one item of a list is ("category")
    automation_profile_yields: bool = False

    @property
    def stricter_words(self) -> str:
        """The rule in words, for people: `diff`'s rules, its --help, SARIF, the editor."""
        if self.stricter in (Stricter.TRUE, Stricter.FALSE):
            return f"{self.stricter.value} is stricter"
        if self.stricter is Stricter.LOWER:
            loosest = f"; null ({self.null}) is the loosest" if self.null else ""
            return f"lower is stricter{loosest}"
        words = "a subset is stricter"
        words += f"; [] ({self.empty}) is the loosest" if self.empty else ""
        return (
            f"{words}; allowing a {self.item} not allowed before loosens, even when another is "
            "removed"
        )

    @property
    def stricter_cell(self) -> str:
        """The "stricter" cell of docs/loosening.md's table (Markdown)."""
        if self.stricter in (Stricter.TRUE, Stricter.FALSE):
            return f"`{self.stricter.value}`"
        if self.stricter is Stricter.LOWER:
            return "lower" + (f"; `null` ({self.null}) is the loosest" if self.null else "")
        return "a subset" + (f"; `[]` ({self.empty}) is the loosest" if self.empty else "")

    @property
    def floor_cell(self) -> str:
        """The "at least as strict as the floor when" cell of docs/floor.md's table."""
        if self.stricter in (Stricter.TRUE, Stricter.FALSE):
            return f"it is `{self.stricter.value}` where the floor's is `{self.stricter.value}`"
        if self.stricter is Stricter.LOWER:
            if self.null:
                return (
                    f"it is a number at most the floor's; `null` ({self.null}) is looser than "
                    "any number"
                )
            return "it is at most the floor's"
        words = f"it allows no {self.item} the floor does not"
        return words + (f"; `[]` ({self.empty}) is looser than any list" if self.empty else "")

    def meaning(self, value: Any) -> str:
        """What `value` means when it is null or [] ("no limit", "every category"), else ""."""
        if value is None:
            return self.null
        if self.stricter is Stricter.SUBSET and not value:
            return self.empty
        return ""


def _facts(name: str, facts: Any) -> FieldFacts:
    return FieldFacts(
        name,
        Stricter(facts["stricter"]),
        facts.get("null", ""),
        facts.get("empty", ""),
        facts.get("item", ""),
        bool(facts.get("automation_profile_yields", False)),
    )


# Every property of the schema that has an `x-strictness`, in schema order (every property must:
# `field_facts` says where to add one, and tests/schema/test_field_facts.py fails without).
FIELD_FACTS: Mapping[str, FieldFacts] = MappingProxyType(
    {name: _facts(name, STRICTNESS[name]) for name in PROPERTIES if name in STRICTNESS}
)


def field_facts(field: str) -> FieldFacts:
    """The facts of `field`; LookupError, saying where to add them, for a field without."""
    try:
        return FIELD_FACTS[field]
    except KeyError:
        raise LookupError(
            f"no strictness rule for the field {field!r}; give its property an x-strictness "
            "object in schema/safety_profile.schema.json and run scripts/generate_validators.py"
        ) from None


def automation_profile_yields() -> tuple[str, ...]:
    """The flags an action's automation profile also states and yields to the safety profile,
    in schema order."""
    return tuple(name for name, facts in FIELD_FACTS.items() if facts.automation_profile_yields)
