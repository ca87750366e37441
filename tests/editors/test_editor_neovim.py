"""The language server in a real editor: one headless Neovim (Debian's `neovim`, installed by
`.ci/run`) opens every example with `safety-profile lsp` attached and shows what
`safety-profile check --format json` reports; it edits a buffer, applies quick fixes, and runs
with yaml-language-server attached to the same buffers.

One Neovim process runs the whole plan (tests/neovim/session.lua) for the module; each test
reads its part of what the editor showed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from typing import Any

import pytest
from conftest import PROFILE_SCHEMA_PATH, REPO_ROOT, console_script, missing_tool
from git_repos import git, new_repository, write_files
from lsp_expectations import EXAMPLE_FILES, Shown, expected_diagnostics

SESSION = REPO_ROOT / "tests" / "neovim" / "session.lua"
SEVERITIES = {1: "error", 2: "warning", 3: "information", 4: "hint"}  # vim.diagnostic.severity
GOOD = ["max_cost_per_plan: 100", "max_total_cost: 200"]
COST_ORDER = ["max_cost_per_plan: 300", "max_total_cost: 200"]
STRICT = ["require_sandbox: true", "max_retries_per_step: 3"]
LOOSE = ["require_sandbox: false", "max_retries_per_step: 3"]
INVALID_ACTION = (
    "name: local/deploy\ndefinition_of_done: Deployed\nstrategy_actor: local/a\n"
    "execution_actor: local/a\nsafety_profile:\n  max_retries_per_step: yes\n"
)
BOTH = [
    f"# yaml-language-server: $schema={PROFILE_SCHEMA_PATH.as_uri()}",
    "max_retries_per_step: 200",
]


def neovim() -> str:
    found = shutil.which("nvim")
    if found is None:
        missing_tool("nvim is not on PATH: apt-get install neovim (.ci/run does)")
    return found


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Everything the plan asked Neovim to do, and what it showed."""
    from yaml_language_server import server_command

    folder = tmp_path_factory.mktemp("neovim")
    edited, both = folder / "edited.safety_profile.yaml", folder / "both.safety_profile.yaml"
    edited.write_text("\n".join(GOOD) + "\n")
    fixed = folder / "fixed.safety_profile.yaml"
    fixed.write_text("require_sandbox: yes\nmax_retries_per_step: 010\n")
    both.write_text("\n".join(BOTH) + "\n")
    # A repository whose profile is a link, and an action the editor opens from actions/.
    repository = folder / "repository"
    repository.mkdir()
    new_repository(repository, {"data/prod.yaml": "\n".join(STRICT) + "\n"})
    os.symlink("data/prod.yaml", repository / "prod.safety_profile.yaml")
    write_files(repository, {"actions/deploy.yaml": INVALID_ACTION})
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", "a profile that is a link, an action")
    asked = folder / "asked.safety_profile.yaml"
    asked.write_text("require_sandbox: true\n\n")
    plan = {
        "server": [console_script("safety-profile"), "lsp"],
        "yaml_server": server_command(),
        "root": str(REPO_ROOT),
        "output": str(folder / "shown.json"),
        "files": [str(path) for path in EXAMPLE_FILES],
        "edits": [
            {
                "file": str(edited),
                "steps": [{"lines": COST_ORDER, "expect": 1}, {"lines": GOOD, "expect": 0}],
            },
            {
                "file": str(repository / "prod.safety_profile.yaml"),
                "steps": [{"lines": LOOSE, "expect": 1}, {"lines": STRICT, "expect": 0}],
            },
        ],
        "rooted": [
            {
                "root": str(repository / "actions"),
                "files": [str(repository / "actions/deploy.yaml")],
            }
        ],
        "fixes": [{"file": str(fixed), "code": "yaml.ambiguous-scalar"}],
        "both": [str(both)],
        # On the empty line after the first field, then on the first field's key.
        "asks": [
            {"file": str(asked), "line": 2, "col": 0},
            {"file": str(asked), "line": 1, "col": 3},
        ],
    }
    (folder / "plan.json").write_text(json.dumps(plan))
    environment = {**os.environ, "SAFETY_PROFILE_PLAN": str(folder / "plan.json")}
    result = subprocess.run(
        [neovim(), "--headless", "--clean", "-n", "-i", "NONE", "-u", str(SESSION)],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    shown: dict[str, Any] = json.loads((folder / "shown.json").read_text())
    return {
        **shown,
        "edited": str(edited),
        "both_file": str(both),
        "fixed": str(fixed),
        "repository": repository,
    }


def as_shown(items: Any) -> list[Shown]:
    # An empty Lua table is encoded as {}: no diagnostics.
    return [
        Shown(d["line"], d["column"], d["message"], d["code"], SEVERITIES[d["severity"]])
        for d in (items or [])
    ]


def test_every_example_shows_in_neovim_what_check_reports(session: dict[str, Any]) -> None:
    expected = expected_diagnostics(EXAMPLE_FILES, "utf-8")  # Neovim's columns are bytes
    assert sum(map(len, expected.values())) > 100
    for path in EXAMPLE_FILES:
        shown = session["files"][str(path)]
        assert shown["published"], f"the server published nothing for {path}"
        assert as_shown(shown["diagnostics"]) == expected[path], path


def test_an_edit_shows_a_problem_then_clears_it(session: dict[str, Any]) -> None:
    violation, fixed = session["edits"][session["edited"]]
    assert violation["reached"]
    [problem] = as_shown(violation["diagnostics"])
    assert (problem.line, problem.code, problem.severity) == (1, "schema.cost-order", "error")
    assert fixed["reached"]
    assert as_shown(fixed["diagnostics"]) == []


def test_both_servers_attach_to_one_buffer(session: dict[str, Any]) -> None:
    shown = session["both"][session["both_file"]]
    assert shown["published"]
    [ours] = as_shown(shown["ours"])
    assert (ours.line, ours.code) == (1, "schema.less-than-equal")
    [theirs] = shown["yaml_server"]
    assert theirs["line"] == 1
    assert "maximum" in theirs["message"]


def test_a_quick_fix_applied_in_neovim_clears_its_problem(session: dict[str, Any]) -> None:
    shown = session["fixes"][session["fixed"]]
    assert shown["applied"] == "write true"
    assert shown["lines"] == ["require_sandbox: true", "max_retries_per_step: 010"]
    [left] = as_shown(shown["diagnostics"])
    assert (left.line, left.code) == (1, "yaml.ambiguous-scalar")


def test_editing_a_profile_that_is_a_link_notes_what_loosens_against_head(
    session: dict[str, Any],
) -> None:
    loosened, restored = session["edits"][str(session["repository"] / "prod.safety_profile.yaml")]
    assert loosened["reached"]
    [note] = as_shown(loosened["diagnostics"])
    assert (note.line, note.code, note.severity) == (0, "loosens.require_sandbox", "information")
    assert note.message == "loosens: require_sandbox: true → false"
    assert restored["reached"]
    assert as_shown(restored["diagnostics"]) == []


def test_an_action_opened_from_its_folder_shows_what_check_reports(
    session: dict[str, Any],
) -> None:
    """Neovim opened in actions/: the action is an action, by its path in the repository."""
    repository = session["repository"]
    shown = session["rooted"][str(repository / "actions/deploy.yaml")]
    assert shown["published"]
    result = subprocess.run(
        [
            console_script("safety-profile"),
            "check",
            "--kind",
            "action",
            "--format",
            "json",
            "actions/deploy.yaml",
        ],
        cwd=repository,
        capture_output=True,
        text=True,
        check=False,
    )
    expected = [
        (p["line"] - 1, p["column"] - 1, p["rule"], p["message"]) for p in json.loads(result.stdout)
    ]
    assert [
        (d.line, d.column, d.code, d.message) for d in as_shown(shown["diagnostics"])
    ] == expected
    assert [code for _, _, code, _ in expected] == ["yaml.ambiguous-scalar"]


def test_completion_and_hover_in_neovim(session: dict[str, Any]) -> None:
    from cleveragents.reading.rules import STRICTER

    schema = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
    on_new_line, on_key = session["asks"]
    fields = [name for name in schema["properties"] if name != "require_sandbox"]
    assert [item["label"] for item in on_new_line["completion"]] == fields
    # Neovim 0.7 takes no snippets: the key and its colon, nothing to tab through.
    assert [item["insert"] for item in on_new_line["completion"]] == [f"{f}: " for f in fields]
    hover = on_key["hover"]
    assert schema["properties"]["require_sandbox"]["description"] in hover
    assert "Default: true" in hover
    assert f"Stricter: {STRICTER['require_sandbox']}" in hover
