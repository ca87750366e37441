"""Actions ("Action Integration"): the schema, the generated model and the hand-written layer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, SCHEMA_DIR
from pydantic import ValidationError

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.automation_profile import AutomationProfile
from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.reading.problems import ProfileFileError
from cleveragents.reading.validation import check_yaml_bytes

SPEC_ACTION = EXAMPLES / "actions" / "valid" / "spec_secure_deploy.action.yaml"
REQUIRED = {
    "name": "local/x",
    "definition_of_done": "done",
    "strategy_actor": "local/default",
    "execution_actor": "local/default",
}


def action(**fields: Any) -> Action:
    return Action.from_config({**REQUIRED, **fields})


def problems_of(text: str) -> list[tuple[int, int, str, str]]:
    result = check_yaml_bytes(text.encode(), "a.yaml", Action)
    assert result.instance is None
    return [(p.line, p.column, p.path, p.message) for p in result.problems]


# -- The spec's example ------------------------------------------------------------------------
def test_spec_action_example_loads_with_a_full_safety_profile() -> None:
    loaded = Action.from_yaml(SPEC_ACTION)
    assert (loaded.name, loaded.description) == (
        "local/secure-deploy",
        "Deploy with safety constraints",
    )
    assert loaded.definition_of_done == "Deployment verified"
    assert (loaded.strategy_actor, loaded.execution_actor) == ("local/default", "local/default")
    assert loaded.safety_profile == SafetyProfile(
        require_sandbox=True,
        require_checkpoints=True,
        require_human_approval=True,
        allow_unsafe_tools=False,
        max_cost_per_plan=100.0,
        allowed_skill_categories=["deploy", "test"],
    )
    assert type(loaded.safety_profile) is SafetyProfile  # the layer, not the generated model
    assert loaded.automation_profile is None


def test_spec_action_example_round_trips_through_json_and_a_mapping() -> None:
    loaded = Action.from_yaml(SPEC_ACTION)
    assert Action.model_validate_json(loaded.model_dump_json()) == loaded
    assert Action.from_config(loaded.model_dump()) == loaded
    assert Action.from_config(json.loads(loaded.model_dump_json())) == loaded


def test_dump_leaves_absent_optional_fields_out() -> None:
    dumped = action().model_dump(mode="json")
    assert dumped == REQUIRED  # no `description: null`, `safety_profile: null`, ...
    assert Action.from_config(dumped) == action()


# -- The embedded profile has every rule of a profile file -------------------------------------
def test_embedded_profile_is_normalised_and_deeply_immutable() -> None:
    loaded = action(safety_profile={"allowed_skill_categories": [" deploy", "deploy", ""]})
    assert loaded.safety_profile is not None
    assert loaded.safety_profile.allowed_skill_categories == ("deploy",)
    with pytest.raises(ValidationError, match="frozen"):
        loaded.safety_profile = None  # type: ignore[misc]
    with pytest.raises(ValidationError, match="frozen"):
        loaded.safety_profile.require_sandbox = False  # type: ignore[misc]
    hash(loaded)


def test_embedded_profile_cost_rule_applies() -> None:
    with pytest.raises(ValidationError) as caught:
        action(safety_profile={"max_cost_per_plan": 3, "max_total_cost": 2})
    (error,) = caught.value.errors()
    assert error["loc"] == ("safety_profile", "max_total_cost")
    assert error["type"] == "cost_order"


def test_embedded_profile_retry_count_follows_json_schema_integers() -> None:
    assert action(safety_profile={"max_retries_per_step": 4.0}).safety_profile == SafetyProfile(
        max_retries_per_step=4
    )
    with pytest.raises(ValidationError, match=r"safety_profile\.max_retries_per_step"):
        action(safety_profile={"max_retries_per_step": "4"})


def test_empty_embedded_profile_is_the_default_profile() -> None:
    assert action(safety_profile={}).safety_profile == SafetyProfile()


def test_layer_profile_instances_are_accepted() -> None:
    profile = SafetyProfile(max_retries_per_step=1)
    assert action(safety_profile=profile).safety_profile is profile


# -- Keys: other top-level keys kept, unknown profile keys rejected, nulls rejected -------------
def test_other_top_level_keys_are_kept_as_written() -> None:
    loaded = action(tags=["docs"], inputs=[{"name": "since"}], timeout_seconds=600)
    assert loaded.model_extra == {
        "tags": ["docs"],
        "inputs": [{"name": "since"}],
        "timeout_seconds": 600,
    }
    assert loaded.model_dump()["tags"] == ["docs"]


def test_unknown_keys_inside_the_safety_profile_are_errors() -> None:
    with pytest.raises(ValidationError) as caught:
        action(safety_profile={"allow_unsafe_tool": True})
    assert [error["loc"] for error in caught.value.errors()] == [
        ("safety_profile", "allow_unsafe_tool")
    ]


@pytest.mark.parametrize("field", ["description", "safety_profile", "automation_profile"])
def test_optional_fields_may_be_left_out_but_not_null(field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        action(**{field: None})
    (error,) = caught.value.errors()
    assert (error["loc"], error["type"]) == ((field,), "null_not_allowed")


@pytest.mark.parametrize("field", sorted(REQUIRED))
def test_each_required_field_is_required(field: str) -> None:
    config = {key: value for key, value in REQUIRED.items() if key != field}
    with pytest.raises(ValidationError) as caught:
        Action.from_config(config)
    (error,) = caught.value.errors()
    assert (error["loc"], error["type"]) == ((field,), "missing")


@pytest.mark.parametrize("field", sorted(REQUIRED))
@pytest.mark.parametrize("value", ["", None, 3, ["x"], True])
def test_required_fields_are_non_empty_strings(field: str, value: Any) -> None:
    with pytest.raises(ValidationError, match=field):
        action(**{field: value})


def test_from_config_rejects_a_non_mapping() -> None:
    with pytest.raises(ValueError, match="action config must be a mapping"):
        Action.from_config([REQUIRED])  # type: ignore[arg-type]


def test_from_yaml_missing_file_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Action.from_yaml(tmp_path / "absent.yaml")


# -- Positions and messages inside the nested block --------------------------------------------
NESTED = """\
name: local/secure-deploy
definition_of_done: Deployment verified
strategy_actor: local/default
execution_actor: local/default
safety_profile:
  require_sandbox: true
  max_retries_per_step: 500
  max_retrys: 3
