"""The schema as editors see it, proven in the real yaml-language-server (the server VS Code,
Neovim, Helix and others run), pinned in package.json and installed by `npm ci`.

One server session serves the whole module. Documents are opened in memory, each under a new
name; they point at the canonical schema with the modeline, except where the VS Code settings
from editors/vscode/settings.json are what is being tested. Action files point at the installed
action schema, whose `safety_profile` is a relative `$ref` to the profile schema beside it.
The editor refuses every http(s) schema the server asks it for, so what works here works offline.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import EXAMPLES, PROFILE_SCHEMA_PATH, REPO_ROOT, SCHEMA_DIR, VALID_PROFILES
from lsp_client import REMOTE_CONTENT_REQUEST, JsonObject
from readme import documentation_text, modeline_block
from yaml_language_server import NODE_MINIMUM, Editor, editor_session

from cleveragents.safety_toolkit.core.starter import modeline

SECTION = "Editor autocompletion"
SCHEMA: dict[str, Any] = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
FIELDS = list(SCHEMA["properties"])
MODELINE = modeline(PROFILE_SCHEMA_PATH.as_uri())
STARTER_SNIPPET_LABEL = SCHEMA["defaultSnippets"][0]["label"]
PROPERTY_KIND = 10  # LSP CompletionItemKind.Property
ACTION_SCHEMA_PATH = SCHEMA_DIR / "action.schema.json"
ACTION_SCHEMA: dict[str, Any] = json.loads(ACTION_SCHEMA_PATH.read_text(encoding="utf-8"))
ACTION_STARTER_SNIPPET_LABEL = ACTION_SCHEMA["defaultSnippets"][0]["label"]
VALID_ACTIONS = sorted((EXAMPLES / "actions" / "valid").glob("*.yaml"))
# The required fields; after the modeline they fill lines 1 to 4, so `safety_profile:` is line 5.
ACTION_HEAD = """\
name: local/deploy
definition_of_done: Deployed
strategy_actor: local/default
execution_actor: local/default
"""
BLOCK_LINE = 6  # the first line inside `safety_profile:`


class ProfileEditor(Editor):
    def open_profile(self, body: str) -> str:
        """A document whose first line is the modeline pointing at the canonical schema."""
        return self.open(f"{MODELINE}\n{body}")


@pytest.fixture(scope="module")
def editor() -> Iterator[ProfileEditor]:
    with editor_session() as session:
        yield ProfileEditor(session.client, session.folder)


def _labels(items: list[JsonObject]) -> list[str]:
    return [item["label"] for item in items]


def _expand_snippet(text: str) -> str:
    """The text a snippet leaves when every placeholder keeps its default (Tab, Tab, ...)."""
    return re.sub(r"\$\{\d+:([^}]*)\}|\$\d+", lambda match: match.group(1) or "", text)


def _safety_profile(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed command line, as a user runs it."""
    executable = Path(sys.executable).with_name("safety-profile")
    return subprocess.run([str(executable), *args], capture_output=True, text=True, check=False)


# -- completion ------------------------------------------------------------------------------
def test_completion_on_an_empty_line_offers_every_field(editor: Editor) -> None:
    uri = editor.open_profile("\n")
    items = editor.client.completion(uri, 1, 0)
    fields = [item["label"] for item in items if item.get("kind") == PROPERTY_KIND]
    assert sorted(fields) == sorted(FIELDS)
    assert len(FIELDS) == 8


def test_completion_offers_only_the_fields_not_yet_written(editor: Editor) -> None:
    uri = editor.open_profile("require_sandbox: true\n\n")
    fields = [item["label"] for item in editor.client.completion(uri, 2, 0)]
    assert "require_sandbox" not in fields
    assert set(FIELDS) - {"require_sandbox"} <= set(fields)


def test_completion_after_require_sandbox_offers_true_and_false(editor: Editor) -> None:
    uri = editor.open_profile("require_sandbox: \n")
    assert sorted(_labels(editor.client.completion(uri, 1, len("require_sandbox: ")))) == [
        "false",
        "true",
    ]


