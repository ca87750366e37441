"""The action examples, through the Python API, the real CLI, and the JSON Schema tools.

The JSON Schema side resolves `$ref` between the schema files with a local `referencing`
registry: nothing is ever fetched (an unknown reference would fail, not download).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import (
    EXAMPLES,
    SCHEMA_DIR,
    check_example,
    expected_output_path,
    local_schema_registry,
    model_accepts,
    relative,
    valid_output,
)
from programs import run_program
from shown_profile import shown_profile_lines

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.document_check import ACTION
from cleveragents.domain.models.core.document_values import shown_document
from cleveragents.reading.document import load_yaml_document
from cleveragents.reading.loaded_file import load_file
from cleveragents.reading.validation import check_yaml_bytes
from cleveragents.safety_toolkit.core.kinds import KINDS
from cleveragents.safety_toolkit.core.show import render_effective

VALID_ACTIONS = sorted((EXAMPLES / "actions" / "valid").glob("*.yaml"))
INVALID_ACTIONS = sorted((EXAMPLES / "actions" / "invalid").glob("*.yaml"))


def action_validator() -> jsonschema.Draft202012Validator:
    """The action schema with every schema file registered under its `$id` (no retrieval)."""
    registry = local_schema_registry(SCHEMA_DIR)
    schema = json.loads((SCHEMA_DIR / "action.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema, registry=registry)


VALIDATOR = action_validator()


# -- Python API ------------------------------------------------------------------------------
@pytest.mark.parametrize("example", VALID_ACTIONS, ids=lambda p: p.name)
def test_valid_examples_load_and_round_trip(example: Path) -> None:
    instance, rendered = check_example(example, Action)
    assert rendered == ""
    assert isinstance(instance, Action)
    assert Action.model_validate_json(instance.model_dump_json()) == instance


@pytest.mark.parametrize("example", INVALID_ACTIONS, ids=lambda p: p.name)
def test_invalid_examples_give_exactly_the_expected_messages(example: Path) -> None:
    instance, rendered = check_example(example, Action)
    assert instance is None
    assert rendered == expected_output_path(example).read_text(encoding="utf-8")


def test_every_invalid_example_has_a_snapshot_and_no_snapshot_is_orphaned() -> None:
    snapshots = sorted((EXAMPLES / "actions" / "invalid").glob("*.expected"))
    assert snapshots == sorted(expected_output_path(example) for example in INVALID_ACTIONS)


# -- The real CLI ----------------------------------------------------------------------------
def test_cli_accepts_every_valid_example() -> None:
    result = run_program(
        "safety-profile", "check", "--kind", "action", *map(relative, VALID_ACTIONS)
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == valid_output(VALID_ACTIONS)  # no error; warnings, if any


def test_cli_reports_every_invalid_example_exactly() -> None:
    result = run_program(
        "safety-profile", "check", "--kind", "action", *map(relative, INVALID_ACTIONS)
    )
    expected = "".join(
        expected_output_path(example).read_text(encoding="utf-8") for example in INVALID_ACTIONS
    )
    count = len(INVALID_ACTIONS)
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout == expected + f"{count} of {count} files invalid\n"


def test_cli_json_format_gives_the_nested_path_and_position() -> None:
    example = EXAMPLES / "actions" / "invalid" / "nested_retries_above_maximum.action.yaml"
    result = run_program(
        "safety-profile", "check", "--kind", "action", "--format", "json", str(example)
    )
    (problem,) = json.loads(result.stdout)
    assert result.returncode == 1
    assert (problem["line"], problem["column"], problem["path"]) == (
        7,
        25,
        "safety_profile.max_retries_per_step",
    )


SHOWN_EXTRA_FIELDS = """\
# Effective Action for examples/actions/valid/extra_fields.action.yaml
name: "team/release-notes"                                    # from file
description: "Draft release notes from merged pull requests"  # from file
definition_of_done: "Notes are reviewed"                      # from file
strategy_actor: "team/planner"                                # from file
execution_actor: "team/writer"                                # from file
safety_profile:                                               # from file
{}
inputs: [{{"name": "since", "type": "string"}}]                 # from file
tags: ["docs", "release"]                                     # from file
timeout_seconds: 600                                          # from file
""".format(
    "\n".join(
        shown_profile_lines(
            {
                "allowed_skill_categories": '["docs", "git"]',
                "require_sandbox": "false",
                "max_cost_per_plan": "5.0",
                "max_total_cost": "20.0",
            },
            indent="  ",
            width=len('description: "Draft release notes from merged pull requests"'),
        )
    )
)


def test_cli_show_renders_the_nested_profile_field_by_field() -> None:
    result = run_program(
        "safety-profile",
        "show",
        "--kind",
        "action",
        "examples/actions/valid/extra_fields.action.yaml",
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == SHOWN_EXTRA_FIELDS


@pytest.mark.parametrize("example", VALID_ACTIONS, ids=lambda p: p.name)
def test_shown_action_is_yaml_that_loads_back_to_the_same_action(example: Path) -> None:
    original = Action.from_yaml(example)
    loaded = load_file(str(example)).mapping
    assert loaded is not None
    shown = render_effective(shown_document(ACTION, loaded), relative(example)).encode()
    assert check_yaml_bytes(shown, "shown.yaml", Action).instance == original


def test_cli_prints_the_action_schema() -> None:
    result = run_program("safety-profile", "schema", "--kind", "action")
    assert result.returncode == 0
    assert json.loads(result.stdout) == json.loads(
        (SCHEMA_DIR / "action.schema.json").read_text(encoding="utf-8")
    )


# -- The JSON Schema agrees with the model -----------------------------------------------------
# Beyond the schema, the model applies the profile's documented extra rules (finite costs, the
# cost order); every other verdict must be the same.
EXTRA_RULE_EXAMPLES = {
    "nested_cost_order.action.yaml",
    # Non-finite numbers kept as written could not be stored as JSON.
    "automation_profile_infinite.action.yaml",
    "extra_field_nan.action.yaml",
    # A near miss of a field name is a typo, not another key kept as written; so is a key that
    # only looks like a field, and a profile field written one level too far out.
    "misspelt_safety_profile.action.yaml",
    "confusable_safety_profile.action.yaml",
    "profile_field_unindented.action.yaml",
}


def _loaded(example: Path) -> dict[str, Any] | None:
    document = load_yaml_document(example.read_bytes(), example.name)
    if document.problems or not isinstance(document.value, dict):
        return None  # a YAML-level problem: not a question for the schema
    return document.value


LOADED_EXAMPLES = {
    example.name: instance
    for example in VALID_ACTIONS + INVALID_ACTIONS
    if (instance := _loaded(example)) is not None
}


@pytest.mark.parametrize("name", sorted(LOADED_EXAMPLES))
def test_schema_and_model_agree_on_every_example(name: str) -> None:
    instance = LOADED_EXAMPLES[name]
    schema_verdict = VALIDATOR.is_valid(instance)
    if name in EXTRA_RULE_EXAMPLES:
        assert (schema_verdict, model_accepts(Action, instance)) == (True, False)
    else:
        assert model_accepts(Action, instance) == schema_verdict


REQUIRED = {"name": "n", "definition_of_done": "d", "strategy_actor": "s", "execution_actor": "e"}


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"description": None},
        {"description": ""},
        {"safety_profile": None},
        {"safety_profile": {}},
        {"safety_profile": {"unknown": 1}},
        {"safety_profile": {"max_retries_per_step": 3.0}},
        {"safety_profile": {"max_retries_per_step": True}},
        {"automation_profile": None},
        {"automation_profile": {}},
        {"automation_profile": {"require_sandbox": None}},
        {"automation_profile": {"require_sandbox": "false"}},
        {"automation_profile": {"anything": None, "gate": {"min": 0.5}}},
        {"other": None, "steps": [1, 2]},
        {"name": ""},
        {"name": None},
        {"execution_actor": 5},
    ],
)
def test_schema_and_model_agree_on_edge_cases(changes: dict[str, Any]) -> None:
    instance = {**REQUIRED, **changes}
    assert model_accepts(Action, instance) == VALIDATOR.is_valid(instance), instance


# -- Other JSON Schema tools, offline ----------------------------------------------------------
@pytest.mark.parametrize("name", ["action.schema.json", "automation_profile.schema.json"])
def test_new_schemas_pass_the_real_metaschema_check(name: str) -> None:
    result = run_program("check-jsonschema", "--check-metaschema", str(SCHEMA_DIR / name))
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_jsonschema_resolves_the_profile_reference_from_the_installed_folder() -> None:
    # `$ref: safety_profile.schema.json` resolves against the `$id` (an https URL nothing
    # serves); `--base-uri` points it at the installed schema folder instead.
    schema = KINDS["action"].schema_path()
    base = ["--base-uri", schema.as_uri(), "--schemafile", str(schema)]
    valid = run_program("check-jsonschema", *base, *map(relative, VALID_ACTIONS))
    assert valid.returncode == 0, valid.stdout + valid.stderr
    bad = EXAMPLES / "actions" / "invalid" / "nested_retries_above_maximum.action.yaml"
    invalid = run_program("check-jsonschema", *base, relative(bad))
    assert invalid.returncode == 1
    assert "$.safety_profile.max_retries_per_step: 500 is greater than the maximum of 100" in (
        invalid.stdout
    )
