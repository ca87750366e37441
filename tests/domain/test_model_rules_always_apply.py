"""No public pydantic call makes a model that breaks the rules (issue 11, case 5):
`model_copy(update=...)` validates, and `strict=False`, `model_validate_json`,
`model_validate_strings`, `TypeAdapter` or a model that holds ours coerce nothing the schema
forbids. `model_construct` is pydantic's documented escape hatch and stays one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import EXAMPLES
from pydantic import BaseModel, TypeAdapter, ValidationError

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.automation_profile import AutomationProfile
from cleveragents.domain.models.core.safety_profile import (
    Provenance,
    SafetyProfile,
    SafetyProfileRef,
    resolve_safety_profile_ref,
)

PROFILE = SafetyProfile.from_yaml(EXAMPLES / "valid" / "spec_example.safety_profile.yaml")
ACTION = Action.from_yaml(EXAMPLES / "actions" / "valid" / "spec_secure_deploy.action.yaml")
AUTOMATION = AutomationProfile.from_config({"require_sandbox": False, "confidence": 0.8})
REF = resolve_safety_profile_ref(project_profile=PROFILE)


def error_fields(error: ValidationError) -> dict[str, str]:
    """{dotted location: error type} of every error."""
    return {".".join(map(str, detail["loc"])): detail["type"] for detail in error.errors()}


# -- model_copy(update=...) ------------------------------------------------------------------
def test_the_issue_copy_is_refused() -> None:
    with pytest.raises(ValidationError) as raised:
        PROFILE.model_copy(update={"max_retries_per_step": 500, "allow_unsafe_tools": "no"})
    assert error_fields(raised.value) == {
        "max_retries_per_step": "less_than_equal",
        "allow_unsafe_tools": "bool_type",
    }


# model: (a bad update and the error it must give, a good update and what it must give)
BAD_COPIES: dict[str, tuple[BaseModel, dict[str, Any], dict[str, str]]] = {
    "profile: cost rule": (
        PROFILE,
        {"max_cost_per_plan": 1000.0},
        {"max_total_cost": "cost_order"},
    ),
    "profile: unknown field": (
        PROFILE,
        {"allow_unsafe_tool": True},
        {"allow_unsafe_tool": "extra_forbidden"},
    ),
    "profile: only blank categories": (
        PROFILE,
        {"allowed_skill_categories": [" ", ""]},
        {"allowed_skill_categories": "blank_categories"},
    ),
    "action: a bad nested profile": (
        ACTION,
        {"safety_profile": {"require_sandbox": "false"}},
        {"safety_profile.require_sandbox": "bool_type"},
    ),
    "action: null where the key may only be left out": (
        ACTION,
        {"description": None},
        {"description": "null_not_allowed"},
    ),
    "action: an empty name": (ACTION, {"name": ""}, {"name": "string_too_short"}),
    "automation profile: a string flag": (
        AUTOMATION,
        {"require_sandbox": "yes"},
        {"require_sandbox": "bool_type"},
    ),
    "automation profile: .nan kept as written": (
        AUTOMATION,
        {"confidence": float("nan")},
        {"confidence": "non_finite_number"},
    ),
    "ref: a bad profile": (
        REF,
        {"profile": {"max_retries_per_step": 500}},
        {"profile.max_retries_per_step": "less_than_equal"},
    ),
    "ref: an unknown provenance": (REF, {"provenance": "USER"}, {"provenance": "enum"}),
}


@pytest.mark.parametrize("case", list(BAD_COPIES))
def test_a_copy_that_breaks_the_rules_is_refused(case: str) -> None:
    model, update, expected = BAD_COPIES[case]
    with pytest.raises(ValidationError) as raised:
        model.model_copy(update=update)
    assert error_fields(raised.value) == expected


def test_a_valid_copy_is_normalised_and_keeps_what_was_set() -> None:
    copy = PROFILE.model_copy(update={"allowed_skill_categories": [" ops ", "ops", "code"]})
    assert copy.allowed_skill_categories == ("ops", "code")
    assert copy.model_fields_set == PROFILE.model_fields_set | {"allowed_skill_categories"}
    assert copy.max_retries_per_step == PROFILE.max_retries_per_step
    unset = SafetyProfile().model_copy(update={"max_retries_per_step": 7})
    assert unset.model_fields_set == {"max_retries_per_step"}  # `show` marks the rest defaults


def test_a_valid_copy_of_an_action_keeps_its_other_keys_and_profile() -> None:
    action = Action.from_config({**ACTION.model_dump(), "owner": {"team": "ops"}})
    copy = action.model_copy(update={"name": "local/other"}, deep=True)
    assert copy.name == "local/other"
    assert copy.model_extra == {"owner": {"team": "ops"}}
    assert copy.model_extra["owner"] is not action.model_extra["owner"]  # deep
    assert copy.safety_profile == action.safety_profile


def test_a_copy_without_update_is_the_same_model() -> None:
    assert PROFILE.model_copy() == PROFILE
    assert REF.model_copy(deep=True) == REF


# -- strict=False and the other entry points ---------------------------------------------------
class HoldsAProfile(BaseModel):
    """An application's own model, holding one of ours."""

    profile: SafetyProfile


