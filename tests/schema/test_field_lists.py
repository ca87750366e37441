"""The spec's table of fields, kept once in tests/field_lists.py, agrees with the schema."""

from __future__ import annotations

from field_lists import COSTS, FLAGS, PROPERTIES, SCHEMA_FIELDS, SPEC_FIELDS


def test_every_field_of_the_spec_is_in_the_schema_with_its_type_and_default() -> None:
    for name, (json_type, default) in SPEC_FIELDS.items():
        assert name in PROPERTIES, name
        assert PROPERTIES[name]["type"] == json_type, name
        assert PROPERTIES[name]["default"] == default, name


def test_the_schema_keeps_the_spec_order_for_the_spec_fields() -> None:
    assert [name for name in SCHEMA_FIELDS if name in SPEC_FIELDS] == list(SPEC_FIELDS)


def test_derived_lists_name_the_spec_fields_they_stand_for() -> None:
    assert set(FLAGS) >= {"require_sandbox", "require_checkpoints", "require_human_approval"}
    assert set(COSTS) >= {"max_cost_per_plan", "max_total_cost"}
