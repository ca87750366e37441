"""A document checked as one kind that looks like the other gets a hint, in every output format
of `check`, in `show` and in `resolve`; it is still checked as the kind asked for (no automatic
switching), and following the hint makes the check pass."""

from __future__ import annotations

import json
import subprocess

import pytest
from conftest import EXAMPLES, relative
from programs import run_program

from cleveragents.safety_toolkit.core.kind_hint import resembled_kind

ACTION = relative(EXAMPLES / "actions" / "valid" / "spec_secure_deploy.action.yaml")
PROFILE = relative(EXAMPLES / "valid" / "spec_example.safety_profile.yaml")
TYPO_PROFILE = relative(EXAMPLES / "invalid" / "typo_key.safety_profile.yaml")
ACTION_HINT = "this looks like an action, not a safety profile: use --kind action"
PROFILE_HINT = "this looks like a safety profile, not an action: use --kind profile"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_program("safety-profile", *args)


PROFILE_KEYS = ["require_sandbox", "max_cost_per_plan", "allowed_skill_categories"]
ACTION_KEYS = ["name", "definition_of_done", "strategy_actor", "execution_actor", "safety_profile"]
RESEMBLANCE = {
    "action_checked_as_profile": (ACTION_KEYS, "profile", "action"),
    "profile_checked_as_action": (PROFILE_KEYS, "action", "profile"),
    "only_an_embedded_profile": (["safety_profile"], "profile", "action"),
    "action_with_a_stray_profile_field": ([*ACTION_KEYS, "require_sandbox"], "profile", "action"),
    "profile_with_typos": (
        ["require_sandbx", "max_retries", "allow_unsafe_tools"],
        "profile",
        None,
    ),
    "profile_as_profile": (PROFILE_KEYS, "profile", None),
    "action_as_action": (ACTION_KEYS, "action", None),
    "unknown_keys_only": (["owner", "team", "ticket"], "profile", None),
    "half_and_half": (
        ["name", "strategy_actor", "require_sandbox", "owner", "team"],
        "profile",
        None,
    ),
    "empty": ([], "action", None),
}


@pytest.mark.parametrize(("keys", "checked", "expected"), RESEMBLANCE.values(), ids=RESEMBLANCE)
def test_resembled_kind_decides_from_the_top_level_keys(
    keys: list[str], checked: str, expected: str | None
) -> None:
    assert resembled_kind(keys, checked) == expected


def test_text_hint_follows_the_files_errors_and_the_exit_status_stays_1() -> None:
    result = run("check", ACTION)
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert all(line.startswith(f"{ACTION}:") and ": error: " in line for line in lines[:-2])
    assert "unknown field 'name'" in lines[0]
    assert lines[-2:] == [f"{ACTION}: hint: {ACTION_HINT} [kind.hint]", "1 of 1 file invalid"]
    assert result.stderr == ""


def test_following_the_hint_passes_and_nothing_switches_by_itself() -> None:
    assert run("check", ACTION).returncode == 1  # still checked as a profile
    assert run("check", "--kind", "action", ACTION).stdout == "ok: 1 file valid\n"
    assert run("check", "--kind", "action", PROFILE).returncode == 1
    assert run("check", "--kind", "profile", PROFILE).returncode == 0


def test_json_hint_is_an_element_of_its_own_severity_and_rule() -> None:
    result = run("check", "--kind", "action", "--format", "json", PROFILE)
    report = json.loads(result.stdout)
    assert result.returncode == 1
    assert {element["severity"] for element in report[:-1]} == {"error"}
    assert report[-1] == {
        "file": PROFILE,
        "line": None,
        "column": None,
        "path": "",
        "message": PROFILE_HINT,
        "rule": "kind.hint",
        "severity": "hint",
    }


def test_github_hint_is_a_notice() -> None:
    result = run("check", "--format", "github", ACTION)
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert all(line.startswith("::error ") for line in lines[:-1])
    assert lines[-1] == f"::notice file={ACTION},title=kind.hint::{ACTION_HINT}"


def test_hints_follow_their_own_files_errors() -> None:
    result = run("check", ACTION, TYPO_PROFILE, PROFILE)
    files_in_order = [line.split(":", 1)[0] for line in result.stdout.splitlines()[:-1]]
    assert files_in_order == sorted(files_in_order)
    hints = [line for line in result.stdout.splitlines() if ": hint: " in line]
    assert hints == [f"{ACTION}: hint: {ACTION_HINT} [kind.hint]"]  # a typo'd profile gets none
    assert result.stdout.splitlines()[-1] == "2 of 3 files invalid"


def test_show_gives_the_hint_too() -> None:
    result = run("show", ACTION)
    assert result.returncode == 1
    assert result.stdout.splitlines()[-2] == f"{ACTION}: hint: {ACTION_HINT} [kind.hint]"
    assert run("show", "--kind", "action", ACTION).returncode == 0


@pytest.mark.parametrize(
    ("layer", "file", "hint"),
    [
        (
            "--action",
            PROFILE,
            "this looks like a safety profile, not an action: pass it with --plan, --project "
            "or --global",
        ),
        (
            "--project",
            ACTION,
            "this looks like an action, not a safety profile: pass it with --action",
        ),
        (
            "--plan",
            ACTION,
            "this looks like an action, not a safety profile: pass it with --action",
        ),
    ],
)
def test_resolve_says_which_option_takes_the_file(layer: str, file: str, hint: str) -> None:
    text = run("resolve", layer, file)
    assert text.returncode == 1
    assert text.stdout.splitlines()[-2] == f"{file}: hint: {hint} [kind.hint]"
    report = json.loads(run("resolve", layer, file, "--format", "json").stdout)
    assert report[-1]["message"] == hint
    assert report[-1]["severity"] == "hint"
