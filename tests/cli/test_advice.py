"""The advice rules (`safety_toolkit/core/advice.py`): warnings about a valid document, from the
one checker every command, hook and the language server use. A warning never makes a file
invalid. The examples under examples/ that a rule warns about are checked by their `.expected`
files (tests/cli/test_cli_snapshots.py) and in every format (tests/cli_snapshots/formats.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cleveragents.reading.rules import Rule, Severity
from cleveragents.safety_toolkit.cli.main import main
from cleveragents.safety_toolkit.core.advice import ADVICE
from cleveragents.safety_toolkit.core.check import Checker
from cleveragents.safety_toolkit.core.rule_docs import family

ACTION = """\
name: local/auto-fix
definition_of_done: Lint is clean
strategy_actor: local/default
execution_actor: local/default
safety_profile:
  allow_unsafe_tools: false
automation_profile:
  require_sandbox: false
  require_checkpoints: true
  allow_unsafe_tools: true
"""


def warnings(text: str) -> list[tuple[int, int, str, str, Severity]]:
    problems = Checker("action").check_bytes(text.encode(), "a.action.yaml")
    return [(p.line, p.column, p.path, p.message, p.severity) for p in problems]


def test_every_advice_rule_is_a_warning_of_the_advice_family_and_has_a_check() -> None:
    advice_rules = {rule for rule in Rule if family(rule) == "advice"}
    assert {advice.rule for advice in ADVICE} == advice_rules
    assert {rule.doc.severity for rule in advice_rules} == {Severity.WARNING}


def test_each_automation_flag_the_safety_profile_decides_otherwise_is_a_warning() -> None:
    assert warnings(ACTION) == [
        (
            8,
            20,
            "automation_profile.require_sandbox",
            "false has no effect: safety_profile.require_sandbox is true (its default), and "
            "decides it",
            Severity.WARNING,
        ),
        # require_checkpoints: true agrees with the safety profile's default: nothing to say.
        (
            10,
            23,
            "automation_profile.allow_unsafe_tools",
            "true has no effect: safety_profile.allow_unsafe_tools is false, and decides it",
            Severity.WARNING,
        ),
    ]


def test_without_a_safety_profile_every_automation_flag_is_decided_elsewhere() -> None:
    action = ACTION.replace("safety_profile:\n  allow_unsafe_tools: false\n", "")
    assert [(line, path) for line, _, path, _, _ in warnings(action)] == [
        (6, "automation_profile.require_sandbox"),
        (7, "automation_profile.require_checkpoints"),
        (8, "automation_profile.allow_unsafe_tools"),
    ]


def test_an_automation_profile_that_agrees_or_states_no_flag_gets_no_warning() -> None:
    agreeing = ACTION.replace("require_sandbox: false", "require_sandbox: true")
    agreeing = agreeing.replace("allow_unsafe_tools: true", "allow_unsafe_tools: false")
    assert warnings(agreeing) == []
    autonomy_only = ACTION.split("automation_profile:")[0] + "automation_profile:\n  x: 1\n"
    assert warnings(autonomy_only) == []


def test_an_invalid_file_gets_its_errors_and_no_advice() -> None:
    invalid = ACTION.replace("allow_unsafe_tools: false", "allow_unsafe_tools: maybe")
    found = warnings(invalid)
    assert found
    assert {severity for *_, severity in found} == {Severity.ERROR}


def test_a_file_with_warnings_only_is_valid_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cleveragents.safety_toolkit.formats import format_names

    path = tmp_path / "a.action.yaml"
    path.write_text(ACTION, encoding="utf-8")
    for output_format in format_names("check"):
        status = main(["check", "--kind", "action", "--format", output_format, str(path)])
        out = capsys.readouterr().out
        assert status == 0, output_format
        assert "advice.automation-flag-overruled" in out, output_format
    main(["check", "--kind", "action", "--format", "json", str(path)])
    reported = json.loads(capsys.readouterr().out)
    assert [problem["severity"] for problem in reported] == ["warning", "warning"]


def test_the_language_server_shows_the_warnings_as_warnings(tmp_path: Path) -> None:
    from conftest import console_script
    from lsp_client import LanguageServerClient

    client = LanguageServerClient([console_script("safety-profile"), "lsp"], {}, cwd=tmp_path)
    try:
        client.initialize(tmp_path)
        path = tmp_path / "actions" / "deploy.action.yaml"  # an action by the hook's pattern
        path.parent.mkdir()
        path.write_text(ACTION, encoding="utf-8")
        uri = path.as_uri()
        client.open_document(uri, ACTION)
        shown = [
            (d["range"]["start"]["line"], d["code"], d["severity"], d["message"])
            for d in client.diagnostics(uri)
        ]
    finally:
        client.close()
    # What `check` says, where it says it (LSP's lines are 0-based), as DiagnosticSeverity
    # Warning (2).
    assert shown == [
        (line - 1, "advice.automation-flag-overruled", 2, message)
        for line, _, _, message, _ in warnings(ACTION)
    ]
    assert len(shown) == 2
