"""One registry of output formats (`cleveragents.safety_toolkit.formats`): each command's
`--format` choices and help come from it, every format it offers renders that command's report,
and `diff --help` describes the JSON `diff` prints. Runs are the real console script."""

from __future__ import annotations

import json
import re

import pytest
from conftest import EXAMPLES, relative
from programs import run_program

from cleveragents.reading.problems import Problem
from cleveragents.reading.rules import Rule
from cleveragents.safety_toolkit.formats import FORMAT_BY_NAME, format_names, reporter
from cleveragents.safety_toolkit.formats.base import PROTOCOL_BY_COMMAND, CheckedFiles

PROFILE = relative(EXAMPLES / "valid" / "spec_example.safety_profile.yaml")
INVALID = relative(EXAMPLES / "invalid" / "several_problems.safety_profile.yaml")
LOOSER = relative(EXAMPLES / "diff" / "unsafe_tools_no_checkpoints.safety_profile.yaml")
RUNS = {
    "check": ["check", INVALID],
    "diff": ["diff", PROFILE, LOOSER],
    "resolve": ["resolve", "--project", PROFILE],
    "rules": ["rules", "yaml.tab"],
    "show": ["show", PROFILE],
}


def format_choices(command: str) -> list[str]:
    """The choices `COMMAND --help` lists for --format."""
    help_text = run_program("safety-profile", command, "--help").stdout
    found = re.search(r"--format \{([a-z,]+)\}", help_text)
    assert found, help_text
    return found.group(1).split(",")


@pytest.mark.parametrize("command", sorted(RUNS))
def test_every_format_a_command_offers_renders_its_report(command: str) -> None:
    names = format_choices(command)
    assert names == format_names(command)
    for name in names:
        result = run_program("safety-profile", *RUNS[command], "--format", name)
        assert result.returncode in (0, 1), (name, result.stderr)
        assert result.stderr == ""
        assert result.stdout
        if name in ("json", "sarif"):
            json.loads(result.stdout)


def test_every_command_a_format_serves_is_run_here() -> None:
    served = {command for entry in FORMAT_BY_NAME.values() for command in entry.serves}
    assert served == set(RUNS) == set(PROTOCOL_BY_COMMAND)


@pytest.mark.parametrize("name", sorted(FORMAT_BY_NAME))
def test_a_format_describes_exactly_the_commands_whose_protocol_it_implements(name: str) -> None:
    entry = FORMAT_BY_NAME[name]
    cls = entry.reporter_class()
    implemented = {c for c, protocol in PROTOCOL_BY_COMMAND.items() if issubclass(cls, protocol)}
    assert set(entry.serves) == implemented
    assert cls.name == name


def test_a_format_is_not_handed_to_a_command_it_does_not_render() -> None:
    for command in PROTOCOL_BY_COMMAND:
        for name in sorted(set(FORMAT_BY_NAME) - set(format_names(command))):
            with pytest.raises(LookupError, match=f"does not render {command}"):
                reporter(command, name)  # type: ignore[call-overload]


@pytest.mark.parametrize("name", format_names("resolve"))
def test_resolve_reports_an_invalid_layer_in_every_format_it_offers(name: str) -> None:
    result = run_program("safety-profile", "resolve", "--project", INVALID, "--format", name)
    assert result.returncode == 1
    assert result.stderr == ""
    assert "several_problems.safety_profile.yaml" in result.stdout


def test_every_command_offers_text_and_json() -> None:
    # Which other formats a command offers is the registry's (held to the protocols each
    # format implements above): a new format for `check` alone needs no edit here.
    for command in PROTOCOL_BY_COMMAND:
        assert {"json", "text"} <= set(format_names(command)), command


def test_diff_help_describes_the_json_object_diff_prints() -> None:
    help_text = " ".join(run_program("safety-profile", "diff", "--help").stdout.split())
    assert "json, an object {loosens, files_compared, changes:" in help_text
    result = run_program("safety-profile", *RUNS["diff"], "--format", "json")
    printed = json.loads(result.stdout)
    assert sorted(printed) == ["changes", "files_compared", "loosens", "problems"]
    assert sorted(printed["changes"][0]) == sorted(
        ["file", "line", "column", "path", "change", "old", "new", "message", "rule"]
    )


def test_check_help_describes_its_json_array() -> None:
    help_text = " ".join(run_program("safety-profile", "check", "--help").stdout.split())
    assert "json, an array of {file, line, column, path, message, rule, severity}" in help_text


def test_check_is_given_every_file_checked_those_that_passed_too() -> None:
    result = run_program("safety-profile", "check", PROFILE, INVALID)
    assert result.stdout.endswith("1 of 2 files invalid\n")
    problem = Problem(INVALID, 1, 1, "", "bad", Rule.FILE_MISSING)
    files = CheckedFiles((PROFILE, INVALID), (problem,))
    assert files.problems_of(PROFILE) == ()
    assert files.problems_of(INVALID) == (problem,)
