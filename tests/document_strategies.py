"""Hypothesis strategies for documents where the schema, the models and the check that accepts
valid files without pydantic could disagree: schema-valid documents with one key changed to a
value at the edge of what some field accepts, or to any JSON-like value."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from conftest import PROFILE_SCHEMA_PATH, SCHEMA_DIR
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

PROFILE_SCHEMA: dict[str, Any] = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
PROFILE_FIELDS = list(PROFILE_SCHEMA["properties"])

# Values at the edges of what some field accepts, where a lax or over-strict model would show.
edge_values = st.sampled_from(
    [
        0,
        3,
        100,
        101,
        -1,
        3.0,
        100.0,
        101.0,
        3.5,
        0.0,
        -0.0,
        -0.5,
        1e308,
        10**400,
        -(10**400),
        math.nan,
        math.inf,
        -math.inf,
        "3",
        "3.0",
        "true",
        "false",
        "no",
        "null",
        "",
        True,
        False,
        None,
        [],
        ["code"],
        [" code ", "", "code"],
        ["code", 1],
        ["code", None],
        {},
        {"a": 1},
    ]
)
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
)
json_values = edge_values | st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)
near_miss_keys = st.sampled_from(PROFILE_FIELDS) | st.sampled_from(
    ["allow_unsafe_tool", "Require_sandbox", "max_retries", "", "extra"]
)


def with_one_change(valid: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """A schema-valid instance with one key set to an arbitrary value: near misses are where
    the schema and the model could disagree."""
    return {**valid, key: value}


candidate_profiles = st.builds(
    with_one_change, from_schema(PROFILE_SCHEMA), near_miss_keys, json_values
)


def resolved_schema(name: str, folder: Path = SCHEMA_DIR) -> dict[str, Any]:
    """A schema file with each `$ref` to another schema file replaced by that schema (for
    generators that cannot follow references between files)."""

    def resolve(node: Any) -> Any:
        if isinstance(node, list):
            return [resolve(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            referenced = json.loads((folder / node["$ref"]).read_text(encoding="utf-8"))
            return resolve({k: v for k, v in referenced.items() if k not in ("$id", "$schema")})
        return {key: resolve(value) for key, value in node.items()}

    schema: dict[str, Any] = resolve(json.loads((folder / name).read_text(encoding="utf-8")))
    return schema
