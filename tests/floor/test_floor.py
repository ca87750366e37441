"""An organisation's floor: every profile at least as strict as it, field by field.

The domain's `fields_below` per field and direction; where the floor is set (pyproject.toml found
upwards from each file to the repository root, `--floor`, `--no-floor`); what `check`, `resolve`
and `diff --git` report, run as the real CLI in real folders and git repositories; and every
floor that cannot be used, in every command, exiting 2 with its message.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO_ROOT
from field_lists import COSTS, FLAGS, SCHEMA_FIELDS
from git_repos import git, new_repository, secrets_repository, write_files
from programs import BIN, run_program
from readme import code_blocks

from cleveragents.domain.models.core.safety_profile import DEFAULT_SAFETY_PROFILE, SafetyProfile
from cleveragents.domain.models.core.strictness import Change, FieldChange

HOOKS = REPO_ROOT / ".pre-commit-hooks.yaml"

# (field, the floor's value, the profile's value, whether the profile is below the floor).
FLOOR_ROWS: list[tuple[str, Any, Any, bool]] = [
    *[
        row
        for flag in FLAGS
        for row in (
            (flag, True, False, True),
            (flag, False, True, False),
            (flag, True, True, False),
        )
    ],
    ("allow_unsafe_tools", False, True, True),
    ("allow_unsafe_tools", True, False, False),
    ("allow_unsafe_tools", False, False, False),
    *[
        row
        for cost in COSTS
        for row in (
            (cost, 100.0, 150.0, True),
            (cost, 100.0, 50.0, False),
            (cost, 100.0, 100.0, False),
            (cost, 100.0, None, True),  # null is no limit: below any limit
            (cost, 0.0, None, True),
            (cost, None, 1e9, False),  # a floor without a limit takes any limit
            (cost, None, None, False),
        )
    ],
    ("max_retries_per_step", 2, 3, True),
    ("max_retries_per_step", 2, 2, False),
    ("max_retries_per_step", 2, 0, False),
    ("allowed_skill_categories", ["code"], ["code", "deploy"], True),
    ("allowed_skill_categories", ["code"], ["deploy"], True),  # allows what the floor does not
    ("allowed_skill_categories", ["code"], [], True),  # [] is every category
    ("allowed_skill_categories", ["code", "test"], ["test", "code"], False),  # order is no matter
    ("allowed_skill_categories", ["code", "test"], ["code"], False),
    ("allowed_skill_categories", [], ["code"], False),
    ("allowed_skill_categories", [], [], False),
]


def test_every_field_has_rows_for_both_directions() -> None:
    for field in SCHEMA_FIELDS:
        verdicts = {below for name, _, _, below in FLOOR_ROWS if name == field}
        assert verdicts == {True, False}, field


@pytest.mark.parametrize(("field", "floor_value", "value", "below"), FLOOR_ROWS)
def test_fields_below_the_floor(field: str, floor_value: Any, value: Any, below: bool) -> None:
    floor = SafetyProfile(**{field: floor_value})
    profile = SafetyProfile(**{field: value})
    found = profile.fields_below(floor)
    if below:
        # old: the floor's value; new: the profile's (categories as the model keeps them).
        expected = FieldChange(
            field, getattr(floor, field), getattr(profile, field), Change.LOOSENS
        )
        assert found == (expected,)
    else:
        assert found == ()
    assert profile.is_at_least_as_strict_as(floor) is not below


def test_a_field_the_floor_leaves_out_constrains_as_its_default() -> None:
    floor = SafetyProfile(max_total_cost=100.0)  # everything else at its default
    profile = SafetyProfile(
        max_total_cost=100.0,
        max_retries_per_step=4,  # the default is 3
        require_checkpoints=False,  # the default is true
        require_human_approval=False,  # the default (false) asks nothing
        allowed_skill_categories=["code"],  # the default ([]) allows every category
        max_cost_per_plan=90.0,  # the default (null) sets no limit
    )
    assert [change.field for change in profile.fields_below(floor)] == [
        "require_checkpoints",
        "max_retries_per_step",
    ]
    assert SafetyProfile().fields_below(floor)[0].field == "max_total_cost"
    assert DEFAULT_SAFETY_PROFILE.fields_below(SafetyProfile()) == ()


# The CLI, in real folders.

FLOOR = (
    "require_sandbox: true\nmax_total_cost: 100.0\nallowed_skill_categories: [code, test]\n"
    "max_retries_per_step: 2\n"
)
LOOSE = "require_sandbox: false\nallowed_skill_categories: [code, deploy]\n"
AT_FLOOR = "max_total_cost: 50.0\nallowed_skill_categories: [test]\nmax_retries_per_step: 1\n"
PYPROJECT = '[tool.safety-profile]\nfloor = "policy/floor.yaml"\n'
ACTION = """\
name: local/deploy
description: Deploy
definition_of_done: Deployed
strategy_actor: local/default
execution_actor: local/default
safety_profile:
  max_total_cost: 500.0
  max_retries_per_step: 1