def test_completion_inside_the_category_list_offers_the_examples(editor: Editor) -> None:
    uri = editor.open_profile("allowed_skill_categories:\n  - \n")
    labels = _labels(editor.client.completion(uri, 2, 4))
    assert {"code", "test", "deploy"} <= set(labels)


def test_one_completion_inserts_a_complete_valid_profile(editor: Editor, tmp_path: Path) -> None:
    uri = editor.open_profile("\n")
    (starter,) = [
        item
        for item in editor.client.completion(uri, 1, 0)
        if item["label"] == STARTER_SNIPPET_LABEL
    ]
    profile_text = f"{MODELINE}\n{_expand_snippet(starter['insertText'])}\n"

    written = tmp_path / "starter.safety_profile.yaml"
    written.write_text(profile_text, encoding="utf-8")
    result = _safety_profile("check", str(written))
    assert result.returncode == 0, result.stdout
    defaults = {name: field["default"] for name, field in SCHEMA["properties"].items()}
    assert yaml.safe_load(profile_text) == defaults  # every field, each at its default
    assert editor.client.diagnostics(editor.open(profile_text)) == []


@pytest.mark.parametrize(
    ("field", "expected"),
    [("max_cost_per_plan", "50.0"), ("max_total_cost", "200.0"), ("max_retries_per_step", "5")],
)
def test_cost_and_retry_fields_offer_a_value_snippet(
    editor: Editor, field: str, expected: str
) -> None:
    uri = editor.open_profile(f"{field}: \n")
    items = editor.client.completion(uri, 1, len(f"{field}: "))
    (snippet,) = [
        item
        for item in items
        if item["label"] == SCHEMA["properties"][field]["defaultSnippets"][0]["label"]
    ]
    value = _expand_snippet(snippet["insertText"])
    assert value == expected
    assert editor.client.diagnostics(editor.open_profile(f"{field}: {value}\n")) == []


# -- hover -----------------------------------------------------------------------------------
def test_hover_on_max_cost_per_plan_shows_its_description(editor: Editor) -> None:
    uri = editor.open_profile("max_cost_per_plan: 50.0\n")
    hover = editor.client.hover(uri, 1, 3)
    field = SCHEMA["properties"]["max_cost_per_plan"]
    assert field["title"] in hover
    assert field["markdownDescription"] in hover


# -- diagnostics -----------------------------------------------------------------------------
def _error_message(field: str) -> str:
    message: str = SCHEMA["properties"][field]["errorMessage"]
    return message


@pytest.mark.parametrize(
    ("body", "message", "column"),
    [
        ("max_retries_per_step: 500", "Value is above the maximum of 100.", 22),
        ("bogus: 1", "Property bogus is not allowed.", 0),
        ('require_sandbox: "no"', _error_message("require_sandbox"), 17),
        ("require_sandbox: yes", _error_message("require_sandbox"), 17),
        ("max_cost_per_plan: -5.0", "Value is below the minimum of 0.", 19),
        ("max_total_cost: -1", "Value is below the minimum of 0.", 16),
        ("max_retries_per_step: 3.5", _error_message("max_retries_per_step"), 22),
        ("allowed_skill_categories: code", _error_message("allowed_skill_categories"), 26),
    ],
)
def test_a_wrong_value_gets_one_diagnostic_where_it_is(
    editor: Editor, body: str, message: str, column: int
) -> None:
    uri = editor.open_profile(f"{body}\n")
    (diagnostic,) = editor.client.diagnostics(uri)
    assert diagnostic["message"] == message
    assert diagnostic["range"]["start"] == {"line": 1, "character": column}


@pytest.mark.parametrize("example", VALID_PROFILES, ids=lambda path: path.name)
def test_valid_profiles_get_no_diagnostics(editor: Editor, example: Path) -> None:
    text = example.read_bytes().decode("utf-8-sig")  # without a BOM: the modeline comes first
    assert editor.client.diagnostics(editor.open_profile(text)) == []


