"""The field lists tests use, derived from the schema; the spec's table is written here once.

`SPEC_FIELDS` is the only hand-written list of fields in the tests: the specification's table
(name, JSON type, default), which `tests/schema/test_field_lists.py` compares with the schema. Every
other list a test needs comes from the schema's properties and their `x-strictness` facts, so a
new field in the schema reaches every test that loops over fields without a test edit.
"""

from __future__ import annotations

import json
from typing import Any

from conftest import PROFILE_SCHEMA_PATH

# The specification's table of fields: name -> (JSON type, default), in the spec's order.
SPEC_FIELDS: dict[str, tuple[Any, Any]] = {
    "allowed_skill_categories": ("array", []),
    "require_sandbox": ("boolean", True),
    "require_checkpoints": ("boolean", True),
    "require_human_approval": ("boolean", False),
    "allow_unsafe_tools": ("boolean", False),
    "max_cost_per_plan": (["number", "null"], None),
    "max_retries_per_step": ("integer", 3),
    "max_total_cost": (["number", "null"], None),
}

PROPERTIES: dict[str, dict[str, Any]] = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))[
    "properties"
]
# Every field of the schema, in its order.
SCHEMA_FIELDS: list[str] = list(PROPERTIES)
# Each field's default, as the schema states it.
SCHEMA_DEFAULTS: dict[str, Any] = {name: prop["default"] for name, prop in PROPERTIES.items()}


def _stricter(direction: str) -> tuple[str, ...]:
    return tuple(
        name for name, prop in PROPERTIES.items() if prop["x-strictness"]["stricter"] == direction
    )


# Booleans where true is stricter (require_*), where false is stricter (allow_*).
FLAGS: tuple[str, ...] = _stricter("true")
ALLOW_FLAGS: tuple[str, ...] = _stricter("false")
# Limits where lower is stricter and null means no limit (the cost ceilings).
COSTS: tuple[str, ...] = tuple(
    name for name in _stricter("lower") if PROPERTIES[name]["x-strictness"].get("null")
)