"""


def safety_profile(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return run_program("safety-profile", *args, cwd=cwd, env=env)


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A repository whose pyproject.toml sets a floor; a loose profile two folders down."""
    return new_repository(
        tmp_path,
        {
            "pyproject.toml": PYPROJECT,
            "policy/floor.yaml": FLOOR,
            "teams/a/loose.safety_profile.yaml": LOOSE,
            "teams/a/ok.safety_profile.yaml": AT_FLOOR,
            "actions/deploy.yaml": ACTION,
        },
    )


def test_check_reports_each_field_below_the_floor_where_it_is(repository: Path) -> None:
    result = safety_profile(
        "check", "teams/a/loose.safety_profile.yaml", "teams/a/ok.safety_profile.yaml",
        cwd=repository,
    )  # fmt: skip
    source = "(policy/floor.yaml)"
    assert result.stdout.splitlines() == [
        # Absent keys: their defaults are below the floor; placed where the profile starts.
        "teams/a/loose.safety_profile.yaml:1:1: error: max_retries_per_step: 3 (the key is "
        f"absent: its default applies) is looser than the floor's 2 {source} [floor.looser]",
        "teams/a/loose.safety_profile.yaml:1:1: error: max_total_cost: null (no limit; the key "
        f"is absent: its default applies) is looser than the floor's 100.0 {source} [floor.looser]",
        "teams/a/loose.safety_profile.yaml:1:18: error: require_sandbox: false is looser than "
        f"the floor's true {source} [floor.looser]",
        "teams/a/loose.safety_profile.yaml:2:27: error: allowed_skill_categories: "
        f'["code", "deploy"] is looser than the floor\'s ["code", "test"] {source}; it allows '
        '"deploy" [floor.looser]',
        "1 of 2 files invalid",
    ]
    assert result.returncode == 1
    assert result.stderr == ""
    as_json = safety_profile(
        "check", "--format", "json", "teams/a/loose.safety_profile.yaml", cwd=repository
    )
    assert {problem["rule"] for problem in json.loads(as_json.stdout)} == {"floor.looser"}


def sarif_rules(output: str) -> dict[str, str]:
    (run,) = json.loads(output)["runs"]
    return {rule["id"]: rule["shortDescription"]["text"] for rule in run["tool"]["driver"]["rules"]}


def test_sarif_logs_name_the_floor_rule(repository: Path) -> None:
    loose = "teams/a/loose.safety_profile.yaml"
    check = safety_profile("check", "--format", "sarif", loose, cwd=repository)
    write_files(repository, {"new/loose.safety_profile.yaml": LOOSE})
    diff = safety_profile("diff", "--git", "HEAD", "--format", "sarif", cwd=repository)
    for result in (check, diff):
        assert (result.returncode, result.stderr) == (1, "")
        rules = sarif_rules(result.stdout)
        assert rules["floor.looser"] == "A field looser than the organisation's floor"


def test_check_holds_an_actions_embedded_profile_to_the_floor(repository: Path) -> None:
    result = safety_profile("check", "--kind", "action", "actions/deploy.yaml", cwd=repository)
    assert result.returncode == 1
    assert result.stdout.splitlines()[:2] == [
        "actions/deploy.yaml:7:3: error: safety_profile.allowed_skill_categories: [] (every "
        "category; the key is absent: its default applies) is looser than the floor's "
        '["code", "test"] (policy/floor.yaml) [floor.looser]',
        "actions/deploy.yaml:7:19: error: safety_profile.max_total_cost: 500.0 is looser than "
        "the floor's 100.0 (policy/floor.yaml) [floor.looser]",
    ]


def test_the_floor_is_found_from_each_file_upwards_to_the_repository_root(
    tmp_path: Path,
) -> None:
    outer = tmp_path / "outer"
    write_files(outer, {"pyproject.toml": PYPROJECT, "policy/floor.yaml": FLOOR})
    (outer / "repo").mkdir()
    repository = new_repository(
        outer / "repo",
        {
            # A pyproject.toml without the table, or with it but no floor, sets none: look on.
            "pyproject.toml": "[project]\nname = 'x'\n",
            "plain/pyproject.toml": "[tool.safety-profile]\n",
            "plain/loose.safety_profile.yaml": LOOSE,
            # A floor, relative to its own pyproject.toml.
            "strict/pyproject.toml": '[tool.safety-profile]\nfloor = "../floor.yaml"\n',
            "floor.yaml": "require_sandbox: true\n",
            "strict/deep/loose.safety_profile.yaml": LOOSE,
        },
    )
    # The pyproject.toml above the repository root is not the repository's: no floor there.
    plain = safety_profile("check", "plain/loose.safety_profile.yaml", cwd=repository)
    assert (plain.returncode, plain.stdout) == (0, "ok: 1 file valid\n")
    strict = safety_profile("check", "loose.safety_profile.yaml", cwd=repository / "strict/deep")
    assert strict.returncode == 1
    assert strict.stdout == (
        "loose.safety_profile.yaml:1:18: error: require_sandbox: false is looser than the "
        "floor's true (../../floor.yaml) [floor.looser]\n1 of 1 file invalid\n"
    )
    # Outside any repository, the search goes on upwards.
    write_files(outer, {"loose.safety_profile.yaml": LOOSE})
    above = safety_profile("check", "loose.safety_profile.yaml", cwd=outer)
    assert above.returncode == 1
    assert "(policy/floor.yaml)" in above.stdout


