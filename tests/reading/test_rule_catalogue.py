"""Every rule the toolkit reports is in the catalogue (`cleveragents.reading.rules`), and every
rule in the catalogue is reported by something a test runs: the examples under examples/
checked as either kind by the real CLI, `diff` between the valid examples (and
examples/diff, which holds files only this comparison needs), and the few
situations no example file can hold (a missing path, a directory, a FIFO, a file over 1 MiB,
and a git repository with a transformed profile, a link out of it and a changed submodule), and
the examples checked against the example floor package's floor.

A new rule therefore needs an example (or a situation here) that shows it; a problem with an
id the catalogue does not know fails here before it reaches a user."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

import pytest
from conftest import REPO_ROOT, console_script
from git_repos import git, new_repository
from snapshots import example_files

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.strictness import STRICTNESS_RULES
from cleveragents.reading.rules import ALIASES, ID_PATTERN, STRICTER, Rule, Severity, find_rule
from cleveragents.safety_toolkit.cli.main import main
from cleveragents.safety_toolkit.core.rule_docs import FAMILIES, family

CLI = console_script("safety-profile")

# Rules no file can trigger, each with the reason; the test fails if one of them turns up.
NOT_FROM_FILES = {
    # The YAML reader refuses such a key first (yaml.invisible-character); the models refuse it
    # again for documents that were never YAML: shown below through the Python API.
    Rule.SCHEMA_INVISIBLE_CHARACTERS,
    # The safety net for a validation error type the catalogue does not name.
    Rule.SCHEMA_OTHER,
    # A bug, which the language server shows as a diagnostic rather than stop serving.
    Rule.INTERNAL_ERROR,
    # A floor that cannot be used stops every command with exit status 2 and no report; only
    # the language server, which has no exit status, shows it as a diagnostic (its test in
    # tests/lsp/test_language_server.py, a floor that is missing).
    Rule.FLOOR_UNUSABLE,
    # The same for a floor outside the repository (exit 2; its tests in tests/floor/test_floor.py).
    Rule.FLOOR_OUTSIDE,
}

# The floor of the example package: every example looser than it is reported (floor.looser).
FLOOR = "examples/floor-package/src/acme_policies/floor.safety_profile.yaml"


def reported_rules(arguments: list[str]) -> list[str]:
    """The `rule` of every problem one real `safety-profile check --format json` run reports."""
    result = subprocess.run(
        [CLI, "check", "--format", "json", *arguments],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    return [problem["rule"] for problem in json.loads(result.stdout)]


def situations(folder: Path) -> list[str]:
    """Paths no example can be: missing, a directory, a FIFO, too large, binary."""
    (folder / "folder.safety_profile.yaml").mkdir()
    os.mkfifo(folder / "fifo.safety_profile.yaml")
    (folder / "large.safety_profile.yaml").write_bytes(b"#" * (1024 * 1024 + 1))
    (folder / "binary.safety_profile.yaml").write_bytes(b"require_sandbox: true\x00\n")
    names = ["missing", "folder", "fifo", "large", "binary"]
    return [str(folder / f"{name}.safety_profile.yaml") for name in names]


def git_rules(folder: Path) -> set[str]:
    """The rules of `diff --git` in a repository where a profile is a link out of it, another
    is transformed by a git attribute, a third is added beside one whose name differs only in
    case, and a submodule changed (and of `check` of the link); and of `diff --pre-commit` in
    one where an invalid profile is staged and the floor's setting is removed."""
    profile = "require_sandbox: true\n"
    (folder / "inner").mkdir()
    (folder / "outer").mkdir()
    inner = new_repository(folder / "inner", {"a.safety_profile.yaml": profile})
    (folder / "outside.yaml").write_text(profile, encoding="utf-8")
    outer = new_repository(folder / "outer", {"prod.safety_profile.yaml": profile})
    git(outer, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
    (outer / ".gitattributes").write_text("*.yaml ident\n", encoding="utf-8")
    os.symlink("../outside.yaml", outer / "loop.safety_profile.yaml")
    (outer / "PROD.safety_profile.yaml").write_text(profile, encoding="utf-8")
    git(outer, "add", "-A")
    result = subprocess.run(
        [CLI, "diff", "--git", "HEAD", "--format", "json"],
        cwd=outer,
        capture_output=True,
        text=True,
        check=False,
    )
    rules = {problem["rule"] for problem in json.loads(result.stdout)["problems"]}
    rules |= set(reported_rules([str(outer / "loop.safety_profile.yaml")]))
    (folder / "staged").mkdir()
    pyproject = '[tool.safety-profile]\nfloor = "floor.yaml"\n'
    staged = new_repository(folder / "staged", {"pyproject.toml": pyproject, "floor.yaml": "{}\n"})
    (staged / "bad.safety_profile.yaml").write_text("max_retries_per_step: 500\n", encoding="utf-8")
    (staged / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    git(staged, "add", "-A")
    result = subprocess.run(
        [CLI, "diff", "--pre-commit", "--format", "json"],
        cwd=staged,
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(result.stdout)
    rules |= {change["rule"] for change in report["changes"]}
    return rules | {problem["rule"] for problem in report["problems"]}


def diff_rules(kind: str, files: Iterable[str], capsys: pytest.CaptureFixture[str]) -> set[str]:
    """The rules of every change `diff` finds between each ordered pair of `files`."""
    found = set()
    for old, new in itertools.permutations(files, 2):
        main(["diff", "--kind", kind, "--format", "json", old, new])
        report = json.loads(capsys.readouterr().out)
        found |= {change["rule"] for change in report["changes"]}
    return found


def test_every_rule_reported_is_in_the_catalogue_and_every_rule_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO_ROOT)
    every_example = [
        file
        for folder in ("valid", "invalid", "actions/valid", "actions/invalid")
        for file in example_files(folder)
    ]
    reported = set()
    for kind in ("profile", "action"):
        reported |= set(reported_rules(["--kind", kind, *every_example, *situations(tmp_path)]))
        reported |= set(reported_rules(["--kind", kind, "--floor", FLOOR, *every_example]))
        for path in tmp_path.iterdir():
            path.rmdir() if path.is_dir() else path.unlink()
    profiles = example_files("valid") + example_files("diff")
    reported |= diff_rules("profile", profiles, capsys)
    reported |= diff_rules("action", example_files("actions/valid"), capsys)
    (tmp_path / "git").mkdir()
    reported |= git_rules(tmp_path / "git")

    assert reported - {rule.value for rule in Rule} == set()  # current ids, not old ones
    assert reported & NOT_FROM_FILES == set()
    assert {rule.value for rule in Rule} - reported - NOT_FROM_FILES == set()


def test_the_models_refuse_an_invisible_key_given_through_the_python_api() -> None:
    action = {
        "name": "deploy",
        "definition_of_done": "done",
        "strategy_actor": "agent",
        "execution_actor": "agent",
        "note\u200b": 1,
    }
    with pytest.raises(ValueError, match="invisible") as raised:
        Action.model_validate(action)
    assert "invisible_characters" in str(raised.value)


def test_diff_has_a_rule_for_each_field_and_verdict() -> None:
    for field in STRICTNESS_RULES:
        for verdict in ("loosens", "tightens"):
            assert find_rule(f"{verdict}.{field}") is not None, (verdict, field)


def test_ids_are_lowercase_and_unique_and_every_entry_is_complete() -> None:
    for rule in Rule:
        doc = rule.doc
        assert doc.id == rule.value == rule.value.lower()
        assert all((doc.title, doc.description, doc.fix)), rule
        assert not doc.title.endswith("."), rule
        assert isinstance(doc.severity, Severity), rule
    assert len({rule.doc.title for rule in Rule}) == len(Rule)


def test_every_id_has_the_one_style_and_a_family_the_rule_list_knows() -> None:
    """`family.name`, the name's words joined by `-`; underscores only in a profile field's own
    name (`loosens.require_sandbox`). Every family is one of the rule list's, and every one of
    those is used: `safety-profile rules` and docs/rules.md group the rules by them."""
    for rule in Rule:
        assert re.fullmatch(ID_PATTERN, rule.value), rule.value
        name = rule.value.split(".", 1)[1]
        if "_" in name:
            assert family(rule) in ("loosens", "tightens"), rule.value
            assert name in STRICTER, rule.value
    assert {family(rule) for rule in Rule} == set(FAMILIES)


def test_old_ids_find_their_rule_under_its_id_of_now() -> None:
    assert ALIASES["schema.less_than_equal"] is Rule.SCHEMA_LESS_THAN_EQUAL
    assert ALIASES["root-type"] is Rule.DOCUMENT_ROOT_TYPE
    assert ALIASES["added"] is Rule.DIFF_ADDED
    for old, rule in ALIASES.items():
        assert find_rule(old) is rule
        assert old not in {current.value for current in Rule}, old  # it would never be found


def test_the_changelog_lists_every_renamed_id() -> None:
    changelog = (REPO_ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^ *\| `([^`]+)` \| `([^`]+)` \|$", changelog, re.M))
    assert {(old, rule.value) for old, rule in ALIASES.items()} <= rows


def test_the_output_schemas_hold_rule_ids_to_the_one_style() -> None:
    """Every `rule` key the JSON output's schemas describe has the catalogue's pattern."""

    def rule_keys(node: object) -> Iterable[dict[str, object]]:
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict) and "rule" in node["properties"]:
                yield node["properties"]["rule"]
            for value in node.values():
                yield from rule_keys(value)
        elif isinstance(node, list):
            for value in node:
                yield from rule_keys(value)

    schemas = REPO_ROOT / "src" / "cleveragents" / "safety_toolkit" / "output_schemas"
    found = {
        path.name: list(rule_keys(json.loads(path.read_text(encoding="utf-8"))))
        for path in schemas.glob("*.schema.json")
    }
    assert len(found["check.schema.json"]) == 1
    assert len(found["diff.schema.json"]) >= 1
    for keys in found.values():
        assert all(key["pattern"] == ID_PATTERN for key in keys)
