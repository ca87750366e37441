"""No quick fix loosens a profile, and no "did you mean" crosses to a field meaning the opposite.

The property: a valid profile (what the author meant) is written with one slip, as authors
write them: a key misspelt, a key written with its antonym and the value turned to match
(`disallow_unsafe_tools: true` for `allow_unsafe_tools: false`; `min_retries_per_step` for a
limit the schema cannot hold), or a value in a spelling YAML readers read differently (`yes`,
`010`, `1_000`). Every fix the language server offers for its problems (`editor_fixes.fixes`,
which the server calls) is applied: the result must be valid, and `diff` from what the author
meant to the fixed file (`compare_versions`, the code of `safety-profile diff`) must have no
`loosens` line. The server's and the CLI's words for the issue's own cases are checked end to
end too."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import console_script
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cleveragents.reading.field_names import closest_field
from cleveragents.reading.problems import Problem
from cleveragents.safety_toolkit.core.check import Checker
from cleveragents.safety_toolkit.core.diff import Verdict, Version, compare_versions
from cleveragents.safety_toolkit.core.kinds import KINDS
from cleveragents.safety_toolkit.lsp.editor_fixes import FIXED_RULES, apply, fixes

PROFILE = KINDS["profile"]
FIELDS = PROFILE.field_names()
CHECKER = Checker("profile")
BOOLEANS = (
    "require_sandbox",
    "require_checkpoints",
    "require_human_approval",
    "allow_unsafe_tools",
)
# YAML 1.1 words for each boolean (PyYAML reads them so; YAML 1.2 reads them as text).
YAML11_WORDS = {
    True: ["yes", "Yes", "YES", "on", "On", "y"],
    False: ["no", "No", "off", "OFF", "n"],
}
# Categories that YAML 1.1 reads as booleans when written plain.
WORD_CATEGORIES = ["yes", "no", "on", "off"]


@st.composite
def profiles(draw: st.DrawFn) -> dict[str, Any]:
    """A valid profile: any subset of the fields, each a valid value."""
    profile: dict[str, Any] = {}
    for field in BOOLEANS:
        if draw(st.booleans()):
            profile[field] = draw(st.booleans())
    if draw(st.booleans()):
        categories = st.sampled_from(["code", "ops", "deploy", "research", *WORD_CATEGORIES])
        profile["allowed_skill_categories"] = draw(st.lists(categories, unique=True, max_size=3))
    if draw(st.booleans()):
        profile["max_retries_per_step"] = draw(st.integers(0, 100))
    total = draw(st.none() | st.integers(0, 5000))
    if draw(st.booleans()):
        profile["max_total_cost"] = total
    if draw(st.booleans()):
        limit = 5000 if total is None or "max_total_cost" not in profile else total
        profile["max_cost_per_plan"] = draw(st.none() | st.integers(0, limit))
    return profile


def spelt(value: Any) -> str:
    """A value written unambiguously."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(json.dumps(item) for item in value) + "]"
    return str(value)


def written(profile: dict[str, Any], lines: dict[str, str] | None = None) -> str:
    """The profile as a file: one `key: value` line each; `lines` replaces some."""
    lines = lines or {}
    return "".join(
        lines.get(key, f"{key}: {spelt(value)}") + "\n" for key, value in profile.items()
    )


def _typo(draw: st.DrawFn, key: str) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz_"
    index = draw(st.integers(0, len(key) - 1))
    edit = draw(st.sampled_from(["delete", "insert", "replace", "swap"]))
    if edit == "delete":
        return key[:index] + key[index + 1 :]
    if edit == "insert":
        return key[:index] + draw(st.sampled_from(letters)) + key[index:]
    if edit == "replace":
        return key[:index] + draw(st.sampled_from(letters)) + key[index + 1 :]
    index = min(index, len(key) - 2)
    return key[:index] + key[index + 1] + key[index] + key[index + 2 :]


# Antonym rewrites of a field: the key written with the opposite word, and what the author
# meant by its value: the boolean turned around, or, for a lower limit the schema has no field
# for, nothing a fix could keep (the strictest value stands for it).
BOOLEAN_ANTONYMS = {
    "allow_unsafe_tools": [
        "disallow_unsafe_tools",
        "deny_unsafe_tools",
        "forbid_unsafe_tools",
        # Words no list of opposites had: the key has a word the field lacks.
        "ban_unsafe_tools",
        "banUnsafeTools",
        "prevent_unsafe_tools",
        "refuseunsafetools",
    ],
    "require_sandbox": [
        "skip_sandbox",
        "no_require_sandbox",
        "disable_sandbox",
        "requirenosandbox",
        "omit_sandbox",
        "exemptsandbox",
    ],
    "require_checkpoints": [
        "skip_checkpoints",
        "no_require_checkpoints",
        "bypass_checkpoints",
        "ignorecheckpoints",
        "unrequirecheckpoints",
    ],
    "require_human_approval": [
        "skip_human_approval",
        "no_require_human_approval",
        "nohumanapproval",
        "ignorehumanapproval",
        "avoid_human_approval",
    ],
}
LIMIT_ANTONYMS = {
    "max_retries_per_step": [
        "min_retries_per_step",
        "minimum_retries_per_step",
        "least_retries_per_step",
        "lowretriesperstep",
        "mnretriesperstep",
    ],
    "max_cost_per_plan": ["min_cost_per_plan", "lowest_cost_per_plan", "floor_cost_per_plan"],
    "max_total_cost": ["min_total_cost", "leasttotalcost", "mntotalcost"],
}
STRICTEST = {"max_retries_per_step": 0, "max_cost_per_plan": 0, "max_total_cost": 0}


