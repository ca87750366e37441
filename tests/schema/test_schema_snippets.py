"""The schema's starter snippet is written from its properties by scripts/generate_snippets.py."""

from __future__ import annotations

import importlib.util
import json
from types import ModuleType

from conftest import PROFILE_SCHEMA_PATH, REPO_ROOT


def _generator() -> ModuleType:
    path = REPO_ROOT / "scripts" / "generate_snippets.py"
    spec = importlib.util.spec_from_file_location("generate_snippets", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_schema_has_the_generated_starter_snippet() -> None:
    text = PROFILE_SCHEMA_PATH.read_text(encoding="utf-8")
    assert _generator().with_starter_snippet(text) == text, (
        "the starter snippet is stale: run .venv/bin/python scripts/generate_snippets.py"
    )


def test_starter_snippet_names_every_field_once_at_its_default() -> None:
    schema = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
    body = schema["defaultSnippets"][0]["bodyText"]
    lines = body.split("\n")
    assert [line.split(":", 1)[0] for line in lines] == list(schema["properties"])
    for number, (line, prop) in enumerate(
        zip(lines, schema["properties"].values(), strict=True), start=1
    ):
        assert line.endswith(f"${{{number}:{json.dumps(prop['default'])}}}"), line


def test_a_new_property_gets_the_next_tab_stop() -> None:
    schema = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
    schema["properties"]["a_field_not_in_the_schema"] = {"type": "boolean", "default": False}
    body = _generator().starter_body(schema)
    number = len(schema["properties"])
    assert body.endswith(f"\na_field_not_in_the_schema: ${{{number}:false}}")