def test_a_nearer_pyproject_adds_a_floor_and_never_lifts_one_set_above_it(
    repository: Path,
) -> None:
    """A change that adds `teams/a/pyproject.toml` naming a lenient floor of its own (a
    hostile author's way round the organisation's floor) leaves the root's floor in force:
    every floor from the file up to the repository root applies, the nearest first."""
    loose = "teams/a/loose.safety_profile.yaml"
    before = safety_profile("check", loose, cwd=repository)
    assert before.returncode == 1
    assert "require_sandbox: false is looser than the floor's true (policy/floor.yaml)" in (
        before.stdout
    )
    lenient = {
        "teams/a/pyproject.toml": '[tool.safety-profile]\nfloor = "lenient.yaml"\n',
        "teams/a/lenient.yaml": "require_sandbox: false\nallow_unsafe_tools: true\n",
    }
    write_files(repository, lenient)
    after = safety_profile("check", loose, cwd=repository)
    assert (after.returncode, after.stdout) == (1, before.stdout)
    git(repository, "add", "-A")
    write_files(repository, {"teams/a/new.safety_profile.yaml": LOOSE})
    diff = safety_profile("diff", "--git", "HEAD", cwd=repository)
    assert diff.returncode == 1
    assert (
        "teams/a/new.safety_profile.yaml:1:18: loosens: require_sandbox: false is looser than "
        "the floor's true (policy/floor.yaml) [floor.looser]"
    ) in diff.stdout.splitlines()
    # A stricter floor nearer the file adds to the root's, its lines naming their source.
    write_files(
        repository, {"teams/a/lenient.yaml": "require_sandbox: false\nmax_retries_per_step: 1\n"}
    )
    both = safety_profile("check", loose, cwd=repository)
    added = [line for line in both.stdout.splitlines() if line not in before.stdout.splitlines()]
    assert added == [
        f"{loose}:1:1: error: max_retries_per_step: 3 (the key is absent: its default applies) "
        "is looser than the floor's 1 (teams/a/lenient.yaml) [floor.looser]"
    ]
    # The same floor named again nearer the file is one floor, reported once.
    again_pyproject = '[tool.safety-profile]\nfloor = "../../policy/floor.yaml"\n'
    write_files(repository, {"teams/a/pyproject.toml": again_pyproject})
    again = safety_profile("check", loose, cwd=repository)
    assert (again.returncode, again.stdout) == (1, before.stdout)
    resolved = safety_profile(
        "resolve", "--project", "loose.safety_profile.yaml", "--format", "json",
        cwd=repository / "teams" / "a",
    )  # fmt: skip
    assert [floor["source"] for floor in json.loads(resolved.stdout)["floors"]] == [
        "../../policy/floor.yaml"
    ]


def test_floor_option_overrides_and_no_floor_is_refused_unless_allowed(repository: Path) -> None:
    write_files(repository, {"lenient.yaml": "require_sandbox: false\n"})
    loose = "teams/a/loose.safety_profile.yaml"
    # The given floor replaces the configured one: the loose profile meets it.
    given = safety_profile("check", "--floor", "lenient.yaml", loose, cwd=repository)
    assert (given.returncode, given.stdout) == (0, "ok: 1 file valid\n")
    refused = safety_profile("check", "--no-floor", loose, cwd=repository)
    assert refused.returncode == 2
    assert refused.stdout == ""
    assert refused.stderr == (
        "safety-profile: --no-floor: pyproject.toml sets a floor (policy/floor.yaml), which "
        "applies; set SAFETY_PROFILE_ALLOW_NO_FLOOR=1 in the environment to check without it\n"
    )
    allowed = safety_profile(
        "check", "--no-floor", loose, cwd=repository, SAFETY_PROFILE_ALLOW_NO_FLOOR="1"
    )
    assert (allowed.returncode, allowed.stdout) == (0, "ok: 1 file valid\n")
    both = safety_profile("check", "--no-floor", "--floor", "x.yaml", loose, cwd=repository)
    assert both.returncode == 2
    assert "--floor and --no-floor do not go together" in both.stderr
    two_files = safety_profile("diff", "--floor", "lenient.yaml", loose, loose, cwd=repository)
    assert two_files.returncode == 2
    assert "--floor and --no-floor go with --git REV or --pre-commit" in two_files.stderr