@st.composite
def slips(draw: st.DrawFn) -> tuple[str, str]:
    """(what the author meant, what they wrote), each a file's text."""
    meant = draw(profiles().filter(bool))
    field = draw(st.sampled_from(sorted(meant)))
    value = meant[field]
    slip = draw(st.sampled_from(["typo", "word left out", "antonym", "spelling"]))
    if slip == "antonym" and field in BOOLEAN_ANTONYMS:
        key = draw(st.sampled_from(BOOLEAN_ANTONYMS[field]))
        if draw(st.booleans()):
            key = _typo(draw, key)  # misspelt too
        wrote = {**meant, key: not value}
        del wrote[field]
        return written(meant), written(wrote)
    if slip == "antonym" and field in LIMIT_ANTONYMS and value is not None:
        key = draw(st.sampled_from(LIMIT_ANTONYMS[field]))
        wrote = {**meant, key: value}
        del wrote[field]
        intended = {**meant, field: STRICTEST[field]}
        if "max_total_cost" in intended and intended.get("max_cost_per_plan") is not None:
            total = intended["max_total_cost"]
            if total is not None and intended["max_cost_per_plan"] > total:
                intended["max_cost_per_plan"] = total
        return written(intended), written(wrote)
    if slip == "spelling" and field in BOOLEANS:
        word = draw(st.sampled_from(YAML11_WORDS[value]))
        return written(meant), written(meant, {field: f"{field}: {word}"})
    if slip == "spelling" and field == "max_retries_per_step" and value >= 8:
        octal = "0" + format(value, "o")  # YAML 1.1 reads it as `value`; YAML 1.2 as decimal
        return written(meant), written(meant, {field: f"{field}: {octal}"})
    if slip == "spelling" and isinstance(value, int) and value >= 1000:
        grouped = f"{value // 1000}_{value % 1000:03d}"  # YAML 1.1: `value`; 1.2: text
        return written(meant), written(meant, {field: f"{field}: {grouped}"})
    plain = (
        [item for item in value or () if item in WORD_CATEGORIES][:1]
        if field == "allowed_skill_categories"
        else []
    )
    if slip == "spelling" and plain:  # one category written plain
        items = ", ".join(item if item in plain else json.dumps(item) for item in value)
        return written(meant), written(meant, {field: f"{field}: [{items}]"})
    words = field.split("_")
    if slip == "typo" or len(words) < 3:
        key = _typo(draw, field)
    else:  # words left out: `max_cost` for `max_total_cost`, or for `max_cost_per_plan`?
        kept = draw(st.lists(st.sampled_from(range(len(words))), min_size=2, unique=True))
        key = "_".join(word for index, word in enumerate(words) if index in kept)
    wrote = {key if k == field else k: v for k, v in meant.items()}
    return written(meant), written(wrote)


def problems(text: str) -> list[Problem]:
    return CHECKER.check_bytes(text.encode(), "written.safety_profile.yaml")


def offered(text: str) -> list[tuple[str, str]]:
    """Every quick fix the server offers for the text's problems: (title, fixed text)."""
    found = []
    for problem in problems(text):
        if problem.rule in FIXED_RULES and problem.line:
            for fix in fixes(
                text, problem.line - 1, problem.column - 1, problem.rule, problem.path, "profile"
            ):
                found.append((fix.title, apply(text, fix)))
    return found


def loosenings(meant: str, fixed: str) -> list[str]:
    findings, invalid = compare_versions(
        PROFILE, Version("meant", meant.encode()), Version("fixed", fixed.encode()), "fixed"
    )
    assert not invalid, invalid
    return [f"{f.path}: {f.detail}" for f in findings if f.verdict is Verdict.LOOSENS]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slips())
# The cases, and a rename to the wrong field (`max_cost`: the total, or per plan?).
@example(("allow_unsafe_tools: false\n", "disallow_unsafe_tools: true\n"))
@example(("max_retries_per_step: 0\n", "min_retries_per_step: 50\n"))
@example(("max_retries_per_step: 8\n", "max_retries_per_step: 010\n"))
@example(("max_cost_per_plan: 50\n", "max_cost: 50\n"))
def test_no_offered_fix_loosens_what_the_author_meant(slip: tuple[str, str]) -> None:
    meant, wrote = slip
    assert problems(meant) == [], meant
    for title, fixed in offered(wrote):
        assert problems(fixed) == [], (wrote, title, fixed)
        assert loosenings(meant, fixed) == [], (wrote, title, fixed)


