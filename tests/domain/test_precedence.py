"""Spec, "Precedence over AutomationProfile": every row of the table, through the API and the CLI.

| Flag                  | Wins          |
|-----------------------|---------------|
| `require_sandbox`     | SafetyProfile |
| `require_checkpoints` | SafetyProfile |
| `allow_unsafe_tools`  | SafetyProfile |

Non-overlapping fields from each profile apply independently.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import EXAMPLES
from programs import run_program

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.automation_profile import (
    OVERLAPPING_SAFETY_FLAGS,
    AutomationProfile,
)
from cleveragents.domain.models.core.effective_settings import effective_settings
from cleveragents.domain.models.core.safety_profile import (
    SafetyProfile,
    resolve_safety_profile_ref,
)
from cleveragents.reading.document import load_yaml_document

TABLE_ROWS = ("require_sandbox", "require_checkpoints", "allow_unsafe_tools")


def test_the_overlapping_flags_are_the_rows_of_the_spec_table() -> None:
    assert OVERLAPPING_SAFETY_FLAGS == TABLE_ROWS


# -- Python API --------------------------------------------------------------------------------
@pytest.mark.parametrize("flag", TABLE_ROWS)
@pytest.mark.parametrize("safety_value", [True, False])
@pytest.mark.parametrize("automation_value", [True, False, None], ids=["true", "false", "unset"])
def test_safety_profile_wins_each_row(
    flag: str, safety_value: bool, automation_value: bool | None
) -> None:
    safety = SafetyProfile(**{flag: safety_value})
    stated = {} if automation_value is None else {flag: automation_value}
    settings = effective_settings(safety, AutomationProfile(**stated))
    assert getattr(settings, flag) is safety_value
    assert settings.safety_profile == safety
    assert settings.ignored_automation_flags == stated


def test_all_three_rows_at_once_when_the_automation_profile_says_the_opposite() -> None:
    for value in (True, False):
        safety = SafetyProfile(**dict.fromkeys(TABLE_ROWS, value))
        automation = AutomationProfile(**dict.fromkeys(TABLE_ROWS, not value))
        settings = effective_settings(safety, automation)
        assert [getattr(settings, flag) for flag in TABLE_ROWS] == [value] * 3
        assert settings.ignored_automation_flags == dict.fromkeys(TABLE_ROWS, not value)


def test_non_overlapping_fields_of_each_profile_apply_independently() -> None:
    safety = SafetyProfile(require_human_approval=True, max_cost_per_plan=5, max_retries_per_step=1)
    automation = AutomationProfile(
        require_sandbox=False,
        confidence_threshold=0.85,
        auto_execute=True,
        # Same names as safety fields, but not overlapping flags: autonomy settings, kept.
        max_retries_per_step=9,
        require_human_approval=False,
    )
    settings = effective_settings(safety, automation)
    assert settings.safety_profile is safety  # no field of the safety profile changed
    assert dict(settings.autonomy_settings) == {
        "confidence_threshold": 0.85,
        "auto_execute": True,
        "max_retries_per_step": 9,
        "require_human_approval": False,
    }


def test_without_an_automation_profile_only_the_safety_profile_applies() -> None:
    settings = effective_settings(SafetyProfile(require_sandbox=False))
    assert settings.require_sandbox is False
    assert dict(settings.autonomy_settings) == {}
    assert dict(settings.ignored_automation_flags) == {}


def test_action_example_carrying_both_profiles() -> None:
    loaded = Action.from_yaml(
        EXAMPLES / "actions" / "valid" / "with_automation_profile.action.yaml"
    )
    assert loaded.safety_profile is not None
    assert loaded.automation_profile is not None
    settings = effective_settings(loaded.safety_profile, loaded.automation_profile)
    assert (settings.require_sandbox, settings.require_checkpoints) == (True, True)
    assert settings.allow_unsafe_tools is False
    assert dict(settings.autonomy_settings) == {"confidence_threshold": 0.85, "auto_execute": True}


def test_the_resolved_profile_decides_when_the_plan_overrides_the_action() -> None:
    loaded = Action.from_config(
        {
            "name": "a",
            "definition_of_done": "d",
            "strategy_actor": "s",
            "execution_actor": "e",
            "safety_profile": {"require_sandbox": True},
            "automation_profile": {"require_sandbox": True},
        }
    )
    plan = SafetyProfile(require_sandbox=False)
    ref = resolve_safety_profile_ref(plan_profile=plan, action_profile=loaded.safety_profile)
    assert effective_settings(ref.profile, loaded.automation_profile).require_sandbox is False


def test_effective_settings_are_read_only() -> None:
    settings = effective_settings(SafetyProfile(), AutomationProfile(gate=1))
    with pytest.raises(TypeError):
        settings.autonomy_settings["gate"] = 2  # type: ignore[index]
    with pytest.raises(AttributeError):
        settings.safety_profile = SafetyProfile()  # type: ignore[misc]


# -- The CLI: `safety-profile resolve --action` ------------------------------------------------
def write_action(folder: Path, safety: dict[str, Any], automation: dict[str, Any]) -> Path:
    path = folder / "action.yaml"
    document = {
        "name": "local/precedence",
        "definition_of_done": "d",
        "strategy_actor": "local/default",
        "execution_actor": "local/default",
        "safety_profile": safety,
        "automation_profile": automation,
    }
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("safety", "automation"),
    [
        (dict.fromkeys(TABLE_ROWS, True), dict.fromkeys(TABLE_ROWS, False)),
        (dict.fromkeys(TABLE_ROWS, False), dict.fromkeys(TABLE_ROWS, True)),
        (
            {"require_sandbox": True, "require_checkpoints": False, "allow_unsafe_tools": False},
            {"require_sandbox": True, "require_checkpoints": False, "allow_unsafe_tools": False},
        ),
    ],
    ids=["automation-says-false", "automation-says-true", "both-agree"],
)
def test_cli_applies_the_safety_profile_for_every_row(
    tmp_path: Path, safety: dict[str, bool], automation: dict[str, bool]
) -> None:
    action = write_action(tmp_path, safety, {**automation, "confidence_threshold": 0.5})
    result = run_program("safety-profile", "resolve", "--action", str(action), "--format", "json")
    assert (result.returncode, result.stderr) == (0, "")
    resolved = json.loads(result.stdout)
    assert resolved["provenance"] == "ACTION"
    assert {flag: resolved["profile"][flag] for flag in TABLE_ROWS} == safety
    assert resolved["ignored_automation_flags"] == automation
    assert resolved["autonomy_settings"] == {"confidence_threshold": 0.5}


def test_cli_text_names_each_overruled_automation_flag(tmp_path: Path) -> None:
    action = write_action(
        tmp_path, dict.fromkeys(TABLE_ROWS, False), {"allow_unsafe_tools": True, "gate": "high"}
    )
    result = run_program("safety-profile", "resolve", "--action", str(action))
    assert result.returncode == 0, result.stdout + result.stderr
    tail = result.stdout.split("\nautonomy_settings:", 1)[1]
    assert tail == (
        "  # from the action's automation_profile\n"
        '  gate: "high"\n'
        "ignored_automation_flags:  # the safety profile decides these\n"
        "  allow_unsafe_tools: true  # the safety profile says false\n"
    )


def test_cli_text_is_yaml_carrying_the_same_answer_as_json(tmp_path: Path) -> None:
    # Autonomy keys are kept as written, so some need quoting to read back the same.
    odd_keys = {"on": 1, "a: b": "#x", "gate": None}
    action = write_action(
        tmp_path, {"require_sandbox": False}, {"require_sandbox": True, **odd_keys}
    )
    text = run_program("safety-profile", "resolve", "--action", str(action)).stdout
    as_json = json.loads(
        run_program("safety-profile", "resolve", "--action", str(action), "--format", "json").stdout
    )
    loaded = load_yaml_document(text.encode(), "resolve-output.yaml")
    assert loaded.problems == []
    assert loaded.value == {
        key: as_json[key]
        for key in (
            "provenance",
            "source",
            "profile",
            "autonomy_settings",
            "ignored_automation_flags",
        )
    }