def test_resolve_says_when_the_applied_profile_is_below_the_floor(repository: Path) -> None:
    below = safety_profile(
        "resolve", "--project", "teams/a/loose.safety_profile.yaml", cwd=repository
    )
    assert below.returncode == 1
    assert (
        "# below the floor: require_sandbox: false is looser than the floor's true "
        "(policy/floor.yaml)"
    ) in below.stdout.splitlines()
    meets = safety_profile(
        "resolve", "--project", "teams/a/ok.safety_profile.yaml", "--format", "json",
        cwd=repository,
    )  # fmt: skip
    assert meets.returncode == 0
    assert json.loads(meets.stdout)["floors"] == [{"source": "policy/floor.yaml", "below": []}]


def test_diff_git_compares_an_added_profile_with_the_floor(repository: Path) -> None:
    write_files(
        repository,
        {"new/loose.safety_profile.yaml": LOOSE, "new/ok.safety_profile.yaml": AT_FLOOR},
    )
    git(repository, "add", "-A")
    result = safety_profile("diff", "--git", "HEAD", "--staged", cwd=repository)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert (
        "new/loose.safety_profile.yaml:1:18: loosens: require_sandbox: false is looser than "
        "the floor's true (policy/floor.yaml) [floor.looser]"
    ) in lines
    assert (
        "new/ok.safety_profile.yaml: added: it overrides the next layer; review it whole "
        "[diff.added]" in (lines)
    )
    assert not any(
        line.startswith("new/ok.safety_profile.yaml") and "loosens" in line for line in lines
    )
    as_json = json.loads(
        safety_profile("diff", "--git", "HEAD", "--format", "json", cwd=repository).stdout
    )
    assert "floor.looser" in {change["rule"] for change in as_json["changes"]}
    # An explicit --baseline is the baseline instead (check still holds the file to the floor).
    write_files(repository, {"lenient.yaml": "require_sandbox: false\n"})
    given = safety_profile(
        "diff", "--git", "HEAD", "--baseline", "lenient.yaml", "--format", "json", cwd=repository
    )
    rules = {change["rule"] for change in json.loads(given.stdout)["changes"]}
    assert "floor.looser" not in rules
    assert "loosens.require_sandbox" not in rules


# Every floor that cannot be used stops every command with exit 2 and says why.

BAD_FLOORS: list[tuple[str, dict[str, str], str]] = [
    (
        "missing file",
        {"pyproject.toml": '[tool.safety-profile]\nfloor = "nowhere.yaml"\n'},
        "the floor nowhere.yaml (set in pyproject.toml): no such file; check the path",
    ),
    (
        "a folder",
        {"pyproject.toml": '[tool.safety-profile]\nfloor = "policy"\n', "policy/x": ""},
        "the floor policy (set in pyproject.toml): is a directory; pass the YAML files inside it",
    ),
    (
        "invalid floor",
        {
            "pyproject.toml": '[tool.safety-profile]\nfloor = "floor.yaml"\n',
            "floor.yaml": "require_sandbox: yes\n",
        },
        "the floor floor.yaml (set in pyproject.toml) is not a valid safety profile; fix it:",
    ),
    (
        "package not installed",
        {"pyproject.toml": '[tool.safety-profile]\nfloor = "pkg:acme_nowhere/floor.yaml"\n'},
        "the floor pkg:acme_nowhere/floor.yaml (set in pyproject.toml): the package "
        "'acme_nowhere' is not installed; install it beside safety-profile (in pre-commit: the "
        "hook's additional_dependencies)",
    ),
    (
        "no such resource",
        {"pyproject.toml": '[tool.safety-profile]\nfloor = "pkg:json/floor.yaml"\n'},
        "the floor pkg:json/floor.yaml (set in pyproject.toml): the package 'json' has no file "
        "'floor.yaml'",
    ),
    (
        "malformed pkg",
        {"pyproject.toml": '[tool.safety-profile]\nfloor = "pkg:json/../x.yaml"\n'},
        "the floor pkg:json/../x.yaml (set in pyproject.toml) is not of the form "
        "pkg:PACKAGE/RESOURCE",
    ),
    (
        "a module, not a package",
        {"pyproject.toml": '[tool.safety-profile]\nfloor = "pkg:antigravity/floor.yaml"\n'},
        # Found, never imported: importing antigravity would open a web browser.
        "the floor pkg:antigravity/floor.yaml (set in pyproject.toml): 'antigravity' is a "
        "module, not a package that holds files",
    ),
    (
        "invalid TOML",
        {"pyproject.toml": "[tool.safety-profile\n"},
        "pyproject.toml: invalid TOML: ",
    ),
    (
        "not a string",
        {"pyproject.toml": "[tool.safety-profile]\nfloor = 1\n"},
        "pyproject.toml: [tool.safety-profile] floor must be a path relative to this file or "
        "'pkg:PACKAGE/RESOURCE', as a string; found 1",
    ),
    (
        # A NUL, which no file name holds, took the commands down ("internal error").
        "a NUL in the path",
        {"pyproject.toml": '[tool.safety-profile]\nfloor = "floor.yaml\\u0000.txt"\n'},
        "pyproject.toml: [tool.safety-profile] floor must be a path relative to this file or "
        "'pkg:PACKAGE/RESOURCE', as a string; found 'floor.yaml\\x00.txt'",
    ),
    (
        "misspelt key",
        {"pyproject.toml": '[tool.safety-profile]\nflor = "floor.yaml"\n'},
        "pyproject.toml: [tool.safety-profile] has unknown keys 'flor'; the one key is 'floor'",
    ),
    (
        "misspelt table",
        {"pyproject.toml": '[tool.safety_profile]\nfloor = "floor.yaml"\n'},
        "pyproject.toml: [tool.safety_profile] is not a table safety-profile reads; write it "
        "[tool.safety-profile]",
    ),
    (
        "a look-alike table",
        {"pyproject.toml": '[tool."safety\u2010profile"]\nfloor = "floor.yaml"\n'},
        "pyproject.toml: [tool.safety\u2010profile] is not a table safety-profile reads",
    ),
    (
        "tool not a table",
        {"pyproject.toml": 'tool = "safety-profile"\n'},
        "pyproject.toml: tool must be a table, [tool]; found 'safety-profile'",
    ),
    (
        "pyproject.toml a folder",
        {"pyproject.toml/floor.yaml": "{}\n"},
        "pyproject.toml: not a regular file, so the floor it may set cannot be read",
    ),
]