# -- the cases, and the words --------------------------------------------------------
@pytest.mark.parametrize(
    ("key", "suggested"),
    [
        ("disallow_unsafe_tools", None),
        ("disalow_unsafe_tools", None),
        ("deny_unsafe_tools", None),
        ("allow_safe_tools", None),
        ("min_retries_per_step", None),
        ("mni_retries_per_step", None),
        ("minRetriesPerStep", None),
        ("mintotalcost", None),
        ("skip_sandbox", None),
        ("no_require_sandbox", None),
        ("unrequire_sandbox", None),
        ("disallowed_skill_categories", None),
        # Opposites no list names: a word the field lacks is no typo.
        ("ban_unsafe_tools", None),
        ("banUnsafeTools", None),
        ("allowsafetools", None),
        ("allowsafeonlytools", None),
        ("bypass_checkpoints", None),
        ("ignorecheckpoints", None),
        ("requirenosandbox", None),
        ("requireunsandboxed", None),
        ("nohumanapproval", None),
        ("disrequiresandbox", None),
        ("lowest_cost_per_plan", None),
        ("leastretriesperstep", None),
        ("mnretriesperstep", None),
        ("floortotalcost", None),
        ("maxnocost", None),
        # Fullwidth letters are letters (NFKC): not a word that is not there.
        ("\uff4d\uff49\uff4e_retries_per_step", None),
        ("\uff44\uff49\uff53\uff41\uff4c\uff4c\uff4f\uff57_unsafe_tools", None),
        ("\uff42\uff41\uff4e_unsafe_tools", None),
        # Another script's letters likewise: a word (a look-alike `s` is one typo).
        ("d\u0456sallow_unsafe_tools", None),
        ("require_\u0455andbox", "require_sandbox"),
        ("allow_unsafe_tool", "allow_unsafe_tools"),
        ("alow_unsafe_tools", "allow_unsafe_tools"),
        ("allowd_skill_categories", "allowed_skill_categories"),
        ("requre_sandbox", "require_sandbox"),
        ("require_human_aproval", "require_human_approval"),
        ("max_retries_per_stpe", "max_retries_per_step"),
        ("maxRetriesPerStep", "max_retries_per_step"),
        ("Max_Total_Cost", "max_total_cost"),
        ("Allow-Unsafe-Tools", "allow_unsafe_tools"),
        ("allowunsafetools", "allow_unsafe_tools"),
        ("requi_e_sandbox", "require_sandbox"),
        ("max_retrys", "max_retries_per_step"),
        ("max_retries", "max_retries_per_step"),
    ],
)
def test_did_you_mean_never_crosses_to_the_opposite(key: str, suggested: str | None) -> None:
    assert closest_field(key, FIELDS) == suggested


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("disallow_unsafe_tools: true\n", "disallow_unsafe_tools"),
        ("min_retries_per_step: 50\n", "min_retries_per_step"),
        ("ban_unsafe_tools: true\n", "ban_unsafe_tools"),
        ("lowest_cost_per_plan: 50\n", "lowest_cost_per_plan"),
    ],
)
def test_check_suggests_no_field_that_means_the_opposite(
    tmp_path: Path, text: str, key: str
) -> None:
    (tmp_path / "prod.safety_profile.yaml").write_text(text)
    result = subprocess.run(
        [console_script("safety-profile"), "check", "--format", "json", "prod.safety_profile.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    [problem] = json.loads(result.stdout)
    assert problem["rule"] == "schema.extra-forbidden"
    assert problem["message"] == f"unknown field {key!r}; expected one of: {', '.join(FIELDS)}"


def test_a_scalar_with_two_readings_the_field_takes_gets_no_fix() -> None:
    """`010` is 10 to editors and 8 to PyYAML: which was meant, only the author knows."""
    assert offered("max_retries_per_step: 010\n") == []
    assert offered("max_retries_per_step: 0o12\n") == [("write 10", "max_retries_per_step: 10\n")]


def test_an_actions_profile_gets_the_same_fixes() -> None:
    action = (
        "name: local/deploy\ndefinition_of_done: Deployed\nstrategy_actor: local/a\n"
        "execution_actor: local/a\nsafety_profile:\n  {key}: {value}\n"
    )

    def offered_in_action(key: str, value: str) -> list[str]:
        text = action.format(key=key, value=value)
        titles = []
        for problem in Checker("action").check_bytes(text.encode(), "actions/deploy.yaml"):
            if problem.rule in FIXED_RULES and problem.line:
                line, column = problem.line - 1, problem.column - 1
                titles += [
                    f.title for f in fixes(text, line, column, problem.rule, problem.path, "action")
                ]
        return titles

    assert offered_in_action("disallow_unsafe_tools", "true") == []
    assert offered_in_action("min_retries_per_step", "50") == []
    assert offered_in_action("max_retries_per_step", "010") == []
    assert offered_in_action("allow_unsafe_tool", "false") == [
        "rename 'allow_unsafe_tool' to allow_unsafe_tools"
    ]
    assert offered_in_action("require_sandbox", "on") == ["write true"]
