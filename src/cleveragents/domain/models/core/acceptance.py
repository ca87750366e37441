"""Whether a loaded document is valid, decided without pydantic.

`accepts_profile(document)` is True exactly when `SafetyProfile.model_validate(document)`
succeeds, and `accepts_action(document)` exactly when `Action.model_validate(document)` does
(tests/test_acceptance.py keeps it so, over documents generated from the schemas): first the
validator generated from the schema by fastjsonschema (`cleveragents.schema_validators`), then
the rules JSON Schema cannot express, from `document_rules`, which the models call too.

`safety-profile check` accepts a valid file this way without importing pydantic, which with
building the models is most of its start-up; a file these functions do not accept goes through
the models, so every message is the models'. `document` is a value the loader built: JSON-like,
with string keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cleveragents.schema_validators import (
    JsonSchemaValueException,
    action_schema,
    automation_profile_schema,
    safety_profile_schema,
)

from .document_rules import (
    action_key_findings,
    cost_order_holds,
    is_finite_number,
    kept_key_findings,
    normalised_categories,
)

__all__ = ["accepts_action", "accepts_profile"]

SchemaValidator = Callable[[Any], object]  # returns the document, raises when it is invalid

_PROFILE_SCHEMA: SchemaValidator = safety_profile_schema.validate
_ACTION_SCHEMA: SchemaValidator = action_schema.validate
_PROFILE_FIELDS: tuple[str, ...] = safety_profile_schema.PROPERTIES
_ACTION_FIELDS: tuple[str, ...] = action_schema.PROPERTIES
_AUTOMATION_FIELDS: tuple[str, ...] = automation_profile_schema.PROPERTIES


def _schema_accepts(validate: SchemaValidator, document: Any) -> bool:
    try:
        validate(document)
    except JsonSchemaValueException:
        return False
    return True


def _as_cost(value: float | None) -> float | None:
    """A cost as the model holds it: pydantic makes a float of an integer."""
    return None if value is None else float(value)


def _profile_rules_hold(profile: dict[str, Any]) -> bool:
    """The profile's rules beyond its schema, for a profile the schema accepts."""
    per_plan, total = profile.get("max_cost_per_plan"), profile.get("max_total_cost")
    if not (is_finite_number(per_plan) and is_finite_number(total)):
        return False
    if normalised_categories(profile.get("allowed_skill_categories", [])) is None:
        return False
    return cost_order_holds(_as_cost(per_plan), _as_cost(total))


def accepts_profile(document: dict[str, Any]) -> bool:
    """Whether `SafetyProfile` accepts `document`."""
    return _schema_accepts(_PROFILE_SCHEMA, document) and _profile_rules_hold(document)


def accepts_action(document: dict[str, Any]) -> bool:
    """Whether `Action` accepts `document` (its safety and automation profiles included)."""
    if not _schema_accepts(_ACTION_SCHEMA, document):
        return False
    profile = document.get("safety_profile")
    if profile is not None and not _profile_rules_hold(profile):
        return False
    automation = document.get("automation_profile")
    if automation is not None and kept_key_findings(automation, _AUTOMATION_FIELDS):
        return False
    return not action_key_findings(document, _ACTION_FIELDS, _PROFILE_FIELDS)
