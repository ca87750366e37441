"""The field facts kept beside the schema (`x-strictness` on each property of
schema/safety_profile.schema.json) are the one table strictness, the rule catalogue, diff's and
the floor's words, the overlapping flags and the docs' field tables are built from."""

from __future__ import annotations

import json

import pytest
from conftest import REPO_ROOT

from cleveragents.domain.models.core.automation_profile import OVERLAPPING_SAFETY_FLAGS
from cleveragents.domain.models.core.strictness import STRICTNESS_RULES
from cleveragents.reading.field_facts import FIELD_FACTS, Stricter, field_facts
from cleveragents.reading.rules import STRICTER
from cleveragents.safety_toolkit.core.field_docs import FIELD_TABLES, with_field_table

SCHEMA = REPO_ROOT / "schema"
PAGES = {"stricter": REPO_ROOT / "docs" / "loosening.md", "floor": REPO_ROOT / "docs" / "floor.md"}


def _properties(name: str) -> dict[str, dict[str, object]]:
    schema = json.loads((SCHEMA / f"{name}.schema.json").read_text(encoding="utf-8"))
    properties: dict[str, dict[str, object]] = schema["properties"]
    return properties


def test_every_profile_field_has_facts_and_they_are_the_schemas() -> None:
    properties = _properties("safety_profile")
    assert list(FIELD_FACTS) == list(properties)
    for name, facts in FIELD_FACTS.items():
        written = properties[name]["x-strictness"]
        assert isinstance(written, dict)
        assert facts.stricter == written["stricter"]
        assert facts.null == written.get("null", "")
        assert facts.empty == written.get("empty", "")


def test_the_facts_agree_with_the_schemas_types() -> None:
    # A direction that cannot compare the field's values is a mistake in the table.
    kinds = {
        Stricter.TRUE: "boolean",
        Stricter.FALSE: "boolean",
        Stricter.LOWER: ("number", "integer"),
        Stricter.SUBSET: "array",
    }
    for name, facts in FIELD_FACTS.items():
        types = _properties("safety_profile")[name]["type"]
        types = [types] if isinstance(types, str) else types
        assert isinstance(types, list)
        assert any(t in kinds[facts.stricter] for t in types), name
        assert bool(facts.null) == ("null" in types), name
        assert bool(facts.empty) == bool(facts.item) == (facts.stricter is Stricter.SUBSET), name


def test_the_flags_an_automation_profile_yields_are_the_ones_both_schemas_have() -> None:
    shared = [n for n in _properties("safety_profile") if n in _properties("automation_profile")]
    assert list(OVERLAPPING_SAFETY_FLAGS) == shared


def test_strictness_and_the_catalogue_are_built_from_the_facts() -> None:
    assert list(STRICTNESS_RULES) == list(STRICTER) == list(FIELD_FACTS)
    for name, rule in STRICTNESS_RULES.items():
        assert rule.stricter == STRICTER[name] == FIELD_FACTS[name].stricter_words


def test_a_field_without_facts_says_where_to_add_them() -> None:
    with pytest.raises(LookupError, match=r"x-strictness .* scripts/generate_validators\.py"):
        field_facts("require_blessing")


@pytest.mark.parametrize("name", sorted(FIELD_TABLES))
def test_the_docs_field_tables_are_the_facts_written_out(name: str) -> None:
    page = PAGES[name].read_text(encoding="utf-8")
    assert page == with_field_table(page, name), (
        f"the field table of {PAGES[name].relative_to(REPO_ROOT)} is out of date: run "
        ".venv/bin/python scripts/generate_rule_docs.py"
    )
    for field in FIELD_FACTS:
        assert f"`{field}`" in page.split("<!-- end field-table -->")[0]