def test_the_readme_modeline_gives_completion(editor: Editor) -> None:
    readme_modeline = modeline_block(SECTION, PROFILE_SCHEMA_PATH.name)
    uri = editor.open(readme_modeline + "\n")
    fields = [item["label"] for item in editor.client.completion(uri, 1, 0)]
    assert set(FIELDS) <= set(fields)


# -- the VS Code settings: the schema found by file name, without a modeline -------------------
@pytest.mark.parametrize(
    ("name", "mapped"),
    [
        ("team{}.safety_profile.yaml", True),
        ("ci-safety-profile{}.yml", True),
        ("nested/dir/safety_profile{}.yaml", True),
        ("profile{}.yaml", False),
        ("safety_profile{}.json", False),
    ],
)
def test_vscode_settings_map_profile_file_names_to_the_schema(
    editor: Editor, name: str, mapped: bool
) -> None:
    uri = editor.open("bogus: 1\n", name=name)
    messages = [diagnostic["message"] for diagnostic in editor.client.diagnostics(uri)]
    assert messages == (["Property bogus is not allowed."] if mapped else [])
    # The editor checks the files the pre-commit hook checks, and no others.
    hooks = yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = [hook for hook in hooks if hook["id"] == "safety-profile"]
    assert (re.search(hook["files"], name.format(0)) is not None) == mapped


# -- action files: the `safety_profile:` block ------------------------------------------------
@pytest.fixture(scope="module")
def action_modeline() -> str:
    """The modeline for an action file: the installed action schema's path, as the command a
    user runs prints it, written as a file URI."""
    result = _safety_profile("schema", "--kind", "action", "--path")
    assert result.returncode == 0, result.stderr
    installed = Path(result.stdout.strip())
    assert installed.read_bytes() == ACTION_SCHEMA_PATH.read_bytes(), (
        "the installed action schema is not the one in schema/: pip install -e '.[test]' again"
    )
    return modeline(installed.as_uri())


def _open_action(editor: Editor, action_modeline: str, block: str) -> str:
    """An action whose `safety_profile:` block is `block` (its lines start at BLOCK_LINE)."""
    return editor.open(f"{action_modeline}\n{ACTION_HEAD}safety_profile:\n{block}")


def test_completion_inside_the_safety_profile_block_offers_every_field(
    editor: Editor, action_modeline: str
) -> None:
    uri = _open_action(editor, action_modeline, "  \n")
    items = editor.client.completion(uri, BLOCK_LINE, 2)
    fields = [item["label"] for item in items if item.get("kind") == PROPERTY_KIND]
    assert sorted(fields) == sorted(FIELDS)


def test_completion_after_a_nested_require_sandbox_offers_true_and_false(
    editor: Editor, action_modeline: str
) -> None:
    uri = _open_action(editor, action_modeline, "  require_sandbox: \n")
    labels = _labels(editor.client.completion(uri, BLOCK_LINE, len("  require_sandbox: ")))
    assert sorted(labels) == ["false", "true"]


def test_hover_on_a_nested_max_cost_per_plan_shows_its_description(
    editor: Editor, action_modeline: str
) -> None:
    uri = _open_action(editor, action_modeline, "  max_cost_per_plan: 50.0\n")
    hover = editor.client.hover(uri, BLOCK_LINE, 5)
    field = SCHEMA["properties"]["max_cost_per_plan"]
    assert field["title"] in hover
    assert field["markdownDescription"] in hover


