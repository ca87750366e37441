"""The Safety Profile: constraints on how an agent's plan may run.

`SafetyProfile` subclasses the model generated from `schema/safety_profile.schema.json`
(fields, defaults, bounds, descriptions and `extra='forbid'` all come from the schema) and adds
what JSON Schema cannot say or pydantic would do differently:

* JSON Schema's integer: `3.0` is a valid retry count (and becomes `3`), `3.5`/`"3"`/`true` are not;
* costs must be finite (no `.nan`/`.inf`) and `max_cost_per_plan <= max_total_cost`;
* `allowed_skill_categories` is normalised (stripped, blanks dropped, de-duplicated in order)
  and stored as a tuple, so a profile is deeply immutable, hashable and still serialises as a
  JSON array.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, field_validator
from pydantic_core import PydanticCustomError

from cleveragents.safety_toolkit.validation import load_yaml_file
from cleveragents.schema_models.safety_profile_schema import SafetyProfile as _SchemaSafetyProfile

__all__ = [
    "DEFAULT_SAFETY_PROFILE",
    "Provenance",
    "SafetyProfile",
    "SafetyProfileRef",
    "resolve_safety_profile",
]


class SafetyProfile(_SchemaSafetyProfile):
    """Hard safety and cost constraints on plan execution (see the schema for each field)."""

    model_config = ConfigDict(allow_inf_nan=False, validate_default=True)

    @field_validator("allowed_skill_categories", mode="after")
    @classmethod
    def _normalise_categories(cls, categories: Any) -> tuple[str, ...]:
        # dict.fromkeys keeps first-seen order while dropping duplicates.
        stripped = (category.strip() for category in categories)
        return tuple(dict.fromkeys(category for category in stripped if category))

    @field_validator("max_retries_per_step", mode="before")
    @classmethod
    def _integral_number_is_integer(cls, value: Any) -> Any:
        # JSON Schema counts 3.0 as an integer; strict pydantic would not.
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    @field_validator("max_cost_per_plan", "max_total_cost", mode="before")
    @classmethod
    def _integer_cost_is_finite(cls, value: Any) -> Any:
        # JSON allows integers of any size; a cost must fit a finite float.
        if isinstance(value, int) and not isinstance(value, bool):
            try:
                float(value)
            except OverflowError:
                raise PydanticCustomError(
                    "finite_number", "Input should be a finite number"
                ) from None
        return value

    @field_validator("max_total_cost", mode="after")
    @classmethod
    def _per_plan_within_total(cls, total: float | None, info: Any) -> float | None:
        per_plan = info.data.get("max_cost_per_plan")
        if total is not None and per_plan is not None and per_plan > total:
            raise PydanticCustomError(
                "cost_order",
                "max_cost_per_plan ({per_plan}) exceeds max_total_cost ({total}); the per-plan "
                "cost must not exceed the total cost",
                {"per_plan": per_plan, "total": total},
            )
        return total

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Self:
        """Build a profile from a mapping such as one loaded from YAML or JSON.

        Raises pydantic's ValidationError (a ValueError) when the mapping is not a valid profile."""
        if not isinstance(config, Mapping):
            raise ValueError(
                f"a safety profile config must be a mapping, not {type(config).__name__}"
            )
        return cls.model_validate(dict(config))

    @classmethod
    def from_yaml(cls, path: str | os.PathLike[str]) -> Self:
        """Load a profile from a YAML file.

        Raises FileNotFoundError when the file is missing, and ProfileFileError (a ValueError)
        listing every problem with file, line, column and field when it is not a valid profile
        (including an empty file or a root that is not a mapping)."""
        return load_yaml_file(path, cls)


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


class SafetyProfileRef(BaseModel):
    """A resolved profile and the layer it came from."""

    # Built on first use: checking files never needs it, and start-up matters for the hook.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    profile: SafetyProfile
    provenance: Provenance


def resolve_safety_profile(
    *,
    plan_profile: SafetyProfile | None = None,
    action_profile: SafetyProfile | None = None,
    project_profile: SafetyProfile | None = None,
    global_profile: SafetyProfile | None = None,
) -> tuple[SafetyProfile, Provenance]:
    """Resolve the profile that applies to a plan.

    In local mode, enforcement is deferred to a future server-mode release, so this raises
    NotImplementedError, as the specification requires."""
    raise NotImplementedError(
        "safety profile resolution is not available in local mode; "
        "enforcement is deferred to server mode"
    )
