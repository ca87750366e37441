"""The Safety Profile: constraints on how an agent's plan may run.

`SafetyProfile` subclasses the model generated from `schema/safety_profile.schema.json`
(fields, defaults, bounds, descriptions and `extra='forbid'` all come from the schema) and adds
what JSON Schema cannot say or pydantic would do differently:

* JSON Schema's integer: `3.0` is a valid retry count (and becomes `3`), `3.5`/`"3"`/`true` are not;
* costs must be finite (no `.nan`/`.inf`) and `max_cost_per_plan <= max_total_cost`;
* `allowed_skill_categories` is normalised (stripped, blanks dropped, de-duplicated in order)
  and stored as a tuple, so a profile is deeply immutable, hashable and still serialises as a
  JSON array.

The rules themselves are in `document_rules`, which the check that accepts valid files without
pydantic calls too.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict, field_validator
from pydantic_core import PydanticCustomError

from cleveragents.domain.models.core.always_validated import AlwaysValidated
from cleveragents.domain.models.core.document_loading import LoadableDocument
from cleveragents.domain.models.core.document_rules import (
    cost_order_holds,
    is_finite_number,
    normalised_categories,
)
from cleveragents.domain.models.core.strictness import FieldChange, fields_below
from cleveragents.reading.problems import ProfileFileError
from cleveragents.schema_models.safety_profile_schema import SafetyProfile as _SchemaSafetyProfile

__all__ = [
    "DEFAULT_SAFETY_PROFILE",
    "MODE_ENVIRONMENT_VARIABLE",
    "Mode",
    "ProfileFileError",
    "Provenance",
    "SafetyProfile",
    "SafetyProfileRef",
    "current_mode",
    "resolve_safety_profile",
    "resolve_safety_profile_ref",
]


class SafetyProfile(_SchemaSafetyProfile, AlwaysValidated, LoadableDocument):
    """Hard safety and cost constraints on plan execution (see the schema for each field)."""

    document_name = "safety profile"

    model_config = ConfigDict(validate_default=True)

    @field_validator("allowed_skill_categories", mode="after")
    @classmethod
    def _normalise_categories(cls, categories: Any) -> tuple[str, ...]:
        normalised = normalised_categories(categories)
        if normalised is None:
            # Blanks alone would normalise to [], which allows every category: an attempt to
            # restrict must never turn into allowing everything.
            raise PydanticCustomError(
                "blank_categories",
                "the list holds only blank items, which would allow every "
                "category; name the categories, or write [] to allow every category",
            )
        return normalised

    @field_validator("max_retries_per_step", mode="before")
    @classmethod
    def _integral_number_is_integer(cls, value: Any) -> Any:
        # JSON Schema counts 3.0 as an integer; strict pydantic would not.
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    @field_validator("max_cost_per_plan", "max_total_cost", mode="before")
    @classmethod
    def _cost_is_finite(cls, value: Any) -> Any:
        if not is_finite_number(value):
            raise PydanticCustomError("finite_number", "Input should be a finite number")
        return value

    @field_validator("max_total_cost", mode="after")
    @classmethod
    def _per_plan_within_total(cls, total: float | None, info: Any) -> float | None:
        per_plan = info.data.get("max_cost_per_plan")
        if not cost_order_holds(per_plan, total):
            raise PydanticCustomError(
                "cost_order",
                "max_cost_per_plan ({per_plan}) exceeds max_total_cost ({total}); the per-plan "
                "cost must not exceed the total cost",
                {"per_plan": per_plan, "total": total},
            )
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


DEFAULT_SAFETY_PROFILE = SafetyProfile(
    allowed_skill_categories=[],  # all categories allowed
    require_sandbox=True,
    require_checkpoints=True,
    require_human_approval=False,
    allow_unsafe_tools=False,
    max_cost_per_plan=None,  # no limit
    max_retries_per_step=3,
    max_total_cost=None,  # no limit
)


class Provenance(enum.StrEnum):
    """Which layer a resolved profile came from (`plan > action > project > global`)."""

    PLAN = "PLAN"
    ACTION = "ACTION"
    PROJECT = "PROJECT"
    GLOBAL = "GLOBAL"


class SafetyProfileRef(AlwaysValidated):
    """A resolved profile and the layer it came from."""

    # Built on first use: checking files never needs it, and start-up matters for the hook.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    profile: SafetyProfile
    provenance: Provenance


def resolve_safety_profile_ref(
    *,
    plan_profile: SafetyProfile | None = None,
    action_profile: SafetyProfile | None = None,
    project_profile: SafetyProfile | None = None,
    global_profile: SafetyProfile | None = None,
) -> SafetyProfileRef:
    """The profile that applies to a plan, and the layer it came from.

    `plan > action > project > global`: the highest layer that sets a profile wins whole (no
    field-by-field merging); when none does, the global profile, or `DEFAULT_SAFETY_PROFILE`
    when no global profile is given either (provenance `GLOBAL` in both cases). Pure: it reads
    no files, no environment and no mode."""
    layers = (
        (plan_profile, Provenance.PLAN),
        (action_profile, Provenance.ACTION),
        (project_profile, Provenance.PROJECT),
    )
    for profile, provenance in layers:
        if profile is not None:
            return SafetyProfileRef(profile=profile, provenance=provenance)
    return SafetyProfileRef(
        profile=global_profile if global_profile is not None else DEFAULT_SAFETY_PROFILE,
        provenance=Provenance.GLOBAL,
    )


class Mode(enum.StrEnum):
    """Where CleverAgents runs: enforcement (and so resolution) exists in server mode only."""

    LOCAL = "local"
    SERVER = "server"


MODE_ENVIRONMENT_VARIABLE = "CLEVERAGENTS_MODE"


def current_mode(environ: Mapping[str, str] | None = None) -> Mode:
    """The mode named by `CLEVERAGENTS_MODE` (`local` or `server`, any case); local when unset.

    Raises ValueError for any other value, so a typo never silently changes the mode."""
    value = (os.environ if environ is None else environ).get(MODE_ENVIRONMENT_VARIABLE, "")
    return _parse_mode(value.strip() or Mode.LOCAL, f"{MODE_ENVIRONMENT_VARIABLE}={value!r}")


def _parse_mode(value: str, where: str) -> Mode:
    try:
        return Mode(value.lower())
    except ValueError:
        choices = " or ".join(repr(mode.value) for mode in Mode)
        raise ValueError(f"unknown mode in {where}; expected {choices}") from None


def resolve_safety_profile(
    *,
    plan_profile: SafetyProfile | None = None,
    action_profile: SafetyProfile | None = None,
    project_profile: SafetyProfile | None = None,
    global_profile: SafetyProfile | None = None,
    mode: Mode | str | None = None,
) -> tuple[SafetyProfile, Provenance]:
    """Resolve the profile that applies to a plan: `(profile, provenance)`.

    In local mode, enforcement is deferred to a future server-mode release, so this raises
    NotImplementedError, as the specification requires. In server mode it returns what
    `resolve_safety_profile_ref` decides. `mode` (`"local"`/`"server"`) wins over the
    `CLEVERAGENTS_MODE` environment variable; local is the default."""
    chosen = current_mode() if mode is None else _parse_mode(str(mode), f"mode={mode!r}")
    if chosen is Mode.LOCAL:
        raise NotImplementedError(
            "safety profile resolution is not available in local mode; "
            "enforcement is deferred to server mode "
            f"(set {MODE_ENVIRONMENT_VARIABLE}=server or pass mode='server'; "
            "resolve_safety_profile_ref gives the precedence logic in any mode)"
        )
    ref = resolve_safety_profile_ref(
        plan_profile=plan_profile,
        action_profile=action_profile,
        project_profile=project_profile,
        global_profile=global_profile,
    )
    return ref.profile, ref.provenance
