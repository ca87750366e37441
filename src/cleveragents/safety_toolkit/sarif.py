"""SARIF 2.1.0, the format GitHub code scanning and security dashboards read: one log with one
run, the rules its results refer to (each with a stable id and help text) and the results.

`check` and `diff` build their results here (`problem_result` for a check problem); the log's
shape, the driver and the locations are written once.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from cleveragents.reading.problems import Problem

__all__ = ["SARIF_SCHEMA", "SarifResult", "SarifRule", "problem_result", "sarif_log"]

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
DISTRIBUTION = "cleveragents-safety-profile"


@dataclass(frozen=True, slots=True)
class SarifRule:
    """What a kind of result means: a stable id, one line, and help that says what to do."""

    id: str
    short: str
    help: str


@dataclass(frozen=True, slots=True)
class SarifResult:
    rule: SarifRule
    message: str
    file: str
    line: int  # 0: the whole file
    column: int
    # "error" (a failure), "note" (a hint beside a file's errors) or "none" (informational: a
    # tightening, an added profile).
    level: str = "error"


def _artifact_uri(file: str) -> str:
    """A path as a URI reference: relative paths stay relative (GitHub resolves them from the
    repository root), with `:` and other reserved characters escaped."""
    if os.path.isabs(file):
        return Path(file).as_uri()
    # RFC 3986: every byte of the name but the unreserved ones and `/` percent-encoded, a name
    # that is not UTF-8 by its own bytes.
    return quote(os.fsencode(file.replace(os.sep, "/")), safe="/")


def _location(result: SarifResult) -> dict[str, object]:
    # GitHub code scanning places only results with a start line: a whole file is its line 1.
    region = (
        {"startLine": result.line, "startColumn": result.column}
        if result.line
        else {"startLine": 1}
    )
    artifact = {"uri": _artifact_uri(result.file)}
    return {"physicalLocation": {"artifactLocation": artifact, "region": region}}


def _rule_json(rule: SarifRule) -> dict[str, object]:
    return {
        "id": rule.id,
        "shortDescription": {"text": rule.short},
        "fullDescription": {"text": rule.help},
        "help": {"text": rule.help},
    }


def _driver() -> dict[str, object]:
    from importlib.metadata import metadata  # only the SARIF format needs it

    info = metadata(DISTRIBUTION)
    urls = dict(url.split(", ", 1) for url in info.get_all("Project-URL") or [])
    return {
        "name": "safety-profile",
        "fullName": f"{DISTRIBUTION} {info['Version']}",
        "version": info["Version"],
        "semanticVersion": info["Version"],
        "informationUri": urls["Homepage"],
    }


def sarif_log(results: Sequence[SarifResult]) -> str:
    """The whole log, as JSON text."""
    rules: dict[str, SarifRule] = {}
    for result in results:
        rules.setdefault(result.rule.id, result.rule)
    index = {rule_id: position for position, rule_id in enumerate(rules)}
    driver = {**_driver(), "rules": [_rule_json(rule) for rule in rules.values()]}
    run = {
        "tool": {"driver": driver},
        "invocations": [{"executionSuccessful": True}],
        # Lines and columns count Unicode characters, as the YAML reader does.
        "columnKind": "unicodeCodePoints",
        "results": [
            {
                "ruleId": result.rule.id,
                "ruleIndex": index[result.rule.id],
                # A result that is not a failure has no level but "none" (SARIF 3.27.9).
                "kind": "informational" if result.level == "none" else "fail",
                "level": result.level,
                "message": {"text": result.message},
                "locations": [_location(result)],
            }
            for result in results
        ],
    }
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2) + "\n"  # ASCII only: safe on any terminal


# -- check's problems --------------------------------------------------------------------------
_FAMILIES: dict[str, tuple[str, str]] = {
    "schema": (
        "A value the Safety Profile schema does not allow",
        "A field's value is not what the schema allows, or breaks a rule JSON Schema cannot "
        "express (costs are finite, max_cost_per_plan does not exceed max_total_cost, a "
        "categories list is not only blank items). The message names the field and what to "
        "write instead; `safety-profile schema` prints the schema.",
    ),
    "yaml": (
        "YAML the toolkit does not read",
        "Profiles are read strictly: one UTF-8 YAML document, YAML 1.2 core values, no "
        "duplicate keys, no tags, bounded size, nesting and alias expansion. The message says "
        "what to change.",
    ),
    "file": (
        "A file that cannot be read",
        "The path is missing, a directory, not a regular file, or not readable; pass the YAML "
        "files themselves.",
    ),
    "git": (
        "A file git would not check out as committed",
        "What is compared is what a checkout of each revision holds: a profile that a git "
        "attribute transforms (filter, working-tree-encoding, ident), a link that leaves the "
        "repository or leads nowhere, or a changed submodule cannot be compared. The message "
        "says what to change.",
    ),
    "root-type": (
        "A document that is not a mapping",
        "A safety profile (or an action) is a mapping of field names to values.",
    ),
}

_SHORT: dict[str, str] = {
    "schema.bool_type": "A flag that is not true or false",
    "schema.int_type": "A retry count that is not an integer",
    "schema.float_type": "A cost that is not a number",
    "schema.finite_number": "A cost that is not a finite number",
    "schema.less_than_equal": "A value above its maximum",
    "schema.greater_than_equal": "A value below its minimum",
    "schema.extra_forbidden": "An unknown field",
    "schema.misspelt_field": "A misspelt action field",
    "schema.missing": "A required field is missing",
    "schema.cost_order": "max_cost_per_plan exceeds max_total_cost",
    "schema.blank_categories": "A categories list of only blank items",
    "yaml.duplicate-key": "A key written twice",
    "yaml.syntax": "Invalid YAML",
    "yaml.tag": "A YAML tag",
    "yaml.multiple-documents": "More than one YAML document",
    "yaml.ambiguous-line-break": "A line break YAML readers disagree on",
}


def check_rule(rule_id: str) -> SarifRule:
    """The SARIF rule of a check problem's rule id (`schema.less_than_equal`, `yaml.tag`, ...)."""
    family = rule_id.split(".", 1)[0]
    short, help_text = _FAMILIES.get(family, _FAMILIES["schema"])
    return SarifRule(rule_id, _SHORT.get(rule_id, short), help_text)


def problem_result(problem: Problem) -> SarifResult:
    field = f"{problem.path}: " if problem.path else ""
    return SarifResult(
        check_rule(problem.rule),
        field + problem.message,
        problem.file,
        problem.line,
        problem.column,
        "error" if problem.severity == "error" else "note",
    )
