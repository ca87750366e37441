"""Spec, "Resolution Precedence" and "Stub Enforcement": plan > action > project > global.

The precedence logic is pure (`resolve_safety_profile_ref`); `resolve_safety_profile` keeps the
local-mode stub and uses that logic in server mode; `safety-profile resolve` shows it.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from conftest import EXAMPLES, relative
from programs import run_program
from shown_profile import shown_profile_lines

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.safety_profile import (
    DEFAULT_SAFETY_PROFILE,
    MODE_ENVIRONMENT_VARIABLE,
    Mode,
    Provenance,
    SafetyProfile,
    SafetyProfileRef,
    current_mode,
    resolve_safety_profile,
    resolve_safety_profile_ref,
)

LAYERS = ("plan", "action", "project", "global")
PROFILES = {
    layer: SafetyProfile(max_retries_per_step=retries)
    for layer, retries in zip(LAYERS, (1, 2, 4, 8), strict=True)
}


# -- The pure precedence logic -----------------------------------------------------------------
@pytest.mark.parametrize(
    "given",
    [combo for size in range(5) for combo in itertools.combinations(LAYERS, size)],
    ids=lambda combo: "+".join(combo) or "none",
)
def test_the_highest_layer_that_sets_a_profile_wins(given: tuple[str, ...]) -> None:
    ref = resolve_safety_profile_ref(**{f"{layer}_profile": PROFILES[layer] for layer in given})
    winner = next((layer for layer in LAYERS if layer in given), None)
    if winner is None:
        assert ref == SafetyProfileRef(profile=DEFAULT_SAFETY_PROFILE, provenance=Provenance.GLOBAL)
    else:
        assert ref == SafetyProfileRef(
            profile=PROFILES[winner], provenance=Provenance[winner.upper()]
        )
        assert ref.profile is PROFILES[winner]


def test_the_winning_profile_wins_whole_without_merging() -> None:
    plan = SafetyProfile(max_retries_per_step=1)  # require_sandbox left at its default, true
    project = SafetyProfile(require_sandbox=False, max_total_cost=10.0)
    ref = resolve_safety_profile_ref(plan_profile=plan, project_profile=project)
    assert ref.profile == plan
    assert (ref.profile.require_sandbox, ref.profile.max_total_cost) == (True, None)


def test_explicit_none_layers_fall_through() -> None:
    ref = resolve_safety_profile_ref(
        plan_profile=None, action_profile=None, project_profile=PROFILES["project"]
    )
    assert ref.provenance is Provenance.PROJECT


# -- resolve_safety_profile and the mode -------------------------------------------------------
SPEC_LAYERS = {
    "plan_profile": None,
    "action_profile": PROFILES["action"],
    "project_profile": PROFILES["project"],
    "global_profile": DEFAULT_SAFETY_PROFILE,
}


@pytest.fixture
def no_mode(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv(MODE_ENVIRONMENT_VARIABLE, raising=False)
    return monkeypatch


def test_local_mode_is_the_default_and_raises_not_implemented(no_mode: pytest.MonkeyPatch) -> None:
    assert current_mode() is Mode.LOCAL
    with pytest.raises(NotImplementedError, match="local mode"):
        resolve_safety_profile(**SPEC_LAYERS)


def test_the_spec_snippet_runs_as_written_in_local_mode(no_mode: pytest.MonkeyPatch) -> None:
    plan_sp, action_sp, project_sp, global_sp = SPEC_LAYERS.values()
    try:
        profile, provenance = resolve_safety_profile(
            plan_profile=plan_sp,
            action_profile=action_sp,
            project_profile=project_sp,
            global_profile=global_sp,
        )
    except NotImplementedError:
        # Expected in local mode — enforcement not yet available
        profile, provenance = None, None
    assert (profile, provenance) == (None, None)


@pytest.mark.parametrize("value", ["server", "SERVER", " Server\n"])
def test_server_mode_from_the_environment_resolves(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(MODE_ENVIRONMENT_VARIABLE, value)
    profile, provenance = resolve_safety_profile(**SPEC_LAYERS)
    assert (profile, provenance) == (PROFILES["action"], Provenance.ACTION)


def test_server_mode_by_keyword_resolves(no_mode: pytest.MonkeyPatch) -> None:
    assert resolve_safety_profile(mode="server") == (DEFAULT_SAFETY_PROFILE, Provenance.GLOBAL)
    assert resolve_safety_profile(plan_profile=PROFILES["plan"], mode=Mode.SERVER) == (
        PROFILES["plan"],
        Provenance.PLAN,
    )


@pytest.mark.parametrize(("keyword", "environment"), [("local", "server"), ("server", "local")])
def test_the_keyword_wins_over_the_environment(
    monkeypatch: pytest.MonkeyPatch, keyword: str, environment: str
) -> None:
    monkeypatch.setenv(MODE_ENVIRONMENT_VARIABLE, environment)
    if keyword == "local":
        with pytest.raises(NotImplementedError):
            resolve_safety_profile(**SPEC_LAYERS, mode=keyword)
    else:
        assert resolve_safety_profile(**SPEC_LAYERS, mode=keyword)[1] is Provenance.ACTION


@pytest.mark.parametrize("value", ["", "local", "Local"])
def test_empty_or_local_environment_is_local(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(MODE_ENVIRONMENT_VARIABLE, value)
    with pytest.raises(NotImplementedError):
        resolve_safety_profile(**SPEC_LAYERS)


def test_an_unknown_mode_is_an_error_not_a_silent_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MODE_ENVIRONMENT_VARIABLE, "sever")
    with pytest.raises(ValueError, match=r"CLEVERAGENTS_MODE='sever'.*'local' or 'server'"):
        resolve_safety_profile(**SPEC_LAYERS)
    with pytest.raises(ValueError, match=r"mode='prod'"):
        resolve_safety_profile(**SPEC_LAYERS, mode="prod")


def test_current_mode_reads_a_given_environment() -> None:
    assert current_mode({MODE_ENVIRONMENT_VARIABLE: "server"}) is Mode.SERVER
    assert current_mode({}) is Mode.LOCAL


# -- The CLI: all four provenances -------------------------------------------------------------
ACTION_FILE = EXAMPLES / "actions" / "valid" / "spec_secure_deploy.action.yaml"
ACTION_WITHOUT_PROFILE = EXAMPLES / "actions" / "valid" / "minimal.action.yaml"


@pytest.fixture
def profile_files(tmp_path: Path) -> dict[str, str]:
    files = {}
    for layer in ("plan", "project", "global"):
        path = tmp_path / f"{layer}.safety_profile.yaml"
        path.write_text(
            f"max_retries_per_step: {PROFILES[layer].max_retries_per_step}\n", encoding="utf-8"
        )
        files[layer] = str(path)
    files["action"] = relative(ACTION_FILE)
    return files


def resolve_json(*args: str) -> dict[str, object]:
    result = run_program("safety-profile", "resolve", "--format", "json", *args)
    assert (result.returncode, result.stderr) == (0, ""), result.stdout
    resolved: dict[str, object] = json.loads(result.stdout)
    return resolved


def layer_options(files: dict[str, str], layers: tuple[str, ...]) -> list[str]:
    return [part for layer in layers for part in (f"--{layer}", files[layer])]


@pytest.mark.parametrize(
    ("layers", "provenance"),
    [
        (("plan", "action", "project", "global"), "PLAN"),
        (("action", "project", "global"), "ACTION"),
        (("project", "global"), "PROJECT"),
        (("global",), "GLOBAL"),
    ],
)
def test_cli_reports_each_provenance_and_its_profile(
    profile_files: dict[str, str], layers: tuple[str, ...], provenance: str
) -> None:
    resolved = resolve_json(*layer_options(profile_files, layers))
    winner = layers[0]
    assert resolved["provenance"] == provenance
    assert resolved["source"] == profile_files[winner]
    assert resolved["profile"] == expected_profile(winner)
    assert resolved["layers"] == [
        {
            "layer": layer.upper(),
            "file": profile_files[layer] if layer in layers else None,
            "sets_profile": layer in layers,
            "applies": layer == winner,
        }
        for layer in LAYERS
    ]


def expected_profile(layer: str) -> dict[str, object]:
    if layer == "action":
        embedded = Action.from_yaml(ACTION_FILE).safety_profile
        assert embedded is not None
        return embedded.model_dump(mode="json")
    return PROFILES[layer].model_dump(mode="json")


def test_cli_without_any_layer_applies_the_built_in_default() -> None:
    resolved = resolve_json()
    assert (resolved["provenance"], resolved["source"]) == ("GLOBAL", None)
    assert resolved["profile"] == DEFAULT_SAFETY_PROFILE.model_dump(mode="json")
    assert [layer["applies"] for layer in resolved["layers"]] == [False, False, False, True]  # type: ignore[attr-defined]


def test_cli_action_without_a_safety_profile_falls_through(profile_files: dict[str, str]) -> None:
    resolved = resolve_json(
        "--action", relative(ACTION_WITHOUT_PROFILE), "--project", profile_files["project"]
    )
    assert resolved["provenance"] == "PROJECT"
    action_layer = resolved["layers"][1]  # type: ignore[index]
    assert action_layer == {
        "layer": "ACTION",
        "file": relative(ACTION_WITHOUT_PROFILE),
        "sets_profile": False,
        "applies": False,
    }


def test_cli_text_output_lists_the_layers_and_the_profile_field_by_field(
    profile_files: dict[str, str],
) -> None:
    result = run_program(
        "safety-profile",
        *("resolve", "--action", profile_files["action"]),
        *("--project", profile_files["project"]),
    )
    assert (result.returncode, result.stderr) == (0, "")
    project = profile_files["project"]
    width = max(len(project), len("built-in default (DEFAULT_SAFETY_PROFILE)"))
    assert result.stdout == "\n".join(
        [
            "# plan > action > project > global: the highest layer with a profile wins whole",
            "#   plan     not given",
            f"#   action   {profile_files['action']:<{width}}  <- applies",
            f"#   project  {project:<{width}}  overridden",
            f"#   global   {'built-in default (DEFAULT_SAFETY_PROFILE)':<{width}}  overridden",
            "provenance: ACTION",
            f'source: "{profile_files["action"]}"',
            "profile:",
            *shown_profile_lines(
                {
                    "allowed_skill_categories": '["deploy", "test"]',
                    "require_sandbox": "true",
                    "require_checkpoints": "true",
                    "require_human_approval": "true",
                    "allow_unsafe_tools": "false",
                    "max_cost_per_plan": "100.0",
                },
                indent="  ",
            ),
            "",
        ]
    )


def test_cli_reports_every_problem_in_the_layer_files(tmp_path: Path) -> None:
    bad_action = EXAMPLES / "actions" / "invalid" / "nested_retries_above_maximum.action.yaml"
    missing = tmp_path / "missing.yaml"
    result = run_program(
        "safety-profile", "resolve", "--plan", str(missing), "--action", relative(bad_action)
    )
    assert (result.returncode, result.stderr) == (1, "")
    problems = [
        f"{relative(bad_action)}:7:25: error: safety_profile.max_retries_per_step: "
        "500 is above the maximum 100 [schema.less-than-equal]",
        f"{missing}: error: no such file; check the path [file.missing]",
    ]
    assert result.stdout.splitlines() == [*sorted(problems), "2 of 2 files invalid"]


def test_cli_action_option_wants_an_action_file(profile_files: dict[str, str]) -> None:
    result = run_program("safety-profile", "resolve", "--action", profile_files["plan"])
    assert result.returncode == 1
    assert "required field 'name' is missing; add it" in result.stdout


@pytest.mark.parametrize(
    "args", [["resolve", "--plan"], ["resolve", "extra.yaml"], ["resolve", "--format", "xml"]]
)
def test_cli_usage_errors_exit_2(args: list[str]) -> None:
    result = run_program("safety-profile", *args)
    assert result.returncode == 2
    assert "usage: safety-profile" in result.stderr


def test_cli_help_says_which_options_take_action_files() -> None:
    result = run_program("safety-profile", "resolve", "--help")
    assert result.returncode == 0
    help_text = " ".join(result.stdout.split())
    assert "--action takes an ACTION file: its embedded safety_profile is the action layer" in (
        help_text
    )
    assert "--plan, --project and --global take SAFETY PROFILE files" in help_text


def test_cli_resolves_whatever_the_mode(profile_files: dict[str, str]) -> None:
    result = run_program(
        "safety-profile",
        "resolve",
        "--format",
        "json",
        "--project",
        profile_files["project"],
        env={MODE_ENVIRONMENT_VARIABLE: "local"},
    )
    assert result.returncode == 0
    assert json.loads(result.stdout)["provenance"] == "PROJECT"


# -- notes: the layer that wins is looser than a layer it overrides ----------------------------
def test_cli_notes_each_field_where_the_winner_is_looser_than_a_layer_it_overrides(
    tmp_path: Path,
) -> None:
    plan = tmp_path / "plan.safety_profile.yaml"
    plan.write_text("require_sandbox: false\nmax_retries_per_step: 2\n", encoding="utf-8")
    project = tmp_path / "project.safety_profile.yaml"
    project.write_text(
        "max_retries_per_step: 1\nmax_total_cost: 10.0\nallowed_skill_categories: [code]\n",
        encoding="utf-8",
    )
    layers = ("--plan", str(plan), "--project", str(project))
    expected = [
        'plan loosens project: allowed_skill_categories ["code"] → []',
        "plan loosens project: require_sandbox true → false",  # the project's by default
        "plan loosens project: max_retries_per_step 1 → 2",
        "plan loosens project: max_total_cost 10.0 → null",
        "plan loosens global: require_sandbox true → false",  # the built-in default
    ]
    text = run_program("safety-profile", "resolve", *layers)
    assert text.returncode == 0
    notes = [line for line in text.stdout.splitlines() if line.startswith("# note: ")]
    assert notes == [f"# note: {note}" for note in expected]
    resolved = resolve_json(*layers)
    assert [note["note"] for note in resolved["notes"]] == expected  # type: ignore[attr-defined]
    assert resolved["notes"][0] == {  # type: ignore[index]
        "layer": "PLAN",
        "overrides": "PROJECT",
        "field": "allowed_skill_categories",
        "overridden_value": ["code"],
        "value": [],
        "note": expected[0],
    }


def test_cli_no_notes_when_the_winner_is_at_least_as_strict(profile_files: dict[str, str]) -> None:
    # Each layer's profile allows fewer retries than the layers below it.
    options = layer_options(profile_files, ("plan", "project", "global"))
    resolved = resolve_json(*options)
    assert (resolved["provenance"], resolved["notes"]) == ("PLAN", [])
    text = run_program("safety-profile", "resolve", *options)
    assert "# note:" not in text.stdout


def test_cli_notes_an_action_looser_than_the_global_file(tmp_path: Path) -> None:
    global_file = tmp_path / "global.safety_profile.yaml"
    global_file.write_text(
        "require_human_approval: true\nmax_cost_per_plan: 0\nmax_total_cost: 0\n",
        encoding="utf-8",
    )
    resolved = resolve_json("--action", relative(ACTION_FILE), "--global", str(global_file))
    assert resolved["provenance"] == "ACTION"
    # The action requires human approval too, and allows fewer retries than the default; its
    # cost ceilings are looser.
    assert [note["note"] for note in resolved["notes"]] == [  # type: ignore[attr-defined]
        "action loosens global: max_cost_per_plan 0.0 → 100.0",
        "action loosens global: max_total_cost 0.0 → null",
    ]