LAX_CALLS: dict[str, Callable[[], object]] = {
    "model_validate strict=False (the issue)": lambda: SafetyProfile.model_validate(
        {"require_sandbox": "false"}, strict=False
    ),
    "model_validate strict=False, a string count": lambda: SafetyProfile.model_validate(
        {"max_retries_per_step": "5"}, strict=False
    ),
    "model_validate strict=False, a boolean count": lambda: SafetyProfile.model_validate(
        {"max_retries_per_step": True}, strict=False
    ),
    "model_validate strict=False, a string cost": lambda: SafetyProfile.model_validate(
        {"max_total_cost": "5"}, strict=False
    ),
    "model_validate strict=False, bytes category": lambda: SafetyProfile.model_validate(
        {"allowed_skill_categories": [b"ops"]}, strict=False
    ),
    "model_validate_json strict=False": lambda: SafetyProfile.model_validate_json(
        '{"allow_unsafe_tools": "no"}', strict=False
    ),
    "model_validate_strings": lambda: SafetyProfile.model_validate_strings(
        {"require_sandbox": "false"}
    ),
    "TypeAdapter strict=False": lambda: TypeAdapter(SafetyProfile).validate_python(
        {"require_sandbox": 0}, strict=False
    ),
    "an application's model, strict=False": lambda: HoldsAProfile.model_validate(
        {"profile": {"require_sandbox": "off"}}, strict=False
    ),
    "Action strict=False, nested profile": lambda: Action.model_validate(
        {**ACTION.model_dump(), "safety_profile": {"allow_unsafe_tools": "yes"}}, strict=False
    ),
    "Action strict=False, a number for a name": lambda: Action.model_validate(
        {**ACTION.model_dump(), "name": 7}, strict=False
    ),
    "AutomationProfile strict=False": lambda: AutomationProfile.model_validate(
        {"require_sandbox": "true"}, strict=False
    ),
    "SafetyProfileRef strict=False": lambda: SafetyProfileRef.model_validate(
        {"profile": {"require_checkpoints": 1}, "provenance": "PLAN"}, strict=False
    ),
}


@pytest.mark.parametrize("call", list(LAX_CALLS))
def test_no_lax_coercion_through_any_entry_point(call: str) -> None:
    with pytest.raises(ValidationError) as raised:
        LAX_CALLS[call]()
    assert set(error_fields(raised.value).values()) <= {
        "bool_type",
        "int_type",
        "float_type",
        "string_type",
    }


def test_lax_calls_still_accept_what_the_schema_accepts() -> None:
    data = PROFILE.model_dump()
    assert SafetyProfile.model_validate(data, strict=False) == PROFILE
    assert SafetyProfile.model_validate_json(PROFILE.model_dump_json(), strict=False) == PROFILE
    assert SafetyProfile.model_validate({"max_retries_per_step": 3.0}, strict=False) == (
        SafetyProfile(max_retries_per_step=3)  # JSON Schema's integer, as without strict=False
    )
    # Every value of a profile is a boolean, a number or a list: from strings, only defaults.
    assert SafetyProfile.model_validate_strings({}) == SafetyProfile()
    assert HoldsAProfile.model_validate({"profile": data}, strict=False).profile == PROFILE


def test_messages_for_wrong_types_are_unchanged() -> None:
    """The exact type check raises pydantic's own errors: same type, same words."""
    with pytest.raises(ValidationError) as raised:
        SafetyProfile(require_sandbox="false")  # type: ignore[arg-type]
    (detail,) = raised.value.errors()
    assert (detail["type"], detail["msg"], detail["input"]) == (
        "bool_type",
        "Input should be a valid boolean",
        "false",
    )


def test_the_json_schema_pydantic_writes_is_unchanged() -> None:
    """`model_json_schema()` still describes plain JSON types (the checks add no wrapper)."""
    properties = SafetyProfile.model_json_schema()["properties"]
    assert properties["require_sandbox"]["type"] == "boolean"
    retries = properties["max_retries_per_step"]
    assert (retries["type"], retries["minimum"], retries["maximum"]) == ("integer", 0, 100)


# -- model_construct: the documented escape hatch -------------------------------------------------
def test_model_construct_validates_nothing_as_pydantic_documents() -> None:
    unchecked = SafetyProfile.model_construct(max_retries_per_step=500)
    assert unchecked.max_retries_per_step == 500
    # Validating its data, as any reader of it does, refuses it.
    with pytest.raises(ValidationError):
        SafetyProfile.model_validate(unchecked.model_dump())


def test_resolution_and_actions_get_the_profile_itself() -> None:
    """A valid profile is passed through, not rebuilt: resolution returns the very object."""
    assert resolve_safety_profile_ref(plan_profile=PROFILE).profile is PROFILE
    assert REF.provenance is Provenance.PROJECT
    assert ACTION.model_copy(update={"safety_profile": PROFILE}).safety_profile is PROFILE