@pytest.mark.parametrize(
    ("line", "message", "column"),
    [
        ("  max_retries_per_step: 500", "Value is above the maximum of 100.", 24),
        ("  bogus: 1", "Property bogus is not allowed.", 2),
        ('  require_sandbox: "no"', _error_message("require_sandbox"), 19),
        ("  max_cost_per_plan: -5.0", "Value is below the minimum of 0.", 21),
    ],
)
def test_a_wrong_nested_value_gets_one_diagnostic_where_it_is(
    editor: Editor, action_modeline: str, line: str, message: str, column: int
) -> None:
    uri = _open_action(editor, action_modeline, f"{line}\n")
    (diagnostic,) = editor.client.diagnostics(uri)
    assert diagnostic["message"] == message
    assert diagnostic["range"]["start"] == {"line": BLOCK_LINE, "character": column}


@pytest.mark.parametrize("example", VALID_ACTIONS, ids=lambda path: path.name)
def test_valid_actions_get_no_diagnostics(
    editor: Editor, action_modeline: str, example: Path
) -> None:
    text = example.read_text(encoding="utf-8")
    assert editor.client.diagnostics(editor.open(f"{action_modeline}\n{text}")) == []


def test_the_profile_schema_is_read_beside_the_action_schema_never_fetched(
    editor: Editor, action_modeline: str
) -> None:
    # The `$ref` resolves against the action schema's `$id`, an https URL nothing serves; the
    # server reads the file of that name beside the action schema instead. Any http(s) schema it
    # wanted would have been asked of this editor (and refused).
    uri = _open_action(editor, action_modeline, "  bogus: 1\n")
    messages = [diagnostic["message"] for diagnostic in editor.client.diagnostics(uri)]
    assert messages == ["Property bogus is not allowed."]
    assert editor.client.server_requests(REMOTE_CONTENT_REQUEST) == []


SAMPLE_ACTION = """\
name: local/deploy
description: Deploy the service
definition_of_done: Deployed
strategy_actor: local/default
execution_actor: local/default
safety_profile:
  require_sandbox: true
automation_profile:
  confidence_threshold: 0.8
"""


@pytest.mark.parametrize("field", list(ACTION_SCHEMA["properties"]))
def test_hover_on_each_action_field_shows_its_own_description(
    editor: Editor, action_modeline: str, field: str
) -> None:
    uri = editor.open(f"{action_modeline}\n{SAMPLE_ACTION}")
    line = 1 + SAMPLE_ACTION.splitlines().index(
        next(text for text in SAMPLE_ACTION.splitlines() if text.startswith(f"{field}:"))
    )
    hover = editor.client.hover(uri, line, 1)
    assert ACTION_SCHEMA["properties"][field]["title"] in hover
    assert ACTION_SCHEMA["properties"][field]["markdownDescription"] in hover


def _check_action_text(text: str, folder: Path) -> dict[str, Any]:
    """Check `text` as an action file with the real command; returns it as loaded."""
    written = folder / "starter.action.yaml"
    written.write_text(text, encoding="utf-8")
    result = _safety_profile("check", "--kind", "action", str(written))
    assert result.returncode == 0, result.stdout
    loaded: dict[str, Any] = yaml.safe_load(text)
    return loaded


def _profile_defaults() -> dict[str, Any]:
    return {name: field["default"] for name, field in SCHEMA["properties"].items()}


def test_one_completion_inserts_a_complete_valid_action(
    editor: Editor, action_modeline: str, tmp_path: Path
) -> None:
    uri = editor.open(f"{action_modeline}\n\n")
    (starter,) = [
        item
        for item in editor.client.completion(uri, 1, 0)
        if item["label"] == ACTION_STARTER_SNIPPET_LABEL
    ]
    text = f"{action_modeline}\n{_expand_snippet(starter['insertText'])}\n"
    action = _check_action_text(text, tmp_path)
    assert action["safety_profile"] == _profile_defaults()  # every field, each at its default
    assert editor.client.diagnostics(editor.open(text)) == []


