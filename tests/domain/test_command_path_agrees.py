"""One meaning, kept by proof: the commands' validator (`document_check`, no pydantic) and the
models give every document the same verdict, the same errors at the same places, the same
messages and the same rule ids; and for a valid document, the same values (`document_values`:
what `show` prints and the floor compares).

Documents are generated from the schemas (hypothesis-jsonschema), then changed where the two
could part: values at the edges of each field (bounds, whole and fractional floats, non-finite
numbers, integers beyond a double, strings that read as other types), wrong types, null,
unknown and near-miss keys, blank categories, costs in either order, and actions whose own keys
pass for fields, with nested safety and automation profiles that break rules of their own.
Every example file is compared too, through the loader, with each problem's line and column.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, relative
from document_strategies import (
    PROFILE_FIELDS,
    candidate_profiles,
    json_values,
    near_miss_keys,
    resolved_schema,
    with_one_change,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from pydantic import BaseModel, ValidationError

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.automation_profile import AutomationProfile
from cleveragents.domain.models.core.document_check import (
    ACTION,
    PROFILE,
    Schema,
    check_loaded,
    document_errors,
)
from cleveragents.domain.models.core.document_values import (
    model_profile_values,
    profile_values,
    shown_document,
    shown_model,
)
from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.reading.loaded_file import load_file
from cleveragents.reading.messages import problems_from_errors
from cleveragents.reading.nodes import YamlDocument
from cleveragents.reading.validation import (
    check_loaded as check_loaded_with_model,
)
from cleveragents.reading.validation import (
    field_error,
    problems_from_validation_error,
)
from cleveragents.schema_validators import (
    action_schema,
    automation_profile_schema,
    safety_profile_schema,
)

ACTION_SCHEMA = resolved_schema("action.schema.json")
ACTION_FIELDS = list(ACTION_SCHEMA["properties"])
REQUIRED = {"name": "n", "definition_of_done": "d", "strategy_actor": "s", "execution_actor": "e"}
SETTINGS = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_same_meaning(model: type[BaseModel], schema: Schema, document: dict[str, Any]) -> None:
    """Both paths give `document` the same errors (type and place), problems (path, message,
    rule) and verdict; for a valid one, the same values."""
    before = repr(document)
    ours = document_errors(schema, document)
    assert repr(document) == before, "the check must not change the document it checks"
    try:
        instance = model.model_validate(document)
    except ValidationError as error:
        theirs = [field_error(detail) for detail in error.errors(include_url=False)]
        assert Counter((e.kind, e.loc) for e in ours) == Counter((e.kind, e.loc) for e in theirs)
        places = YamlDocument(document)  # every place at 1:1: the loc decides where
        their_problems = problems_from_validation_error(error, places, model, "f.yaml")
        our_problems = problems_from_errors(ours, places, schema.fields_at, "f.yaml")
        assert sorted(our_problems) == sorted(their_problems), document
        return
    assert ours == [], document
    assert shown_document(schema, document) == shown_model(instance)
    assert shown_document(schema, document).dump() == instance.model_dump(mode="json")
    profile = document if schema is PROFILE else document.get("safety_profile")
    held = instance if schema is PROFILE else getattr(instance, "safety_profile", None)
    if profile is not None and held is not None:
        assert profile_values(profile) == model_profile_values(held)


# -- profiles ----------------------------------------------------------------------------------
# Costs where a float and an integer compare differently, or a double cannot hold the integer.
costs = st.one_of(
    st.integers(min_value=2**53 - 2, max_value=2**53 + 2),
    st.integers(min_value=10**20, max_value=10**20 + 2),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        [0, -0.0, -1, 1e308, 2e308, 10**308, 10**309, -(10**309), math.nan, 5, 5.0, None, "5"]
    ),
)
# Blank to str.strip() or not: Unicode spaces strip, format characters (U+200B) do not.
categories = st.lists(st.sampled_from(["", " ", "\t", "\u2003", "\u00a0", "\u200b", "code", 1]))
# Any keys, fields or near misses, each with any value: several wrong at once.
loose_profiles = st.dictionaries(near_miss_keys | st.text(max_size=6), json_values, max_size=10)


@SETTINGS
@given(candidate_profiles | loose_profiles)
@example({"max_retries_per_step": 3.0})
@example({"max_retries_per_step": 101.0})
@example({"max_retries_per_step": 1e300})
@example({"max_retries_per_step": -1.5})
@example({"max_retries_per_step": math.inf})
@example({"max_retries_per_step": True})
@example({"max_cost_per_plan": math.nan})
@example({"max_total_cost": -math.inf})
@example({"max_total_cost": 10**400})
@example({"max_total_cost": -(10**400)})
@example({"max_cost_per_plan": 2, "max_total_cost": 1})
@example({"max_cost_per_plan": 2**53 + 1, "max_total_cost": 2**53})  # equal as floats
@example({"max_cost_per_plan": 1e20, "max_total_cost": 1e19})
@example({"max_cost_per_plan": -1, "max_total_cost": 1})
@example({"max_cost_per_plan": 5, "max_total_cost": "1"})
@example({"allowed_skill_categories": [" ", "\u2003"]})
@example({"allowed_skill_categories": ["\u200b"]})
@example({"allowed_skill_categories": [" ", 1]})
@example({"allowed_skill_categories": "code"})
@example({"allowed_skill_categories": None})
@example({"require_sandbox": "yes", "allow_unsafe_tool": True, "": None, "<<": {}})
def test_profiles_mean_the_same_on_both_paths(document: dict[str, Any]) -> None:
    assert_same_meaning(SafetyProfile, PROFILE, document)


@SETTINGS
@given(from_schema(resolved_schema("safety_profile.schema.json")), costs, costs, categories)
def test_profile_rules_beyond_the_schema_mean_the_same(
    valid: dict[str, Any], per_plan: Any, total: Any, listed: list[Any]
) -> None:
    document = {
        **valid,
        "max_cost_per_plan": per_plan,
        "max_total_cost": total,
        "allowed_skill_categories": listed,
    }
    assert_same_meaning(SafetyProfile, PROFILE, document)


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
            "safety_profile.max_cost_per_plan",  # a kept key that reads like a nested place
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
nested_profiles = candidate_profiles | loose_profiles | json_values


def _action_with(
    valid: dict[str, Any], key: str, value: Any, profile: Any, automation: dict[str, Any]
) -> dict[str, Any]:
    return {**with_one_change(valid, key, value), "safety_profile": profile} | automation


automations = (
    st.none().map(lambda _: {})
    | st.builds(
        lambda pairs: {"automation_profile": dict(pairs)},
        st.lists(
            st.tuples(
                action_keys | st.sampled_from(["require_sandbox", "allow_unsafe_tools"]),
                kept_values,
            ),
            max_size=3,
        ),
    )
    | json_values.map(lambda value: {"automation_profile": value})
)
candidate_actions = st.builds(
    _action_with, from_schema(ACTION_SCHEMA), action_keys, kept_values, nested_profiles, automations
)
loose_actions = st.dictionaries(action_keys, kept_values | nested_profiles, max_size=8)


@SETTINGS
@given(candidate_actions | loose_actions)
@example({**REQUIRED, "safety_profle": {}})
@example({**REQUIRED, "n\u0430me": "x"})
@example({**REQUIRED, "require_human_approval": True})
@example({**REQUIRED, "steps": [{"cost": math.inf}]})
@example({**REQUIRED, "automation_profile": {"confidence\u200b": 0.8}})
@example({**REQUIRED, "automation_profile": {"require_sandbox": None}})
@example({**REQUIRED, "automation_profile": []})
@example({**REQUIRED, "safety_profile": {"max_cost_per_plan": 2, "max_total_cost": 1}})
@example({**REQUIRED, "safety_profile": {"max_retries_per_step": 101.0, "x": 1}})
@example({**REQUIRED, "safety_profile": None})
@example({**REQUIRED, "safety_profile": "strict"})
@example({**REQUIRED, "description": None})
@example({**REQUIRED, "name": ""})
@example({"name": None, "safety_profile.max_cost_per_plan": 1, "safety_profile": {"x": 1}})
@example({})
def test_actions_mean_the_same_on_both_paths(document: dict[str, Any]) -> None:
    assert_same_meaning(Action, ACTION, document)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(from_schema(ACTION_SCHEMA))
def test_schema_valid_actions_mean_the_same_on_both_paths(document: dict[str, Any]) -> None:
    assert_same_meaning(Action, ACTION, document)


# -- the same field names, and real files --------------------------------------------------------
@pytest.mark.parametrize(
    ("module", "model"),
    [
        (safety_profile_schema, SafetyProfile),
        (action_schema, Action),
        (automation_profile_schema, AutomationProfile),
    ],
)
def test_the_generated_modules_name_the_models_fields(module: Any, model: Any) -> None:
    # The commands take the field names, required fields, defaults and nested documents from
    # the generated validators, the models from pydantic: the same, none with an alias.
    fields = model.model_fields
    assert model.__name__ == module.TITLE  # which `show` names the document by
    assert tuple(fields) == module.PROPERTIES
    assert not any(field.alias for field in fields.values())
    assert {name for name, field in fields.items() if field.is_required()} == set(module.REQUIRED)
    defaults = {
        name: field.get_default() for name, field in fields.items() if name in module.DEFAULTS
    }
    assert defaults == module.DEFAULTS


EXAMPLE_FILES = sorted(EXAMPLES.rglob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: relative(path))
@pytest.mark.parametrize(("model", "schema"), [(SafetyProfile, PROFILE), (Action, ACTION)])
def test_every_example_means_the_same_on_both_paths(
    path: Path, model: type[BaseModel], schema: Schema
) -> None:
    loaded = load_file(str(path))
    ours = check_loaded(loaded, schema, str(path))
    theirs = check_loaded_with_model(loaded, model, str(path))
    assert ours.problems == theirs.problems  # with each problem's line and column
    assert (ours.valid is None) == (theirs.instance is None)
    if ours.valid is not None:
        assert_same_meaning(model, schema, ours.valid)
