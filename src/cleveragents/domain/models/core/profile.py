"""The Safety Profile: constraints on how an agent's plan may run.

`SafetyProfile` subclasses the model generated from `schema/safety_profile.schema.json`
(fields, defaults, bounds, descriptions and `extra='forbid'` all come from the schema) and adds
what JSON Schema cannot say or pydantic would do differently:

* JSON Schema's integer: `3.0` is a valid retry count (and becomes `3`), `3.5`/`"3"`/`true` are not;
* costs must be finite (no `.nan`/`.inf`) and `max_cost_per_plan <= max_total_cost`;
* `allowed_skill_categories` is normalised (stripped, blanks dropped, de-duplicated in order)
  and stored as a tuple, so a profile is deeply immutable, hashable and still serialises as a
  JSON array.

The rules themselves, and their messages, are in `document_rules`, which the validator of the
command paths (`document_check`) calls too.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, field_validator
from pydantic_core import PydanticCustomError

from cleveragents.domain.models.core.always_validated import AlwaysValidated
from cleveragents.domain.models.core.document_loading import LoadableDocument
from cleveragents.domain.models.core.document_rules import (
    BLANK_CATEGORIES,
    CATEGORIES_FIELD,
    COST_FIELDS,
    COST_ORDER,
    NOT_FINITE,
    PER_PLAN_FIELD,
    RETRIES_FIELD,
    TOTAL_FIELD,
    cost_order_holds,
    is_finite_number,
    normalised_categories,
)
from cleveragents.domain.models.core.strictness import FieldChange, fields_below
from cleveragents.reading.problems import ProfileFileError
from cleveragents.schema_models.safety_profile_schema import SafetyProfile as _SchemaSafetyProfile

__all__ = ["DEFAULT_SAFETY_PROFILE", "ProfileFileError", "SafetyProfile"]


class SafetyProfile(_SchemaSafetyProfile, AlwaysValidated, LoadableDocument):
    """Hard safety and cost constraints on plan execution (see the schema for each field)."""

    document_name = "safety profile"

    model_config = ConfigDict(validate_default=True)

    @field_validator(CATEGORIES_FIELD, mode="after")
    @classmethod
    def _normalise_categories(cls, categories: Any) -> tuple[str, ...]:
        normalised = normalised_categories(categories)
        if normalised is None:
            # Blanks alone would normalise to [], which allows every category: an attempt to
            # restrict must never turn into allowing everything.
            raise PydanticCustomError(*BLANK_CATEGORIES)
        return normalised

    @field_validator(RETRIES_FIELD, mode="before")
    @classmethod
    def _integral_number_is_integer(cls, value: Any) -> Any:
        # JSON Schema counts 3.0 as an integer; strict pydantic would not.
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    @field_validator(*COST_FIELDS, mode="before")
    @classmethod
    def _cost_is_finite(cls, value: Any) -> Any:
        if not is_finite_number(value):
            raise PydanticCustomError(*NOT_FINITE)
        return value

    @field_validator(TOTAL_FIELD, mode="after")
    @classmethod
    def _per_plan_within_total(cls, total: float | None, info: Any) -> float | None:
        per_plan = info.data.get(PER_PLAN_FIELD)
        if not cost_order_holds(per_plan, total):
            context = {"per_plan": per_plan, "total": total}
            raise PydanticCustomError(*COST_ORDER, context)
        return total

    def is_at_least_as_strict_as(self, other: SafetyProfile) -> bool:
        """True when no field of this profile is looser than the same field of `other`.

        Field by field, as `compare_profiles` decides (see `strictness`): a partial order, so
        two profiles that each loosen a different field are neither at least as strict as the
        other."""
        return not self.fields_below(other)

    def fields_below(self, floor: SafetyProfile) -> tuple[FieldChange, ...]:
        """The fields on which this profile is looser than `floor` (an organisation's minimum),
        in schema order; empty when it meets the floor. Each change's `old` is the floor's
        value and `new` this profile's; a field the floor leaves out constrains only as its
        default does."""
        return fields_below(self, floor)


# Every field at the schema's default (the generated model's defaults are the schema's), each
# set explicitly, so the default profile reads as a whole one wherever it is shown or stored.
DEFAULT_SAFETY_PROFILE = SafetyProfile.model_validate(
    {
        name: field.get_default(call_default_factory=True)
        for name, field in _SchemaSafetyProfile.model_fields.items()
    }
)