COMMANDS: dict[str, tuple[str, ...]] = {
    "check": ("check", "x.safety_profile.yaml"),
    "check --kind action": ("check", "--kind", "action", "actions/a.yaml"),
    "resolve": ("resolve", "--project", "x.safety_profile.yaml"),
    "diff --git": ("diff", "--git", "HEAD"),
    "diff --pre-commit (the hook)": ("diff", "--pre-commit"),
}


@pytest.mark.parametrize(
    ("case", "files", "message"), BAD_FLOORS, ids=[c for c, _, _ in BAD_FLOORS]
)
def test_a_floor_that_cannot_be_used_stops_every_command(
    tmp_path: Path, case: str, files: dict[str, str], message: str
) -> None:
    repository = new_repository(
        tmp_path,
        {"x.safety_profile.yaml": "require_sandbox: true\n", "actions/a.yaml": ACTION, **files},
    )
    for name, args in COMMANDS.items():
        result = safety_profile(*args, cwd=repository)
        assert (result.returncode, result.stdout) == (2, ""), (name, result.stderr)
        assert result.stderr.startswith(f"safety-profile: {message}"), (name, result.stderr)
    if case == "invalid floor":
        # Each problem as `check` reports it, its rule id included.
        (problem,) = [line for line in result.stderr.splitlines() if ": error: " in line]
        assert problem.startswith("safety-profile:   floor.yaml:1:18: error: require_sandbox:")
        assert problem.endswith(" [yaml.ambiguous-scalar]"), problem


