"""Strictness, defined once in the layer: for each field, which of two values is stricter."""

from __future__ import annotations

from typing import Any

import pytest
from field_lists import SCHEMA_FIELDS
from hypothesis import given, settings
from hypothesis import strategies as st
from strictness_changes import CHANGES

from cleveragents.domain.models.core.safety_profile import DEFAULT_SAFETY_PROFILE, SafetyProfile
from cleveragents.domain.models.core.strictness import (
    STRICTNESS_RULES,
    Change,
    FieldChange,
    compare_profiles,
)

T, L = Change.TIGHTENS, Change.LOOSENS

# (field, old value, new value): equally strict, so no change is reported.
SAME: list[tuple[str, Any, Any]] = [
    ("require_sandbox", True, True),
    ("allow_unsafe_tools", False, False),
    ("max_cost_per_plan", None, None),
    ("max_total_cost", 100, 100.0),
    ("max_retries_per_step", 3, 3.0),
    ("allowed_skill_categories", ["deploy", "test"], ["test", "deploy"]),
    ("allowed_skill_categories", ["deploy"], [" deploy", "deploy"]),  # normalised first
    ("allowed_skill_categories", [], []),
]


def profile(**fields: Any) -> SafetyProfile:
    return SafetyProfile.from_config(fields)


@pytest.mark.parametrize(("field", "old", "new", "forward", "backward"), CHANGES)
def test_each_field_in_both_directions(
    field: str, old: Any, new: Any, forward: Change, backward: Change
) -> None:
    old_profile, new_profile = profile(**{field: old}), profile(**{field: new})
    expected = FieldChange(field, getattr(old_profile, field), getattr(new_profile, field), forward)
    assert compare_profiles(old_profile, new_profile) == (expected,)
    assert [c.change for c in compare_profiles(new_profile, old_profile)] == [backward]
    assert new_profile.is_at_least_as_strict_as(old_profile) is (forward is T)
    assert old_profile.is_at_least_as_strict_as(new_profile) is (backward is T)


@pytest.mark.parametrize(("field", "old", "new"), SAME)
def test_equally_strict_values_are_no_change(field: str, old: Any, new: Any) -> None:
    old_profile, new_profile = profile(**{field: old}), profile(**{field: new})
    assert compare_profiles(old_profile, new_profile) == ()
    assert new_profile.is_at_least_as_strict_as(old_profile)
    assert old_profile.is_at_least_as_strict_as(new_profile)


def test_the_table_covers_every_field_both_ways() -> None:
    tightening = {field for field, _, _, forward, _ in CHANGES if forward is T}
    loosening = {field for field, _, _, forward, _ in CHANGES if forward is L}
    assert tightening == loosening == set(SCHEMA_FIELDS)


def test_every_schema_field_has_a_strictness_rule() -> None:
    # A new schema field without a rule would be silently ignored by every comparison.
    assert set(STRICTNESS_RULES) == set(SCHEMA_FIELDS) == set(SafetyProfile.model_fields)
    assert all(rule.stricter for rule in STRICTNESS_RULES.values())


def test_a_field_without_a_rule_is_an_error_not_ignored() -> None:
    class WiderProfile(SafetyProfile):
        require_blessing: bool = False

    with pytest.raises(LookupError, match="no strictness rule for the field 'require_blessing'"):
        compare_profiles(WiderProfile(), WiderProfile(require_blessing=True))


def test_the_issue_examples_field_by_field() -> None:
    old = profile(allowed_skill_categories=["deploy"], max_total_cost=100.0, max_retries_per_step=5)
    new = profile(allowed_skill_categories=[], max_total_cost=None, max_retries_per_step=2)
    assert compare_profiles(old, new) == (
        FieldChange("allowed_skill_categories", ("deploy",), (), L),
        FieldChange("max_retries_per_step", 5, 2, T),
        FieldChange("max_total_cost", 100.0, None, L),
    )
    assert [change.loosens for change in compare_profiles(old, new)] == [True, False, True]
    assert not new.is_at_least_as_strict_as(old)
    assert not old.is_at_least_as_strict_as(new)  # it allows more retries


def test_a_key_left_out_counts_as_its_default() -> None:
    assert compare_profiles(profile(require_sandbox=True, max_retries_per_step=3), profile()) == ()
    assert profile().is_at_least_as_strict_as(DEFAULT_SAFETY_PROFILE)


# -- properties over many profiles: a partial order -------------------------------------------
def _profile_fields(costs: tuple[float | None, float | None]) -> st.SearchStrategy[SafetyProfile]:
    return st.builds(
        SafetyProfile,
        allowed_skill_categories=st.lists(st.sampled_from(["code", "test", "deploy"])),
        require_sandbox=st.booleans(),
        require_checkpoints=st.booleans(),
        require_human_approval=st.booleans(),
        allow_unsafe_tools=st.booleans(),
        max_cost_per_plan=st.just(costs[0]),
        max_retries_per_step=st.sampled_from([0, 3, 5]),
        max_total_cost=st.just(costs[1]),
    )


ordered_costs = st.sampled_from([None, 0.0, 10.0, 100.0]).flatmap(
    lambda total: st.tuples(
        st.sampled_from([None, 0.0, 10.0, 100.0]).filter(
            lambda per_plan: total is None or per_plan is None or per_plan <= total
        ),
        st.just(total),
    )
)
profiles = ordered_costs.flatmap(_profile_fields)


@settings(max_examples=300, deadline=None)
@given(profiles, profiles, profiles)
def test_at_least_as_strict_is_a_partial_order(
    a: SafetyProfile, b: SafetyProfile, c: SafetyProfile
) -> None:
    assert a.is_at_least_as_strict_as(a)
    if a.is_at_least_as_strict_as(b) and b.is_at_least_as_strict_as(a):
        assert compare_profiles(a, b) == ()
    if a.is_at_least_as_strict_as(b) and b.is_at_least_as_strict_as(c):
        assert a.is_at_least_as_strict_as(c)
    # Every field reported as changed really differs.
    assert all(change.old != change.new for change in compare_profiles(a, b))
