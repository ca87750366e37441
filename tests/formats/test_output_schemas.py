"""The JSON output of `check`, `diff`, `resolve` and `show` follows the schemas shipped in the
package (cleveragents/safety_toolkit/output_schemas/), for every example, valid and invalid,
and docs/json-output.md documents every key of every schema."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, REPO_ROOT, SCHEMA_DIR, local_schema_registry
from git_repos import git, new_repository, write_files
from jsonschema import Draft202012Validator
from programs import run_program

from cleveragents.reading.rules import Severity
from cleveragents.safety_toolkit.cli.main import main

OUTPUT_SCHEMAS = Path(str(files("cleveragents.safety_toolkit") / "output_schemas"))
COMMANDS = ("check", "diff", "resolve", "show")
PROFILES = sorted((EXAMPLES / "valid").glob("*.yaml")) + sorted(
    (EXAMPLES / "invalid").glob("*.yaml")
)
ACTIONS = sorted((EXAMPLES / "actions" / "valid").glob("*.yaml")) + sorted(
    (EXAMPLES / "actions" / "invalid").glob("*.yaml")
)
SPEC_PROFILE = EXAMPLES / "valid" / "spec_example.safety_profile.yaml"
SPEC_ACTION = EXAMPLES / "actions" / "valid" / "spec_secure_deploy.action.yaml"


def validator(command: str) -> Draft202012Validator:
    registry = local_schema_registry(SCHEMA_DIR, OUTPUT_SCHEMAS)
    schema = json.loads((OUTPUT_SCHEMAS / f"{command}.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=registry)


VALIDATORS = {command: validator(command) for command in COMMANDS}


def output(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> Any:
    """The JSON that `safety-profile ARGV...` prints (run in this process: hundreds of runs)."""
    status = main([str(arg) for arg in argv])
    assert status in (0, 1), argv
    return json.loads(capsys.readouterr().out)


def assert_valid(command: str, document: Any) -> None:
    errors = [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in VALIDATORS[command].iter_errors(document)
    ]
    assert errors == []


@pytest.mark.parametrize("command", COMMANDS)
def test_each_schema_is_a_valid_draft_2020_12_schema(command: str) -> None:
    Draft202012Validator.check_schema(VALIDATORS[command].schema)


def test_check_output_names_every_severity_and_no_other() -> None:
    severity = VALIDATORS["check"].schema["$defs"]["problem"]["properties"]["severity"]
    assert severity["enum"] == [member.value for member in Severity]
    assert all(f"{member.value}:" in severity["description"] for member in Severity)


def test_check_output_of_every_example(capsys: pytest.CaptureFixture[str]) -> None:
    profiles = output(capsys, "check", "--format", "json", *PROFILES)
    actions = output(capsys, "check", "--format", "json", "--kind", "action", *ACTIONS)
    hints = output(capsys, "check", "--format", "json", *ACTIONS)  # actions read as profiles
    for document in (profiles, actions, hints):
        assert_valid("check", document)
    assert {problem["severity"] for problem in hints} == {Severity.ERROR, Severity.HINT}
    assert any(
        problem["line"] is None
        for problem in output(capsys, "check", "--format", "json", "missing.yaml")
    )


@pytest.mark.parametrize(
    ("kind", "example"),
    [("profile", path) for path in PROFILES] + [("action", path) for path in ACTIONS],
    ids=lambda value: getattr(value, "name", value),
)
def test_show_output_of_every_example(
    kind: str, example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = output(capsys, "show", "--format", "json", "--kind", kind, example)
    assert_valid("show", document)
    # No document exactly when there is an error (a valid one may come with warnings).
    errors = [problem for problem in document["problems"] if problem["severity"] == "error"]
    assert (document["document"] is None) == bool(errors)


def test_diff_output_of_every_example(capsys: pytest.CaptureFixture[str]) -> None:
    for example in PROFILES:
        assert_valid("diff", output(capsys, "diff", "--format", "json", SPEC_PROFILE, example))
    for example in ACTIONS:
        document = output(
            capsys, "diff", "--format", "json", "--kind", "action", SPEC_ACTION, example
        )
        assert_valid("diff", document)


def test_diff_output_of_added_and_removed_profiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    new_repository(tmp_path, {"gone.safety_profile.yaml": "max_total_cost: 10.0\n"})
    git(tmp_path, "rm", "-q", "gone.safety_profile.yaml")
    write_files(tmp_path, {"new.safety_profile.yaml": "require_sandbox: false\n"})
    monkeypatch.chdir(tmp_path)
    document = output(capsys, "diff", "--format", "json", "--git", "HEAD")
    assert_valid("diff", document)
    assert {change["change"] for change in document["changes"]} == {"loosens", "added"}


def test_resolve_output_of_every_example(capsys: pytest.CaptureFixture[str]) -> None:
    for example in PROFILES:
        document = output(
            capsys, "resolve", "--format", "json", "--plan", example, "--project", SPEC_PROFILE
        )
        assert_valid("resolve", document)
    for example in ACTIONS:
        document = output(
            capsys, "resolve", "--format", "json", "--action", example, "--global", SPEC_PROFILE
        )
        assert_valid("resolve", document)


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("check", ["check", "--format", "json", str(SPEC_PROFILE)]),
        ("show", ["show", "--format", "json", str(SPEC_PROFILE)]),
        ("diff", ["diff", "--format", "json", str(SPEC_PROFILE), str(PROFILES[0])]),
        ("resolve", ["resolve", "--format", "json", "--action", str(SPEC_ACTION)]),
    ],
)
def test_the_installed_command_prints_what_the_schema_describes(
    command: str, args: list[str]
) -> None:
    result = run_program("safety-profile", *args)
    assert_valid(command, json.loads(result.stdout))


def schema_keys(schema: Any) -> Iterator[str]:
    """Every property name a schema defines, at any depth."""
    if isinstance(schema, dict):
        yield from schema.get("properties", {})
        for value in schema.values():
            yield from schema_keys(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from schema_keys(item)


@pytest.mark.parametrize("command", COMMANDS)
def test_the_docs_document_every_key(command: str) -> None:
    page = (REPO_ROOT / "docs" / "json-output.md").read_text(encoding="utf-8")
    _, found, section = page.partition(f"\n## `{command}")
    assert found, f"docs/json-output.md has no section for {command}"
    section = section.split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+)`", section, flags=re.MULTILINE))
    keys = set(schema_keys(VALIDATORS[command].schema))
    if command in {"diff", "show"}:
        keys -= set(schema_keys(VALIDATORS["check"].schema))  # the problems, documented once
    assert keys <= documented, keys - documented