"""


def test_nested_errors_carry_line_column_and_dotted_path() -> None:
    assert problems_of(NESTED) == [
        (7, 25, "safety_profile.max_retries_per_step", "500 is above the maximum 100"),
        (
            8,
            3,
            "safety_profile.max_retrys",
            "unknown field 'max_retrys'; did you mean 'max_retries_per_step'?",
        ),
    ]


def test_from_yaml_reports_nested_problems_with_their_positions(tmp_path: Path) -> None:
    path = tmp_path / "deploy.yaml"
    path.write_text(NESTED, encoding="utf-8")
    with pytest.raises(ProfileFileError) as caught:
        Action.from_yaml(path)
    assert str(caught.value).splitlines()[0] == (
        f"{path}:7:25: error: safety_profile.max_retries_per_step: 500 is above the maximum 100"
    )


def test_missing_required_field_is_reported_at_the_top_of_the_action() -> None:
    text = "# an action\nname: local/x\nstrategy_actor: a\nexecution_actor: b\n"
    assert problems_of(text) == [
        (2, 1, "definition_of_done", "required field 'definition_of_done' is missing; add it")
    ]


def test_inline_nested_profile_positions_point_into_the_flow_mapping() -> None:
    text = "name: x\ndefinition_of_done: d\nstrategy_actor: s\nexecution_actor: e\n"
    text += 'safety_profile: {require_sandbox: "on"}\n'
    assert problems_of(text) == [
        (
            5,
            35,
            "safety_profile.require_sandbox",
            "'on' (a string) is not a boolean; write true "
            "(YAML 1.1 words such as yes/no/on/off are strings in YAML 1.2)",
        )
    ]


# -- The generated models ----------------------------------------------------------------------
def test_generated_action_reuses_the_generated_safety_profile() -> None:
    from cleveragents.schema_models import action_schema, safety_profile_schema

    generated = action_schema.Action.model_fields["safety_profile"].annotation
    assert generated == safety_profile_schema.SafetyProfile | None
    assert not hasattr(action_schema, "SafetyProfile")  # imported as a module, not duplicated


def test_generated_action_keeps_other_keys_and_is_frozen() -> None:
    from cleveragents.schema_models.action_schema import Action as GeneratedAction

    assert GeneratedAction.model_config.get("extra") == "allow"
    assert GeneratedAction.model_config.get("frozen") is True


def test_layer_fields_keep_the_schema_descriptions() -> None:
    schema = json.loads((SCHEMA_DIR / "action.schema.json").read_text(encoding="utf-8"))
    for name in ("safety_profile", "automation_profile"):
        assert Action.model_fields[name].description == schema["properties"][name]["description"]
    assert Action.model_fields["automation_profile"].annotation == AutomationProfile | None


@pytest.mark.parametrize(
    ("key", "field"),
    [("safety_profle", "safety_profile"), ("descriptions", "description"), ("Name", "name")],
)
def test_near_misses_of_action_fields_are_errors(key: str, field: str) -> None:
    with pytest.raises(ValidationError, match=f"did you mean '{field}'"):
        Action.from_config({**REQUIRED, key: "x"})


@pytest.mark.parametrize("key", ["tags", "owner", "automation", "inputs", "strategy"])
def test_other_keys_far_from_any_field_are_kept(key: str) -> None:
    assert Action.from_config({**REQUIRED, key: "x"}).model_extra == {key: "x"}


# -- keys that pass for something they are not --------------------------------------------------
REQUIRED = {"name": "n", "definition_of_done": "d", "strategy_actor": "s", "execution_actor": "e"}


def _errors(**extra: Any) -> list[tuple[str, tuple[str | int, ...], str]]:
    with pytest.raises(ValidationError) as raised:
        Action.from_config({**REQUIRED, **extra})
    return [(e["type"], e["loc"], e["msg"]) for e in raised.value.errors(include_url=False)]


@pytest.mark.parametrize(
    ("key", "kind", "words"),
    [
        ("\u0455\u0430f\u0435ty_profile", "confusable_field", "looks like 'safety_profile'"),
        (
            "\uff53\uff41\uff46\uff45\uff54\uff59_profile",
            "confusable_field",
            "like 'safety_profile'",
        ),
        ("safety_profile\u200b\u200b", "invisible_characters", "U+200B ZERO WIDTH SPACE"),
        ("safety\u2060_profile", "invisible_characters", "U+2060 WORD JOINER"),
        ("\ufeffsafety_profile", "invisible_characters", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("require_human_approval", "profile_field_at_top_level", "indent it under safety_profile"),
        ("safety_profle", "misspelt_field", "did you mean 'safety_profile'?"),
    ],
)
def test_a_top_level_key_that_passes_for_a_field_is_an_error_from_python_too(
    key: str, kind: str, words: str
) -> None:
    ((found_kind, loc, message),) = _errors(**{key: {"allow_unsafe_tools": False}})
    assert (found_kind, loc) == (kind, (key,))
    assert words in message


def test_invisible_characters_in_any_kept_key_are_an_error() -> None:
    errors = _errors(notes={"owner\u200b": "ops", "fine": 1})
    assert errors == [
        (
            "invisible_characters",
            ("notes", "owner\u200b"),
            "the key 'owner\\u200b' holds invisible characters (U+200B ZERO WIDTH SPACE), so it "
            "is not the key it looks like; remove them",
        )
    ]


def test_other_non_ascii_keys_are_kept_as_written() -> None:
    kept = Action.from_config({**REQUIRED, "beschreibung_für_menschen": "ok", "説明": "ok"})
    assert kept.model_extra == {"beschreibung_für_menschen": "ok", "説明": "ok"}


def test_no_key_rule_hides_the_others_or_the_field_errors() -> None:
    errors = _errors(
        strategy_actor=7,
        safety_profle={},
        require_sandbox=True,
        retries=float("nan"),
        safety_profile={"max_retries_per_step": 500},
    )
    assert sorted((kind, loc) for kind, loc, _ in errors) == [
        ("less_than_equal", ("safety_profile", "max_retries_per_step")),
        ("misspelt_field", ("safety_profle",)),
        ("non_finite_number", ("retries",)),
        ("profile_field_at_top_level", ("require_sandbox",)),
        ("string_type", ("strategy_actor",)),
    ]


def test_a_message_with_braces_survives_being_reported_with_other_errors() -> None:
    # The automation profile's error names a key holding braces; it is raised again beside the
    # action's own key errors, and must come out as it went in.
    errors = _errors(safety_profle={}, automation_profile={"{message}\u200b": 1})
    assert (
        "invisible_characters",
        ("automation_profile", "{message}\u200b"),
        "the key '{message}\\u200b' holds invisible characters (U+200B ZERO WIDTH SPACE), so "
        "it is not the key it looks like; remove them",
    ) in errors
    assert ("misspelt_field", ("safety_profle",)) in [(kind, loc) for kind, loc, _ in errors]
