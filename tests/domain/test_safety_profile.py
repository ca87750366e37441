"""Part 3: the hand-written SafetyProfile layer, one test per statement of the specification."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from field_lists import SCHEMA_DEFAULTS, SPEC_FIELDS
from pydantic import ValidationError

from cleveragents.domain.models.core.safety_profile import (
    DEFAULT_SAFETY_PROFILE,
    Provenance,
    SafetyProfile,
    SafetyProfileRef,
    resolve_safety_profile,
)
from cleveragents.reading.field_facts import FIELD_FACTS
from cleveragents.reading.problems import ProfileFileError

SPEC_YAML = EXAMPLES / "valid" / "spec_example.safety_profile.yaml"


# -- Schema table and Default Profile ----------------------------------------------------------
def test_defaults_match_the_spec_table() -> None:
    dumped = SafetyProfile().model_dump(mode="json")
    assert dumped == SCHEMA_DEFAULTS
    assert {name: dumped[name] for name in SPEC_FIELDS} == {
        name: default for name, (_, default) in SPEC_FIELDS.items()
    }


def test_default_profile_constant_equals_a_fresh_default() -> None:
    assert SafetyProfile() == DEFAULT_SAFETY_PROFILE
    assert DEFAULT_SAFETY_PROFILE.allowed_skill_categories == ()  # empty = all allowed


def test_default_profile_is_immutable() -> None:
    with pytest.raises(ValidationError, match="frozen"):
        DEFAULT_SAFETY_PROFILE.require_sandbox = False  # type: ignore[misc]
    assert DEFAULT_SAFETY_PROFILE.require_sandbox is True


def test_categories_cannot_be_mutated_in_place() -> None:
    profile = SafetyProfile(allowed_skill_categories=["code"])
    with pytest.raises(AttributeError):
        profile.allowed_skill_categories.append("deploy")  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        DEFAULT_SAFETY_PROFILE.allowed_skill_categories.append("x")  # type: ignore[attr-defined]
    assert profile.allowed_skill_categories == ("code",)
    assert DEFAULT_SAFETY_PROFILE.allowed_skill_categories == ()


def test_categories_serialise_as_a_json_array() -> None:
    profile = SafetyProfile(allowed_skill_categories=["code", "test"])
    assert json.loads(profile.model_dump_json())["allowed_skill_categories"] == ["code", "test"]


def test_profiles_are_hashable_and_compare_by_value() -> None:
    first = SafetyProfile(allowed_skill_categories=["code"], max_cost_per_plan=5)
    second = SafetyProfile(allowed_skill_categories=[" code", "code"], max_cost_per_plan=5.0)
    assert first == second
    assert hash(first) == hash(second)
    assert len({first, second, DEFAULT_SAFETY_PROFILE}) == 2
    assert first != SafetyProfile(allowed_skill_categories=["code"], max_cost_per_plan=6)


# -- Cross-field validation --------------------------------------------------------------------
def test_per_plan_cost_above_total_cost_is_rejected() -> None:
    with pytest.raises(ValidationError) as caught:
        SafetyProfile(max_cost_per_plan=300.0, max_total_cost=200.0)
    assert "must not exceed the total cost" in str(caught.value)


@pytest.mark.parametrize(
    ("per_plan", "total"), [(200.0, 200.0), (0, 0), (None, 5.0), (5.0, None), (None, None)]
)
def test_cost_ordering_allows_equal_and_single_limits(
    per_plan: float | None, total: float | None
) -> None:
    profile = SafetyProfile(max_cost_per_plan=per_plan, max_total_cost=total)
    assert (profile.max_cost_per_plan, profile.max_total_cost) == (per_plan, total)


# -- Input validation --------------------------------------------------------------------------
def test_categories_are_stripped_blanks_dropped_and_deduplicated_in_order() -> None:
    profile = SafetyProfile(
        allowed_skill_categories=[" test", "code ", "", "   ", "test", "deploy"]
    )
    assert profile.allowed_skill_categories == ("test", "code", "deploy")


@pytest.mark.parametrize("value", ["code", {"code": True}, 3, {"code"}])
def test_non_list_categories_raise_value_error(value: Any) -> None:
    with pytest.raises(ValueError, match="allowed_skill_categories"):
        SafetyProfile(allowed_skill_categories=value)


@pytest.mark.parametrize("item", [1, None, True, 2.5, ["code"]])
def test_non_string_category_items_raise_value_error(item: Any) -> None:
    with pytest.raises(ValueError, match="allowed_skill_categories"):
        SafetyProfile(allowed_skill_categories=["code", item])


@pytest.mark.parametrize("field", ["max_cost_per_plan", "max_total_cost"])
@pytest.mark.parametrize("value", [-0.01, -1, -math.inf])
def test_negative_costs_are_rejected(field: str, value: float) -> None:
    with pytest.raises(ValidationError, match=field):
        SafetyProfile(**{field: value})


@pytest.mark.parametrize("field", ["max_cost_per_plan", "max_total_cost"])
@pytest.mark.parametrize("value", [math.nan, math.inf, 10**400])
def test_non_finite_costs_are_rejected(field: str, value: float) -> None:
    with pytest.raises(ValidationError, match=field):
        SafetyProfile(**{field: value})


@pytest.mark.parametrize("value", [0, 12, 0.0, 1e308, -0.0])
def test_finite_non_negative_costs_including_ints_are_accepted(value: float) -> None:
    assert SafetyProfile(max_cost_per_plan=value).max_cost_per_plan == value


@pytest.mark.parametrize("value", ["5", True, "null", [5]])
def test_costs_are_not_coerced(value: Any) -> None:
    with pytest.raises(ValidationError, match="max_total_cost"):
        SafetyProfile(max_total_cost=value)


@pytest.mark.parametrize("value", [0, 3, 100, 3.0, 100.0])
def test_retries_within_bounds_are_accepted(value: float) -> None:
    retries = SafetyProfile(max_retries_per_step=value).max_retries_per_step
    assert retries == value
    assert type(retries) is int


@pytest.mark.parametrize("value", [-1, 101, 500, "3", True, False, 3.5, None, math.nan])
def test_retries_outside_bounds_or_not_integers_are_rejected(value: Any) -> None:
    with pytest.raises(ValidationError, match="max_retries_per_step"):
        SafetyProfile(max_retries_per_step=value)


@pytest.mark.parametrize(
    "field", [name for name, facts in FIELD_FACTS.items() if facts.stricter in ("true", "false")]
)
@pytest.mark.parametrize("value", ["false", "true", "yes", 0, 1, None])
def test_booleans_are_not_coerced(field: str, value: Any) -> None:
    with pytest.raises(ValidationError, match=field):
        SafetyProfile(**{field: value})


def test_unknown_keys_are_rejected() -> None:
    with pytest.raises(ValidationError, match="allow_unsafe_tool"):
        SafetyProfile.from_config({"allow_unsafe_tool": True})


# -- YAML configuration ------------------------------------------------------------------------
def test_spec_yaml_example_loads() -> None:
    profile = SafetyProfile.from_yaml(SPEC_YAML)
    assert profile == SafetyProfile(
        require_sandbox=False,
        require_checkpoints=True,
        require_human_approval=True,
        allow_unsafe_tools=False,
        max_cost_per_plan=50.0,
        max_retries_per_step=5,
        max_total_cost=200.0,
        allowed_skill_categories=["code", "test", "deploy"],
    )


def test_from_yaml_accepts_a_string_path() -> None:
    assert SafetyProfile.from_yaml(str(SPEC_YAML)) == SafetyProfile.from_yaml(SPEC_YAML)


def test_from_config_builds_from_a_dict() -> None:
    profile = SafetyProfile.from_config(
        {"max_retries_per_step": 5, "allowed_skill_categories": ["x"]}
    )
    assert profile.max_retries_per_step == 5
    assert profile.allowed_skill_categories == ("x",)


def test_from_config_rejects_a_non_mapping() -> None:
    with pytest.raises(ValueError, match="mapping"):
        SafetyProfile.from_config(["require_sandbox"])  # type: ignore[arg-type]


def test_from_yaml_missing_file_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        SafetyProfile.from_yaml(tmp_path / "absent.yaml")


@pytest.mark.parametrize(
    "content", ["", "# only a comment\n", "- code\n", "just a string\n", "42\n", "null\n"]
)
def test_from_yaml_non_mapping_root_raises_value_error(tmp_path: Path, content: str) -> None:
    path = tmp_path / "profile.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match="expected a mapping") as caught:
        SafetyProfile.from_yaml(path)
    assert isinstance(caught.value, ProfileFileError)
    assert caught.value.problems[0].file == str(path)


def test_from_yaml_error_names_file_line_column_and_field(tmp_path: Path) -> None:
    path = tmp_path / "profile.yaml"
    path.write_text("require_sandbox: true\nmax_retries_per_step: 500\n", encoding="utf-8")
    with pytest.raises(ProfileFileError) as caught:
        SafetyProfile.from_yaml(path)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.column) == (str(path), 2, 23)
    assert problem.path == "max_retries_per_step"
    assert str(caught.value) == (
        f"{path}:2:23: error: max_retries_per_step: 500 is above the maximum 100"
    )


# -- JSON round trip (the persistence format) --------------------------------------------------
@pytest.mark.parametrize(
    "profile",
    [
        DEFAULT_SAFETY_PROFILE,
        SafetyProfile(allowed_skill_categories=["a", "b"], max_cost_per_plan=1.5, max_total_cost=2),
        SafetyProfile(require_sandbox=False, allow_unsafe_tools=True, max_retries_per_step=0),
    ],
)
def test_json_round_trip_returns_an_equal_profile(profile: SafetyProfile) -> None:
    text = profile.model_dump_json()
    assert SafetyProfile.model_validate_json(text) == profile
    assert SafetyProfile.model_validate(json.loads(text)) == profile


# -- Resolution precedence, provenance and the local-mode stub ---------------------------------
def test_provenance_has_the_four_layers() -> None:
    assert [member.name for member in Provenance] == ["PLAN", "ACTION", "PROJECT", "GLOBAL"]


def test_safety_profile_ref_carries_profile_and_provenance() -> None:
    ref = SafetyProfileRef(profile=DEFAULT_SAFETY_PROFILE, provenance=Provenance.GLOBAL)
    assert ref.profile is DEFAULT_SAFETY_PROFILE
    assert ref.provenance is Provenance.GLOBAL
    with pytest.raises(ValidationError):
        ref.provenance = Provenance.PLAN  # type: ignore[misc]
    assert SafetyProfileRef.model_validate_json(ref.model_dump_json()) == ref


def test_resolve_safety_profile_raises_not_implemented_in_local_mode() -> None:
    plan_sp = SafetyProfile(max_retries_per_step=1)
    with pytest.raises(NotImplementedError, match="local mode"):
        resolve_safety_profile(
            plan_profile=plan_sp,
            action_profile=None,
            project_profile=None,
            global_profile=DEFAULT_SAFETY_PROFILE,
        )
