"""The schema is canonical: the model accepts exactly what the schema accepts.

The only documented differences are the rules JSON Schema cannot express: costs must be finite
(representable as a finite double), max_cost_per_plan <= max_total_cost, and a categories list
of only blank items is an error (it would normalise to [], which allows every category).
"""

from __future__ import annotations

import json
import math
from typing import Any

import jsonschema
from conftest import PROFILE_SCHEMA_PATH, model_accepts
from document_strategies import candidate_profiles, json_values
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from cleveragents.domain.models.core.safety_profile import SafetyProfile

SCHEMA = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
FIELDS = list(SCHEMA["properties"])
COSTS = ("max_cost_per_plan", "max_total_cost")


def schema_accepts(instance: dict[str, Any]) -> bool:
    return VALIDATOR.is_valid(instance)


def _finite_cost(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return True  # not a number: the schema decides alone
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def extra_rules_hold(instance: dict[str, Any]) -> bool:
    """The documented rules beyond the schema."""
    if not all(_finite_cost(instance.get(cost)) for cost in COSTS):
        return False
    categories = instance.get("allowed_skill_categories")
    if (
        isinstance(categories, list)
        and categories
        and all(isinstance(item, str) and not item.strip() for item in categories)
    ):
        return False  # only blank items would allow every category
    per_plan, total = (instance.get(cost) for cost in COSTS)
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (per_plan, total))
    return not (numbers and per_plan > total)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(from_schema(SCHEMA))
def test_every_schema_valid_instance_is_accepted_unless_an_extra_rule_fails(
    instance: dict[str, Any],
) -> None:
    assert schema_accepts(instance)
    assert model_accepts(SafetyProfile, instance) == extra_rules_hold(instance), instance


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
@given(candidate_profiles)
# The edges a lax or over-strict model would get wrong, always tried:
@example({"max_retries_per_step": 3.0})
@example({"max_retries_per_step": True})
@example({"max_retries_per_step": "3"})
@example({"max_cost_per_plan": math.inf})
@example({"max_total_cost": math.nan})
@example({"max_total_cost": 10**400})
@example({"max_cost_per_plan": 2, "max_total_cost": 1})
@example({"require_sandbox": "false"})
@example({"require_sandbox": 1})
@example({"allowed_skill_categories": "code"})
@example({"allowed_skill_categories": [" ", "code", "code"]})
@example({"allowed_skill_categories": [" ", ""]})
@example({"allow_unsafe_tool": True})
def test_schema_verdict_equals_model_verdict(instance: dict[str, Any]) -> None:
    expected = schema_accepts(instance) and extra_rules_hold(instance)
    assert model_accepts(SafetyProfile, instance) == expected, instance


@settings(max_examples=300)
@given(st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=8))
def test_accepted_profiles_round_trip_through_json(instance: dict[str, Any]) -> None:
    if not model_accepts(SafetyProfile, instance):
        return
    profile = SafetyProfile.model_validate(instance)
    assert SafetyProfile.model_validate_json(profile.model_dump_json()) == profile
    assert schema_accepts(profile.model_dump(mode="json"))
