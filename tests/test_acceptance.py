"""The check that accepts a valid file without pydantic (`acceptance`) accepts exactly what the
models accept: never a document the model refuses, and never refuses one it accepts (which
would cost time, and would show a file the model accepts as having no problem anyway).

Over documents generated from the schemas (hypothesis-jsonschema) with one key changed to a
value at an edge of what some field or rule accepts, the extra rules included: finite costs,
the cost order (after pydantic makes floats of integer costs), blank-only categories, and the
rules for an action's own keys (invisible and look-alike characters, profile fields at the top
level, near misses, non-finite numbers kept as written).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from conftest import EXAMPLES, model_accepts
from document_strategies import (
    PROFILE_FIELDS,
    candidate_profiles,
    json_values,
    resolved_schema,
    with_one_change,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from cleveragents.domain.models.core.acceptance import accepts_action, accepts_profile
from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.automation_profile import AutomationProfile
from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.reading.loaded_file import load_file
from cleveragents.schema_validators import (
    action_schema,
    automation_profile_schema,
    safety_profile_schema,
)

ACTION_SCHEMA = resolved_schema("action.schema.json")
ACTION_FIELDS = list(ACTION_SCHEMA["properties"])
REQUIRED = {"name": "n", "definition_of_done": "d", "strategy_actor": "s", "execution_actor": "e"}


def _same_verdict(accepts: Any, model: Any, document: dict[str, Any]) -> None:
    before = repr(document)
    assert accepts(document) == model_accepts(model, document), document
    assert repr(document) == before, "the check must not change the document it checks"


# -- profiles ----------------------------------------------------------------------------------
# Costs where a float and an integer compare differently, or a double cannot hold the integer.
costs = st.one_of(
    st.integers(min_value=2**53 - 2, max_value=2**53 + 2),
    st.integers(min_value=10**20, max_value=10**20 + 2),
    st.sampled_from([0, -0.0, 1e308, 2e308, 10**308, 10**309, math.nan, math.inf, 5, 5.0, None]),
)
# Blank to str.strip() or not: Unicode spaces strip, format characters (U+200B) do not.
categories = st.lists(st.sampled_from(["", " ", "\t", "\u2003", "\u00a0", "\u200b", "code"]))


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(candidate_profiles)
@example({"max_retries_per_step": 3.0})
@example({"max_retries_per_step": 100.5})
@example({"max_cost_per_plan": math.nan})
@example({"max_total_cost": -math.inf})
@example({"max_total_cost": 10**400})
@example({"max_cost_per_plan": 2, "max_total_cost": 1})
@example({"max_cost_per_plan": 2**53 + 1, "max_total_cost": 2**53})  # equal as floats
@example({"allowed_skill_categories": [" ", "\u2003"]})
@example({"allowed_skill_categories": ["\u200b"]})
@example({"require_sandbox": 1})
@example({"allow_unsafe_tool": True})
def test_profile_accepted_exactly_when_the_model_accepts_it(document: dict[str, Any]) -> None:
    _same_verdict(accepts_profile, SafetyProfile, document)


@settings(max_examples=300)
@given(from_schema(resolved_schema("safety_profile.schema.json")), costs, costs, categories)
def test_profile_rules_beyond_the_schema_decide_alike(
    valid: dict[str, Any], per_plan: Any, total: Any, listed: list[str]
) -> None:
    document = {
        **valid,
        "max_cost_per_plan": per_plan,
        "max_total_cost": total,
        "allowed_skill_categories": listed,
    }
    _same_verdict(accepts_profile, SafetyProfile, document)


# -- actions -----------------------------------------------------------------------------------
# Keys that pass for a field, or stand where a profile field belongs, and keys that are kept.
action_keys = (
    st.sampled_from(ACTION_FIELDS + PROFILE_FIELDS)
    | st.sampled_from(
        [
            "safety_profle",
            "Name",
            "name\u200b",
            "safety\u2060_profile",
            "n\u0430me",  # Cyrillic a
            "\uff4e\uff41\uff4d\uff45",  # fullwidth "name"
            "definition_of_dne",
            "x",
            "x\u200b",
            "steps",
            "",
        ]
    )
    | st.text(max_size=12)
)
kept_values = json_values | st.sampled_from(
    [math.nan, [1, -math.inf], {"a\u200b": 1}, {"gate": {"min\u2060": 0.5}}]
)


def _action_with(
    valid: dict[str, Any], key: str, value: Any, profile: dict[str, Any], automation: Any
) -> dict[str, Any]:
    return {**with_one_change(valid, key, value), "safety_profile": profile} | automation


automations = st.none().map(lambda _: {}) | st.builds(
    lambda key, value: {"automation_profile": {key: value}},
    action_keys | st.sampled_from(["require_sandbox", "allow_unsafe_tools"]),
    kept_values,
)
candidate_actions = st.builds(
    _action_with,
    from_schema(ACTION_SCHEMA),
    action_keys,
    kept_values,
    candidate_profiles,
    automations,
)


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(candidate_actions)
@example({**REQUIRED, "safety_profle": {}})
@example({**REQUIRED, "n\u0430me": "x"})
@example({**REQUIRED, "require_human_approval": True})
@example({**REQUIRED, "steps": [{"cost": math.inf}]})
@example({**REQUIRED, "automation_profile": {"confidence\u200b": 0.8}})
@example({**REQUIRED, "automation_profile": {"require_sandbox": None}})
@example({**REQUIRED, "safety_profile": {"max_cost_per_plan": 2, "max_total_cost": 1}})
@example({**REQUIRED, "safety_profile": None})
@example({**REQUIRED, "description": None})
@example({**REQUIRED, "name": ""})
def test_action_accepted_exactly_when_the_model_accepts_it(document: dict[str, Any]) -> None:
    _same_verdict(accepts_action, Action, document)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(from_schema(ACTION_SCHEMA))
def test_schema_valid_actions_accepted_exactly_when_the_model_accepts_them(
    document: dict[str, Any],
) -> None:
    _same_verdict(accepts_action, Action, document)


# -- the same field names, and real files --------------------------------------------------------
@pytest.mark.parametrize(
    ("module", "model"),
    [
        (safety_profile_schema, SafetyProfile),
        (action_schema, Action),
        (automation_profile_schema, AutomationProfile),
    ],
)
def test_the_rules_get_the_models_field_names(module: Any, model: Any) -> None:
    # The key rules (and the kind hint) take the field names from the generated validators
    # without pydantic, and from the models with it: the same names, none with an alias.
    assert tuple(model.model_fields) == module.PROPERTIES
    assert not any(field.alias for field in model.model_fields.values())


# Every example whose top level loads as a mapping (the others never reach a model).
LOADED_EXAMPLES = {
    path.relative_to(EXAMPLES).as_posix(): loaded.mapping
    for path in sorted(EXAMPLES.rglob("*.yaml"))
    if (loaded := load_file(str(path))).mapping is not None
}


@pytest.mark.parametrize("name", sorted(LOADED_EXAMPLES))
def test_every_loaded_example_is_accepted_exactly_when_the_models_accept_it(name: str) -> None:
    for accepts, model in ((accepts_profile, SafetyProfile), (accepts_action, Action)):
        _same_verdict(accepts, model, LOADED_EXAMPLES[name])
