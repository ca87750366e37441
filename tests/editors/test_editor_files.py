"""The files that hook editors up, and the README that shows them (no editor needed here; the
server itself is in test_editor_yaml_language_server.py)."""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import yaml
from conftest import PROFILE_SCHEMA_PATH, REPO_ROOT, SCHEMA_DIR
from readme import code_blocks, documentation_text, modeline_block

from cleveragents.domain.models.core.action import Action
from cleveragents.reading.validation import check_yaml_bytes
from cleveragents.safety_toolkit.core.kinds import KINDS
from cleveragents.safety_toolkit.core.starter import modeline

EDITORS = REPO_ROOT / "editors"
VSCODE_SETTINGS = EDITORS / "vscode" / "settings.json"
CATALOG_ENTRY = EDITORS / "schemastore-catalog-entry.json"
SECTION = "Editor autocompletion"
SCHEMA: dict[str, Any] = json.loads(PROFILE_SCHEMA_PATH.read_text(encoding="utf-8"))
ACTION_SCHEMA_PATH = SCHEMA_DIR / "action.schema.json"
HOOK_FILES = yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))[0][
    "files"
]
NAMES = [
    "safety_profile.yaml",
    "team.safety_profile.yml",
    "ci-safety-profile.yaml",
    "my_safety-profile_v2.yml",
    "profile.yaml",
    "safety_profile.json",
    "safetyprofile.yaml",
]


def test_schema_folder_holds_only_json_schemas() -> None:
    # datamodel-codegen turns every file below schema/ into a module, whatever its name or
    # extension (hidden files and subfolders too), and has no option to leave one out: anything
    # else editors need (the SchemaStore entry) lives in editors/.
    for path in sorted(SCHEMA_DIR.rglob("*")):
        assert path.is_file(), f"{path}: no folders in schema/"
        assert path.name.endswith(".schema.json"), f"{path}: only *.schema.json in schema/"
        assert json.loads(path.read_text(encoding="utf-8"))["$schema"], path


def _vscode_globs() -> dict[Path, list[str]]:
    """The VS Code `yaml.schemas` mapping, by the schema file each key names."""
    settings = json.loads(VSCODE_SETTINGS.read_text(encoding="utf-8"))
    return {(REPO_ROOT / key).resolve(): globs for key, globs in settings["yaml.schemas"].items()}


def test_vscode_settings_map_only_the_profile_and_action_schemas_of_this_repository() -> None:
    assert list(_vscode_globs()) == [PROFILE_SCHEMA_PATH.resolve(), ACTION_SCHEMA_PATH.resolve()]


def test_vscode_settings_map_the_profile_globs_to_a_schema_of_this_repository() -> None:
    globs = _vscode_globs()[PROFILE_SCHEMA_PATH.resolve()]
    assert KINDS["profile"].schema_path().read_bytes() == PROFILE_SCHEMA_PATH.read_bytes()
    assert {"**/*safety_profile*.yaml", "**/*safety-profile*.yaml"} <= set(globs)


def test_vscode_settings_map_action_folders_to_the_action_schema_but_not_profiles() -> None:
    globs = _vscode_globs()[ACTION_SCHEMA_PATH.resolve()]
    assert KINDS["action"].schema_path().read_bytes() == ACTION_SCHEMA_PATH.read_bytes()
    assert {"**/actions/**/*.yaml", "**/actions/**/*.yml"} <= set(globs)
    # The profile globs, excluded: a profile file kept under actions/ is a profile, unless it
    # is named *.action.yaml (docs/actions.md, "A name both kinds claim").
    profile_globs = _vscode_globs()[PROFILE_SCHEMA_PATH.resolve()]
    assert {
        "!" + glob.replace("*.y", "!(*.action).y")
        for glob in profile_globs
        if not glob.startswith("!")
    } <= set(globs)
    assert {"!**/actions/**/*.action.yaml", "!**/actions/**/*.action.yml"} <= set(profile_globs)


