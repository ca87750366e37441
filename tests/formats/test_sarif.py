"""`--format sarif` for `check` and `diff`: every log validates against the official SARIF 2.1.0
JSON Schema (tests/sarif/, with its licence and where it came from) and passes Microsoft's
SARIF validator (`sarif-multitool`, pinned in package.json, installed by `npm ci`), with
GitHub code scanning's rules on."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import EXAMPLES, INVALID_PROFILES, REPO_ROOT, VALID_PROFILES, relative
from git_repos import git, new_repository, write_files
from programs import run_program

from cleveragents.reading.rules import DOCS_URL, Rule, Severity, rule_anchor

SARIF_SCHEMA = json.loads(
    (REPO_ROOT / "tests" / "sarif" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)
# Every format the schema names is checked (`uri` and `uri-reference` need rfc3986-validator).
VALIDATOR = jsonschema.Draft4Validator(SARIF_SCHEMA, format_checker=jsonschema.FormatChecker())
MULTITOOL_PACKAGE = REPO_ROOT / "node_modules" / "@microsoft" / "sarif-multitool"
INVALID_ACTIONS = sorted((EXAMPLES / "actions" / "invalid").glob("*.yaml"))


def schema_errors(log: dict[str, Any]) -> list[str]:
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in VALIDATOR.iter_errors(log)
    ]


def sarif(*args: str, cwd: Path = REPO_ROOT) -> tuple[int, dict[str, Any], str]:
    result = run_program("safety-profile", *args, "--format", "sarif", cwd=cwd)
    assert "Traceback" not in result.stderr
    return result.returncode, json.loads(result.stdout), result.stdout


def test_the_kept_schema_is_the_official_one() -> None:
    assert SARIF_SCHEMA["id"] == (
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    )
    jsonschema.Draft4Validator.check_schema(SARIF_SCHEMA)
    # The validator does check formats: a URI reference with a space is refused.
    bad = {
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "x", "informationUri": "a b"}}}],
    }
    assert schema_errors(bad)


@pytest.fixture(scope="module")
def check_logs() -> dict[str, tuple[int, dict[str, Any], str]]:
    profiles = [relative(path) for path in INVALID_PROFILES + VALID_PROFILES]
    return {
        "profiles": sarif("check", *profiles, "absent.safety_profile.yaml"),
        "actions": sarif("check", "--kind", "action", *map(relative, INVALID_ACTIONS)),
        "valid": sarif("check", *map(relative, VALID_PROFILES)),
    }


def test_check_logs_are_valid_sarif_with_one_result_per_problem(
    check_logs: dict[str, tuple[int, dict[str, Any], str]],
) -> None:
    profiles = [relative(path) for path in INVALID_PROFILES + VALID_PROFILES]
    as_json = run_program(
        "safety-profile", "check", "--format", "json", *profiles, "absent.safety_profile.yaml"
    )
    problems = json.loads(as_json.stdout)
    status, log, _ = check_logs["profiles"]
    assert status == 1
    assert schema_errors(log) == []
    (run,) = log["runs"]
    results = run["results"]
    assert len(results) == len(problems)
    for result, problem in zip(results, problems, strict=True):
        assert result["ruleId"] == problem["rule"]
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == problem["rule"]
        # Each at its severity's level: errors, and a valid file's warnings.
        assert (result["level"], result["kind"]) == (Severity(problem["severity"]).sarif, "fail")
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"] == problem["file"]
        assert location["region"]["startLine"] == (problem["line"] or 1)
        assert result["message"]["text"].endswith(problem["message"])
    for _status, log, _ in (check_logs["actions"], check_logs["valid"]):
        assert schema_errors(log) == []
    assert check_logs["valid"][0] == 0
    # Valid means no error; a warning rule may still report on a valid file.
    results = check_logs["valid"][1]["runs"][0]["results"]
    assert [result for result in results if result["level"] == "error"] == []


def test_the_driver_and_every_rule_describe_themselves(
    check_logs: dict[str, tuple[int, dict[str, Any], str]],
) -> None:
    from importlib.metadata import version

    driver = check_logs["profiles"][1]["runs"][0]["tool"]["driver"]
    assert driver["name"] == "safety-profile"
    assert driver["version"] == version("cleveragents-safety-profile")
    assert driver["informationUri"] == "https://github.com/cleveragents/cleveragents-safety-profile"
    # Every rule of the catalogue, in its order, whether or not a result names it, each with
    # its title, help, default level and the link to its section of docs/rules.md.
    ids = [rule["id"] for rule in driver["rules"]]
    assert ids == [rule.value for rule in Rule]
    for described, rule in zip(driver["rules"], Rule, strict=True):
        assert described["shortDescription"]["text"] == rule.doc.title
        assert described["fullDescription"]["text"] == rule.doc.description
        assert rule.doc.fix in described["help"]["text"]
        assert described["helpUri"] == f"{DOCS_URL}#{rule_anchor(rule.value)}"
        level = described["defaultConfiguration"]["level"]
        assert level == rule.doc.severity.sarif  # error, warning or note
    assert driver["rules"] == check_logs["valid"][1]["runs"][0]["tool"]["driver"]["rules"]


# -- diff ----------------------------------------------------------------------------------------
ODD_NAME = os.fsdecode(b"config/caf\xe9\n #?%.safety_profile.yaml")


@pytest.fixture(scope="module")
def diff_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any], str, Path]:
    """A change with every kind of result: loosening, tightening, an added and a removed
    profile, an invalid file (`:` in a name, escaped in its URI), names that are not UTF-8 or
    hold a newline and URI delimiters, and a file git would transform on checkout."""
    folder = new_repository(
        tmp_path_factory.mktemp("repository"),
        {
            "config/prod.safety_profile.yaml": "require_sandbox: true\nmax_total_cost: 100.0\n",
            "config/gone.safety_profile.yaml": "{}\n",
            "config/odd: name.safety_profile.yaml": "{}\n",
            ODD_NAME: "require_checkpoints: true\n",
            "config/enc.safety_profile.yaml": "{}\n",
        },
    )
    write_files(
        folder,
        {
            "config/prod.safety_profile.yaml": "require_sandbox: false\nmax_total_cost: 5.0\n",
            "config/new.safety_profile.yaml": "{}\n",
            "config/odd: name.safety_profile.yaml": "max_retries_per_step: 500\n",
            ODD_NAME: "require_checkpoints: false\n",
            ".gitattributes": "config/enc.* filter=lfs\n",
        },
    )
    git(folder, "rm", "-q", "config/gone.safety_profile.yaml")
    status, log, text = sarif("diff", "--git", "HEAD", cwd=folder)
    return status, log, text, folder


def test_diff_log_is_valid_sarif_with_levels_by_verdict(
    diff_log: tuple[int, dict[str, Any], str, Path],
) -> None:
    status, log, _, _ = diff_log
    assert status == 1
    assert schema_errors(log) == []
    results = log["runs"][0]["results"]
    found = {
        (
            r["ruleId"],
            r["kind"],
            r["level"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        )
        for r in results
    }
    assert found == {
        ("schema.less-than-equal", "fail", "error", "config/odd%3A%20name.safety_profile.yaml"),
        ("loosens.removed", "fail", "error", "config/gone.safety_profile.yaml"),
        ("diff.added", "informational", "none", "config/new.safety_profile.yaml"),
        ("loosens.require_sandbox", "fail", "error", "config/prod.safety_profile.yaml"),
        ("tightens.max_total_cost", "informational", "none", "config/prod.safety_profile.yaml"),
        # RFC 3986: the name's own bytes, percent-encoded.
        (
            "loosens.require_checkpoints",
            "fail",
            "error",
            "config/caf%E9%0A%20%23%3F%25.safety_profile.yaml",
        ),
        ("git.attribute", "fail", "error", "config/enc.safety_profile.yaml"),
    }
    rules = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    assert "true is stricter" in rules["loosens.require_sandbox"]["help"]["text"]
    assert "SKIP=safety-profile-loosening" in rules["loosens.require_sandbox"]["help"]["text"]
    assert "the next layer applies" in rules["loosens.removed"]["help"]["text"]


# -- the official validator ----------------------------------------------------------------------
CLOSED_PROXY = "http://127.0.0.1:9"  # the discard port: nothing listens on it here


def _multitool() -> str:
    """The validator's own program for this platform, as its npm package names it (its
    `bin.js` passes arguments through a shell, which would split `Sarif;Gh`)."""
    node = shutil.which("node")
    if node is not None and MULTITOOL_PACKAGE.exists():
        found = subprocess.run(
            [node, "-p", "require('@microsoft/sarif-multitool')"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return found.stdout.strip()
    missing = "the SARIF validator is not installed: run `npm ci` in the repository root"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{missing}; under CI=true the SARIF tests must run, not skip")
    pytest.skip(missing)


def test_microsofts_sarif_validator_finds_nothing(
    tmp_path: Path,
    check_logs: dict[str, tuple[int, dict[str, Any], str]],
    diff_log: tuple[int, dict[str, Any], str, Path],
) -> None:
    logs = {f"check-{name}.sarif": text for name, (_, _, text) in check_logs.items()}
    logs["diff.sarif"] = diff_log[2]
    # A log the validator must fault, so a validator that finds nothing is seen to look: the
    # diff log with the first result's region taken out (GitHub places results by line).
    broken = json.loads(diff_log[2])
    del broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    logs["broken.sarif"] = json.dumps(broken)
    for name, text in logs.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    verdict = tmp_path / "verdict.sarif"
    result = subprocess.run(
        [_multitool(), "validate", *logs, "--rule-kind", "Sarif;Gh", "--output", str(verdict)],
        cwd=tmp_path,
        # The validator's rule SARIF2006 fetches each helpUri; offline, each fetch waited ~16 s
        # on DNS. Through a proxy on a closed port it fails at once, as offline, and every
        # rule still runs.
        env={**os.environ, "HTTP_PROXY": CLOSED_PROXY, "HTTPS_PROXY": CLOSED_PROXY},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    faulted = {
        (
            finding["ruleId"],
            Path(finding["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]).name,
        )
        for finding in json.loads(verdict.read_text(encoding="utf-8"))["runs"][0]["results"]
    }
    assert faulted
    assert {name for _, name in faulted} == {"broken.sarif"}, faulted


def test_check_names_a_file_that_is_not_utf8_by_its_bytes(tmp_path: Path) -> None:
    name = os.fsdecode(b"caf\xe9.safety_profile.yaml")
    (tmp_path / name).write_text("max_retries_per_step: 500\n", encoding="utf-8")
    status, log, _ = sarif("check", name, cwd=tmp_path)
    assert status == 1
    (result,) = log["runs"][0]["results"]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "caf%E9.safety_profile.yaml"