def test_one_completion_inside_the_block_inserts_a_complete_valid_profile(
    editor: Editor, action_modeline: str, tmp_path: Path
) -> None:
    uri = _open_action(editor, action_modeline, "  \n")
    (starter,) = [
        item
        for item in editor.client.completion(uri, BLOCK_LINE, 2)
        if item["label"] == STARTER_SNIPPET_LABEL
    ]
    # Editors indent a snippet's further lines like its first (LSP insertTextMode
    # adjustIndentation, VS Code's default).
    block = "  " + _expand_snippet(starter["insertText"]).replace("\n", "\n  ")
    text = f"{action_modeline}\n{ACTION_HEAD}safety_profile:\n{block}\n"
    assert _check_action_text(text, tmp_path)["safety_profile"] == _profile_defaults()
    assert editor.client.diagnostics(editor.open(text)) == []


def test_the_modeline_takes_the_installed_path_as_printed(editor: Editor) -> None:
    printed = _safety_profile("schema", "--kind", "action", "--path").stdout.strip()
    uri = editor.open(f"{modeline(printed)}\n{ACTION_HEAD}safety_profile:\n  bogus: 1\n")
    messages = [diagnostic["message"] for diagnostic in editor.client.diagnostics(uri)]
    assert messages == ["Property bogus is not allowed."]


def test_the_readme_action_example_gets_completion_and_no_diagnostics(editor: Editor) -> None:
    # Opened one folder below the repository root, where its relative modeline points.
    example = modeline_block(SECTION, ACTION_SCHEMA_PATH.name)
    assert editor.client.diagnostics(editor.open(example)) == []
    # The example ends inside its `safety_profile:` block: a new line there is in the block.
    uri = editor.open(example + "  \n")
    fields = [item["label"] for item in editor.client.completion(uri, len(example.splitlines()), 2)]
    assert set(FIELDS) - set(yaml.safe_load(example)["safety_profile"]) <= set(fields)


# -- the VS Code settings for action files ----------------------------------------------------
def _hook_selects(hook_id: str, name: str) -> bool:
    hooks = yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = [hook for hook in hooks if hook["id"] == hook_id]
    excluded = "exclude" in hook and re.search(hook["exclude"], name) is not None
    return re.search(hook["files"], name) is not None and not excluded


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        ("actions/deploy{}.yaml", "action"),
        ("actions/team/deploy{}.yml", "action"),
        ("service/actions/deploy{}.yaml", "action"),
        ("actions/ci.safety_profile{}.yaml", "profile"),
        ("actions/deploy{}.json", None),
        ("deploy{}.yaml", None),
        ("my_actions/deploy{}.yaml", None),
    ],
)
def test_vscode_settings_map_files_under_actions_to_the_action_schema(
    editor: Editor, name: str, schema: str | None
) -> None:
    text = f"{ACTION_HEAD}safety_profile:\n  bogus: 1\n"
    expected = {
        "action": ["Property bogus is not allowed."],  # the nested block is checked too
        "profile": sorted(f"Property {key} is not allowed." for key in yaml.safe_load(text)),
        None: [],
    }
    uri = editor.open(text, name=name)
    messages = [diagnostic["message"] for diagnostic in editor.client.diagnostics(uri)]
    assert sorted(messages) == expected[schema]
    # The editor checks each file as the pre-commit hooks do.
    assert _hook_selects("safety-profile-action", name.format(0)) == (schema == "action")
    assert _hook_selects("safety-profile", name.format(0)) == (schema == "profile")


def test_readme_and_ci_state_the_node_version_these_tests_need() -> None:
    section = " ".join(documentation_text().split())
    assert f"The editor tests need **Node.js {NODE_MINIMUM} or later**" in section
    assert "yaml-language-server 2.0.0 declares Node.js >= 22.13" in section
    assert "this machine has Node.js 20.20.2 and the tests pass" in section
    lock = json.loads((REPO_ROOT / "package-lock.json").read_text(encoding="utf-8"))
    server = lock["packages"]["node_modules/yaml-language-server"]
    assert (server["version"], server["engines"]["node"]) == ("2.0.0", ">=22.13.0")
    assert "$(node --version)" in (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