def test_readme_shows_the_tested_vscode_settings_verbatim() -> None:
    settings = VSCODE_SETTINGS.read_text(encoding="utf-8")
    assert ("json", settings) in code_blocks(SECTION)


def test_readme_modeline_is_the_one_init_writes() -> None:
    block = modeline_block(SECTION, PROFILE_SCHEMA_PATH.name)
    location = block.strip().split("=", 1)[1]
    assert block == modeline(location) + "\n"


def test_readme_jetbrains_patterns_are_the_vscode_globs() -> None:
    globs = _vscode_globs()[PROFILE_SCHEMA_PATH.resolve()]
    readme = documentation_text()
    jetbrains = readme.split("**JetBrains IDEs**", 1)[1].split("**SchemaStore**", 1)[0]
    patterns = re.findall(r"`(\*[^`]*)`", jetbrains)
    # JetBrains' mappings cannot leave names out: the positive globs only.
    assert patterns == [glob.removeprefix("**/") for glob in globs if not glob.startswith("!")]


def test_readme_action_example_is_a_valid_action_with_the_modeline() -> None:
    example = modeline_block(SECTION, ACTION_SCHEMA_PATH.name)
    first_line = example.splitlines()[0]
    assert first_line == modeline("../schema/action.schema.json")
    result = check_yaml_bytes(example.encode(), "README.md", Action)
    assert result.problems == ()
    assert isinstance(result.instance, Action)
    assert result.instance.safety_profile is not None


def _subschemas(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield schema
    for child in schema.get("properties", {}).values():
        yield from _subschemas(child)
    if isinstance(schema.get("items"), dict):
        yield from _subschemas(schema["items"])


DRAFT_7_KEYWORDS = {
    "$schema", "$id", "title", "description", "default", "examples", "type", "properties",
    "additionalProperties", "items", "minimum", "maximum",
}  # fmt: skip
EDITOR_ANNOTATIONS = {"markdownDescription", "errorMessage", "defaultSnippets"}
# Our own annotation (the field facts, `cleveragents.reading.field_facts`): every draft ignores
# a keyword it does not know.
OWN_ANNOTATIONS = {"x-strictness"}


def test_schema_uses_no_keyword_newer_than_draft_7() -> None:
    # The README tells JetBrains users to pick "JSON Schema version 7".
    for subschema in _subschemas(SCHEMA):
        assert set(subschema) <= DRAFT_7_KEYWORDS | EDITOR_ANNOTATIONS | OWN_ANNOTATIONS, set(
            subschema
        )


def test_schemastore_catalog_entry_is_ready_to_submit() -> None:
    entry = json.loads(CATALOG_ENTRY.read_text(encoding="utf-8"))
    assert list(entry) == ["name", "description", "fileMatch", "url"]
    assert entry["name"].startswith("CleverAgents")
    assert entry["description"]
    assert entry["url"] == SCHEMA["$id"]
    assert entry["url"].startswith("https://")


def test_each_schema_id_is_where_this_release_publishes_it() -> None:
    """`$id` is the schema file at this version's tag in the project's repository (pyproject's
    Homepage), as raw.githubusercontent.com serves it: what `init` writes when a repository
    holds no copy and what the SchemaStore entry names. A release that bumps the version moves
    it (and `datamodel-codegen` and scripts/generate_validators.py run again)."""
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    homepage = urlparse(project["urls"]["Homepage"])
    assert homepage.netloc == "github.com"
    base = f"https://raw.githubusercontent.com{homepage.path}/v{project['version']}/schema"
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        assert json.loads(path.read_text(encoding="utf-8"))["$id"] == f"{base}/{path.name}"


@pytest.mark.parametrize("name", NAMES)
def test_schemastore_file_match_is_the_pre_commit_hook_selection(name: str) -> None:
    file_match = json.loads(CATALOG_ENTRY.read_text(encoding="utf-8"))["fileMatch"]
    matched = any(fnmatch.fnmatchcase(name, pattern) for pattern in file_match)
    assert matched == (re.search(HOOK_FILES, name) is not None)