def test_a_file_whose_name_reads_like_the_package_floor_does_not_replace_it(
    repository: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The root sets `pkg:acme_strict/floor.yaml` (a package installed outside the repository);
    a change adds a file of that very name in the repository, lenient, and a nested
    pyproject.toml naming it. Shown relative to the root the two read alike; they are two
    floors, the file's shown as `./pkg:...`, and the package's still applies."""
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"acme_strict/__init__.py": "", "acme_strict/floor.yaml": FLOOR})
    write_files(
        repository,
        {
            "pyproject.toml": '[tool.safety-profile]\nfloor = "pkg:acme_strict/floor.yaml"\n',
            # Lenient but for one field, so that its own lines show how it is named.
            "pkg:acme_strict/floor.yaml": "require_sandbox: false\nmax_retries_per_step: 1\n",
            "teams/a/pyproject.toml": (
                '[tool.safety-profile]\nfloor = "../../pkg:acme_strict/floor.yaml"\n'
            ),
        },
    )
    loose = "teams/a/loose.safety_profile.yaml"
    result = safety_profile("check", loose, cwd=repository, PYTHONPATH=str(site))
    assert result.returncode == 1, result.stderr
    assert (
        f"{loose}:1:18: error: require_sandbox: false is looser than the floor's true "
        "(pkg:acme_strict/floor.yaml) [floor.looser]"
    ) in result.stdout.splitlines()
    assert "(./pkg:acme_strict/floor.yaml)" in result.stdout  # the file's, by its own name


def test_a_package_floor_is_never_the_repositorys_own_copy(repository: Path) -> None:
    """A folder the change adds, named like the floor's package, is not the installed package:
    not under `python -m` (the current folder first on sys.path), and refused when the
    environment puts the repository's folders on the path."""
    write_files(
        repository,
        {
            "pyproject.toml": '[tool.safety-profile]\nfloor = "pkg:acme_in_repo/floor.yaml"\n',
            "acme_in_repo/__init__.py": "",
            "acme_in_repo/floor.yaml": "require_sandbox: false\n",
            "src/acme_in_repo/__init__.py": "",
            "src/acme_in_repo/floor.yaml": "require_sandbox: false\n",
        },
    )
    loose = "teams/a/loose.safety_profile.yaml"
    as_module = subprocess.run(
        [str(BIN / "python"), "-m", "cleveragents.safety_toolkit", "check", loose],
        cwd=repository,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (as_module.returncode, as_module.stdout) == (2, "")
    assert "the package 'acme_in_repo' is not installed" in as_module.stderr
    on_path = safety_profile("check", loose, cwd=repository, PYTHONPATH=str(repository / "src"))
    assert (on_path.returncode, on_path.stdout) == (2, "")
    assert (
        "src/acme_in_repo/floor.yaml is a file of the repository it checks, not of the "
        "installed package 'acme_in_repo'"
    ) in on_path.stderr


def test_resolve_holds_the_profile_to_the_floors_of_its_files_from_any_folder(
    repository: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    loose = repository / "teams" / "a" / "loose.safety_profile.yaml"
    result = safety_profile("resolve", "--project", str(loose), "--format", "json", cwd=elsewhere)
    assert result.returncode == 1
    (floor,) = json.loads(result.stdout)["floors"]
    assert floor["source"].endswith("policy/floor.yaml")
    assert "require_sandbox" in {below["field"] for below in floor["below"]}


def test_a_floor_given_on_the_command_line_fails_the_same_way(tmp_path: Path) -> None:
    write_files(tmp_path, {"x.safety_profile.yaml": "{}\n"})
    result = safety_profile(
        "check", "--floor", "pkg:acme_nowhere/f.yaml", "x.safety_profile.yaml", cwd=tmp_path
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(
        "safety-profile: the floor pkg:acme_nowhere/f.yaml (given with --floor): the package "
        "'acme_nowhere' is not installed"
    )


def test_the_ci_step_gives_the_organisations_floor_to_the_review_action() -> None:
    """docs/floor.md's CI step is the review action with the floor and its package as inputs
    (held besides the repository's floors, --add-floor). tests/hooks/test_review_action.py runs the
    action and checks it picks exactly the files the hooks' patterns pick."""
    ((language, block),) = code_blocks("In CI (GitHub Actions)")
    assert language == "yaml"
    (step,) = yaml.safe_load(block)
    assert step["uses"].startswith("cleveragents/cleveragents-safety-profile@")
    assert step["with"] == {
        "floor": "pkg:acme_policies/floor.safety_profile.yaml",
        "floor-package": "acme-policies==1.0.0",
    }
    action = yaml.safe_load((REPO_ROOT / "action.yml").read_text(encoding="utf-8"))
    assert "--add-floor" in action["runs"]["steps"][-1]["run"]


# A floor a repository sets must be part of it; `--floor PATH` may name any file.

SECRET = "token: hunter2\nrequire_sandbox: maybe\n"  # an invalid profile: its text would be shown


@pytest.mark.parametrize(
    ("setting", "what"),
    [
        ('floor = "../outside.yaml"', "leads outside the repository"),
        ('floor = "policy/../../outside.yaml"', "leads outside the repository"),
        ('floor = "link.yaml"', "leads outside the repository"),  # a link out
        ('floor = ".git/info/exclude"', "is in git's own folder (.git)"),
        ('floor = "local.yaml"', "is a file git ignores"),
    ],
    ids=["dot-dot", "through-a-folder", "a-link-out", "git-folder", "ignored"],
)
def test_a_floor_outside_the_repository_is_refused_and_never_printed(
    tmp_path: Path, setting: str, what: str
) -> None:
    """`floor = "../x"` left the repository: `check` read the file, and printed the first
    bytes of one that is not a valid profile in its error. Such a floor (and one in `.git`, or
    one git ignores: a local file, not what is reviewed) is refused, unread, exit 2."""
    (tmp_path / "outside.yaml").write_text(SECRET, encoding="utf-8")
    repository = tmp_path / "repo"
    repository.mkdir()
    new_repository(
        repository,
        {
            "pyproject.toml": f"[tool.safety-profile]\n{setting}\n",
            "x.safety_profile.yaml": "require_sandbox: true\n",
            "policy/keep": "",
            ".gitignore": "local.yaml\n",
        },
    )
    os.symlink("../outside.yaml", repository / "link.yaml")
    (repository / "local.yaml").write_text(SECRET, encoding="utf-8")
    spec = setting.split('"')[1]
    for args in (
        ("check", "x.safety_profile.yaml"),
        ("diff", "--git", "HEAD"),
        ("diff", "--pre-commit"),
    ):
        result = safety_profile(*args, cwd=repository)
        assert (result.returncode, result.stdout) == (2, ""), (args, result.stderr)
        assert "hunter2" not in result.stderr, args
        assert result.stderr.startswith(
            f"safety-profile: the floor {os.path.normpath(spec)} (set in pyproject.toml) {what}, "
            "so it is not read: a floor a repository sets must be a file of that repository"
        ), (args, result.stderr)
    # Given on the command line, any file is the user's choice.
    given = safety_profile(
        "check", "--floor", str(tmp_path / "outside.yaml"), "x.safety_profile.yaml",
        cwd=repository,
    )  # fmt: skip
    assert given.returncode == 2
    assert "is not a valid safety profile" in given.stderr


def test_a_floor_an_attribute_transforms_is_refused_and_never_printed(tmp_path: Path) -> None:
    """A repository that keeps secrets encrypted (git-crypt; here a base64 filter) decrypts
    them on checkout. `floor = "secrets.env"` read the decrypted file from the working tree
    and printed it in the error that it is not a valid profile ("the top level is
    'DEPLOY_KEY=...'"), in `check` and in `diff` against the working tree. A floor a git
    attribute transforms on checkout is refused now, unread, as a profile is."""
    secrets_repository(
        tmp_path,
        {
            ".gitattributes": "secrets.env filter=crypt\n",
            "secrets.env": "DEPLOY_KEY=hunter2\n",
            "pyproject.toml": '[tool.safety-profile]\nfloor = "secrets.env"\n',
            "policy/floor.yaml": "require_sandbox: true\n",
            "x.safety_profile.yaml": "require_sandbox: true\n",
        },
    )
    for args in (("check", "x.safety_profile.yaml"), ("diff", "--git", "HEAD")):
        result = safety_profile(*args, cwd=tmp_path)
        assert (result.returncode, result.stdout) == (2, ""), (args, result.stderr)
        assert "hunter2" not in result.stderr, args
        assert result.stderr == (
            "safety-profile: the floor secrets.env (set in pyproject.toml): the git attribute "
            "filter=crypt makes a checkout of this file differ from the committed file, so what "
            "is reviewed is not what is read; remove it from .gitattributes for safety profiles "
            "and actions\n"
        ), (args, result.stderr)
    # What only an archive changes is no matter for a floor, read from the repository.
    write_files(
        tmp_path,
        {
            ".gitattributes": "secrets.env filter=crypt\npolicy/ export-ignore\n",
            "pyproject.toml": '[tool.safety-profile]\nfloor = "policy/floor.yaml"\n',
        },
    )
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "a floor kept out of archives")
    checked = safety_profile("check", "x.safety_profile.yaml", cwd=tmp_path)
    assert (checked.returncode, checked.stdout) == (0, "ok: 1 file valid\n"), checked.stderr


def test_a_pyproject_that_is_a_link_out_of_the_repository_is_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere.toml").write_text(
        '[tool.safety-profile]\nfloor = "x.yaml"\n', encoding="utf-8"
    )
    (tmp_path / "repo").mkdir()
    repository = new_repository(tmp_path / "repo", {"x.safety_profile.yaml": "{}\n"})
    os.symlink("../elsewhere.toml", repository / "pyproject.toml")
    result = safety_profile("check", "x.safety_profile.yaml", cwd=repository)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(
        "safety-profile: pyproject.toml: a link out of the repository, so it is not read"
    )


def test_a_package_floor_committed_under_a_site_packages_folder_is_refused(
    repository: Path,
) -> None:
    """A copy of the floor's package committed under any folder named `site-packages` passed
    for the installed package. git is asked: a file the repository tracks is its own."""
    site = "vendor/lib/site-packages"
    write_files(
        repository,
        {
            "pyproject.toml": '[tool.safety-profile]\nfloor = "pkg:acme_vendored/floor.yaml"\n',
            f"{site}/acme_vendored/__init__.py": "",
            f"{site}/acme_vendored/floor.yaml": "require_sandbox: false\n",
        },
    )
    loose = "teams/a/loose.safety_profile.yaml"
    env = {"PYTHONPATH": str(repository / site)}
    # Not tracked: an environment's packages (a `.venv` in the repository), accepted.
    untracked = safety_profile("check", loose, cwd=repository, **env)
    assert (untracked.returncode, untracked.stdout) == (0, "ok: 1 file valid\n"), untracked.stderr
    git(repository, "add", "-A")
    tracked = safety_profile("check", loose, cwd=repository, **env)
    assert (tracked.returncode, tracked.stdout) == (2, "")
    assert (
        f"{site}/acme_vendored/floor.yaml is a file of the repository it checks, not of the "
        "installed package 'acme_vendored'"
    ) in tracked.stderr


# diff --git: the floor file under review, and the floor of both revisions.


def test_loosening_the_floor_file_and_adding_a_profile_as_loose_fails(repository: Path) -> None:
    """One commit loosened `policy/floor.yaml` and added a profile exactly as loose: both hooks
    passed, the floor file being no profile to them and the added profile compared with the
    floor as the change left it. The floor file is compared like a profile, and profiles are
    held to the floor of both revisions."""
    loose_floor = FLOOR.replace("require_sandbox: true", "require_sandbox: false")
    write_files(
        repository,
        {
            "policy/floor.yaml": loose_floor,
            "teams/b/new.safety_profile.yaml": AT_FLOOR.replace(
                "max_total_cost: 50.0\n", "max_total_cost: 50.0\nrequire_sandbox: false\n"
            ),
        },
    )
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", "a looser floor, and a profile as loose")
    result = safety_profile("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=repository)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert (
        "policy/floor.yaml:1:18: loosens: require_sandbox: true → false [loosens.require_sandbox]"
        in lines
    )
    assert (
        "teams/b/new.safety_profile.yaml:2:18: loosens: require_sandbox: false is looser than "
        "the floor's true (policy/floor.yaml in HEAD~1) [floor.looser]"
    ) in lines
    # An explicit --baseline replaces the floors as the added profile's baseline; the floor's
    # own review stands.
    given = safety_profile(
        "diff", "--git", "HEAD~1", "--to", "HEAD", "--baseline", "teams/a/ok.safety_profile.yaml",
        cwd=repository,
    )  # fmt: skip
    assert (
        "policy/floor.yaml:1:18: loosens: require_sandbox: true → false [loosens.require_sandbox]"
        in given.stdout
    )
    # The loosening hook's comparison (staged), too.
    git(repository, "reset", "-q", "--soft", "HEAD~1")
    staged = safety_profile("diff", "--pre-commit", cwd=repository)
    assert staged.returncode == 1
    assert (
        "policy/floor.yaml:1:18: loosens: require_sandbox: true → false [loosens.require_sandbox]"
        in staged.stdout
    )


def test_removing_or_replacing_the_floor_setting_is_a_loosening(repository: Path) -> None:
    """A change that drops [tool.safety-profile] leaves later profiles unheld: floor.removed;
    one that names another floor file is compared with the floor it replaces. Profiles the
    change adds are held to the old revision's floor all the same."""
    write_files(
        repository,
        {
            "pyproject.toml": "[project]\nname = 'x'\n",
            "teams/c/new.safety_profile.yaml": LOOSE,
        },
    )
    git(repository, "add", "-A")
    removed = safety_profile("diff", "--pre-commit", "--format", "json", cwd=repository)
    assert removed.returncode == 1
    changes = json.loads(removed.stdout)["changes"]
    assert {
        "file": "pyproject.toml",
        "rule": "floor.removed",
    }.items() <= next(c for c in changes if c["file"] == "pyproject.toml").items()
    assert any(
        c["file"] == "teams/c/new.safety_profile.yaml" and c["rule"] == "floor.looser"
        for c in changes
    ), changes
    write_files(
        repository,
        {
            "pyproject.toml": '[tool.safety-profile]\nfloor = "lenient.yaml"\n',
            "lenient.yaml": "require_sandbox: false\n",
        },
    )
    git(repository, "rm", "-q", "--cached", "teams/c/new.safety_profile.yaml")
    git(repository, "add", "pyproject.toml", "lenient.yaml")
    replaced = safety_profile("diff", "--pre-commit", cwd=repository)
    assert replaced.returncode == 1
    assert (
        "pyproject.toml: loosens: require_sandbox: true → false (the floor lenient.yaml in place "
        "of policy/floor.yaml in HEAD) [loosens.require_sandbox]"
    ) in replaced.stdout.splitlines()


def test_a_changed_profile_is_held_to_the_floor_too(repository: Path) -> None:
    write_files(
        repository, {"teams/a/ok.safety_profile.yaml": AT_FLOOR + "require_sandbox: false\n"}
    )
    result = safety_profile("diff", "--git", "HEAD", cwd=repository)
    assert result.returncode == 1
    assert (
        "teams/a/ok.safety_profile.yaml:4:18: loosens: require_sandbox: false is looser than the "
        "floor's true (policy/floor.yaml) [floor.looser]"
    ) in result.stdout.splitlines()


def test_add_floor_holds_files_to_a_floor_besides_the_configured_ones(repository: Path) -> None:
    write_files(repository, {"org.yaml": "max_retries_per_step: 0\n"})
    result = safety_profile(
        "check", "--add-floor", "org.yaml", "teams/a/ok.safety_profile.yaml", cwd=repository
    )
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "teams/a/ok.safety_profile.yaml:3:23: error: max_retries_per_step: 1 is looser than the "
        "floor's 0 (org.yaml) [floor.looser]",
        "1 of 1 file invalid",
    ]
    configured = safety_profile("check", "teams/a/loose.safety_profile.yaml", cwd=repository)
    both = safety_profile(
        "check", "--add-floor", "org.yaml", "teams/a/loose.safety_profile.yaml", cwd=repository
    )
    assert set(configured.stdout.splitlines()[:-1]) < set(both.stdout.splitlines())
