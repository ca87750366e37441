"""The VS Code extension's own files agree with the rest of the repository (no VS Code needed;
the extension in a real VS Code is tests/editors/test_editor_vscode.py): the files it starts the
server for are the hooks' files, the globs it gives the YAML extension are the tested VS Code
settings', its version is the package's, and the schemas it contributes complete fields without
reporting a single problem of their own."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import EXAMPLES, REPO_ROOT, SCHEMA_DIR, missing_tool
from lsp_client import LanguageServerClient
from yaml_language_server import server_command

from cleveragents.safety_toolkit.core.kinds import KINDS

EXTENSION = REPO_ROOT / "editors" / "vscode"
PACKAGE: dict[str, Any] = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
HOOKS = yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
SETTINGS = json.loads((EXTENSION / "settings.json").read_text(encoding="utf-8"))

# Names as a repository holds them: the hooks' files in odd spellings and what is not theirs.
NAMES = [
    "safety_profile.yaml",
    "safety-profile.yml",
    "Safety_Profile.yaml",
    "config/Prod.SAFETY-PROFILE.YML",
    "config/ok.safety_profile.yaml",
    "teams/a/b/x-safety_profile-v2.Yaml",
    "-prod.safety_profile.yaml",
    ".hidden/.safety_profile.yaml",
    "safety_profile_docs/readme.yaml",  # the name is a folder's, not the file's
    "notes.safety_profile.yaml.txt",
    "safety_profile.json",
    "safetyprofile.yaml",
    "safety profile.yaml",
    "actions/deploy.yaml",
    "actions/.yaml",
    "Actions/Nested/Build.YML",
    "ACTIONS/x.yml",
    "src/actions/deep/er/x.yaml",
    "actions/kept.safety_profile.yaml",  # a profile: the profile hook's
    "actions/readme.md",
    "actions.yaml",
    "myactions/x.yaml",
    "actions-old/x.yaml",
    ".github/actions/build/action.yml",  # GitHub's own
    ".github/workflows/ci.yaml",
    "src/.GitHub/actions/x.yaml",
    # Python's Unicode case folding would take these for profile names; git, editors and the
    # hooks do not.
    "config/\u017fafety_profile.yaml",  # LONG S
    "config/safety_prof\u0131le.yaml",  # DOTLESS I
    "config/x.safety_profile.yaml\n",  # a name ending in a newline
]


def glob_pattern(glob: str) -> re.Pattern[str]:
    """A VS Code glob as a regex over a path: `**/` any folders (or none), `*` and `?` within
    one name, `[...]` a character of the class, `{a,b}` either."""
    out, index = "", 0
    while index < len(glob):
        if glob.startswith("**/", index):
            out, index = out + "(?:[^/]*/)*", index + 3
        elif glob.startswith("**", index):
            out, index = out + ".*", index + 2
        elif glob[index] == "*":
            out, index = out + "[^/]*", index + 1
        elif glob[index] == "?":
            out, index = out + "[^/]", index + 1
        elif glob[index] == "[":
            end = glob.index("]", index)
            out, index = out + "[" + glob[index + 1 : end].replace("!", "^", 1) + "]", end + 1
        elif glob[index] == "{":
            end = glob.index("}", index)
            options = glob[index + 1 : end].split(",")
            out, index = out + "(?:" + "|".join(map(re.escape, options)) + ")", end + 1
        else:
            out, index = out + re.escape(glob[index]), index + 1
    return re.compile(out + r"\Z")


def selected(path: str) -> str | None:
    """The kind whose globs in package.json select `path` (the first: profiles before actions)."""
    documents = PACKAGE["safetyProfileDocuments"]
    for kind in KINDS:
        if any(glob_pattern(glob).match(path) for glob in documents[kind]):
            return kind
    return None


def hooks_kind(path: str) -> str | None:
    return next((name for name, kind in KINDS.items() if kind.matches(path)), None)


def test_the_glob_translation_is_that_of_vs_code() -> None:
    assert glob_pattern("**/*.[yY][mM][lL]").match("a/b/C.Yml")
    assert glob_pattern("**/*.yaml").match("c.yaml")
    assert not glob_pattern("*.yaml").match("a/c.yaml")
    assert not glob_pattern("**/*.yaml").match("c.yaml\n")


@pytest.mark.parametrize("path", NAMES)
def test_the_extension_sends_the_server_exactly_the_hooks_files(path: str) -> None:
    """Every file a hook checks is sent to the server as the same kind; every other file is not
    sent, but for files under .github/ (which the server, by the hooks' own patterns, leaves
    alone: a glob cannot leave a folder out)."""
    hooks = hooks_kind(path)
    if hooks is not None:
        assert selected(path) in (hooks, "profile"), path  # a profile under actions/ is both
        assert selected(path) is not None
    elif selected(path) is not None:
        assert re.search(r"(?ai)(^|/)\.github/", path), path


def test_the_hooks_patterns_are_those_the_server_uses() -> None:
    by_id = {hook["id"]: hook for hook in HOOKS}
    assert by_id["safety-profile"]["files"] == KINDS["profile"].files
    assert by_id["safety-profile"]["exclude"] == KINDS["profile"].exclude
    assert by_id["safety-profile-action"]["files"] == KINDS["action"].files
    assert by_id["safety-profile-action"]["exclude"] == KINDS["action"].exclude


def test_the_extension_starts_with_any_file_it_sends() -> None:
    documents = PACKAGE["safetyProfileDocuments"]
    events = PACKAGE["activationEvents"]
    assert [f"workspaceContains:{glob}" for kind in KINDS for glob in documents[kind]] == [
        event for event in events if event.startswith("workspaceContains:")
    ]
    assert "onLanguage:yaml" in events  # a single profile opened outside any folder


def test_the_yaml_extension_gets_the_tested_settings_globs() -> None:
    contributed = {
        Path(entry["url"]).name: entry["fileMatch"]
        for entry in PACKAGE["contributes"]["yamlValidation"]
    }
    expected = {Path(key).name: globs for key, globs in SETTINGS["yaml.schemas"].items()}
    assert contributed == expected
    assert all(
        entry["url"].startswith("./schemas/") for entry in PACKAGE["contributes"]["yamlValidation"]
    )


def test_the_extension_is_versioned_with_the_package_and_pins_what_it_uses() -> None:
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert PACKAGE["version"] == pyproject["project"]["version"]
    lock = json.loads((EXTENSION / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["version"] == lock["packages"][""]["version"] == PACKAGE["version"]
    for group in ("dependencies", "devDependencies"):
        for name, version in PACKAGE[group].items():
            assert re.fullmatch(r"\d+\.\d+\.\d+", version), (name, version)
    # The VS Code API it is typed against is the oldest it says it runs on.
    assert PACKAGE["engines"]["vscode"] == "^" + PACKAGE["devDependencies"]["@types/vscode"]
    assert PACKAGE["license"] == pyproject["project"]["license"]


@pytest.fixture(scope="module")
def contributed_schemas(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The schemas the .vsix contributes, written by its packaging step (scripts/prepare.mjs)."""
    node = shutil.which("node")
    if node is None:
        missing_tool("node is not on PATH")
    out = tmp_path_factory.mktemp("extension")
    subprocess.run([node, str(EXTENSION / "scripts" / "prepare.mjs"), str(out)], check=True)
    return out / "schemas"


VALIDATING = {"type", "minimum", "maximum", "minLength", "required", "additionalProperties"}


def _keywords(schema: Any) -> set[str]:
    if not isinstance(schema, dict):
        return set()
    found = set(schema) - {"properties"}
    for sub in schema.get("properties", {}).values():
        found |= _keywords(sub)
    return found | _keywords(schema.get("items"))


def test_the_contributed_schemas_keep_every_word_and_no_rule(contributed_schemas: Path) -> None:
    for canonical in sorted(SCHEMA_DIR.glob("*.schema.json")):
        schema = json.loads(canonical.read_text(encoding="utf-8"))
        contributed = json.loads((contributed_schemas / canonical.name).read_text())
        assert _keywords(contributed) & VALIDATING == set(), canonical.name
        assert list(contributed["properties"]) == list(schema["properties"])
        for name, field in schema["properties"].items():
            for words in ("description", "markdownDescription", "default", "title"):
                if words in field:
                    assert contributed["properties"][name][words] == field[words]


def test_the_yaml_language_server_completes_from_them_and_reports_nothing(
    contributed_schemas: Path, tmp_path: Path
) -> None:
    """yaml-language-server (what the YAML extension runs) with the extension's contribution:
    completion offers the fields, and no example file, however invalid, gets a diagnostic from
    it but for YAML syntax."""
    settings = {
        "yaml": {
            "validate": True,
            "completion": True,
            "hover": True,
            "schemas": {
                (contributed_schemas / "safety_profile.schema.json").as_uri(): [
                    "**/*safety_profile*.yaml"
                ]
            },
            "schemaStore": {"enable": False},
        }
    }
    client = LanguageServerClient(server_command(), settings, cwd=REPO_ROOT)
    try:
        client.initialize(tmp_path)
        uri = (tmp_path / "new.safety_profile.yaml").as_uri()
        client.open_document(uri, "require_sandbox: true\n\n")
        assert client.diagnostics(uri) == []  # published once the schema is read
        labels = {item["label"] for item in client.completion(uri, 2, 0)}
        assert {"max_total_cost", "allow_unsafe_tools"} <= labels
        assert "Whether every step must run inside a sandbox." in client.hover(uri, 0, 3)
        # Opened together, as an editor restoring its tabs does: the server checks each after a
        # pause of its own, and the pauses overlap.
        opened: dict[str, Path] = {}
        for number, example in enumerate(sorted((EXAMPLES / "invalid").glob("*.yaml"))):
            uri = (tmp_path / f"{number}.safety_profile.yaml").as_uri()
            client.open_document(uri, example.read_text(encoding="utf-8", errors="replace"))
            opened[uri] = example
        for uri, example in opened.items():
            for diagnostic in client.diagnostics(uri):
                assert "schema" not in json.dumps(diagnostic).lower(), (example.name, diagnostic)
                assert diagnostic.get("source") != "yaml-schema: SafetyProfile", example.name
    finally:
        client.close()
