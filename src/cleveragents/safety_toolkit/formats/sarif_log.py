"""SARIF 2.1.0, the format GitHub code scanning and security dashboards read: one log with one
run, every rule of the catalogue (`cleveragents.reading.rules`, each with its id, title, help
and the link to its section of docs/rules.md) and the results.

The SARIF format (`sarif.py`) builds its results here (`problem_result` for a problem); the
log's shape, the driver and the locations are written once. Imported only when a SARIF log is
written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from cleveragents.reading.problems import Problem, field_prefix
from cleveragents.reading.rules import Rule

__all__ = ["SARIF_SCHEMA", "SarifResult", "problem_result", "sarif_log"]

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
DISTRIBUTION = "cleveragents-safety-profile"


@dataclass(frozen=True, slots=True)
class SarifResult:
    rule: Rule
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


def _rule_json(rule: Rule) -> dict[str, object]:
    doc = rule.doc
    help_text = f"{doc.description} How to fix: {doc.fix}"
    if doc.readers:
        help_text += f" Other readers: {doc.readers}"
    return {
        "id": rule.value,
        "shortDescription": {"text": doc.title},
        "fullDescription": {"text": doc.description},
        "help": {"text": help_text},
        "helpUri": rule.url,
        "defaultConfiguration": {"level": doc.severity.sarif},
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
    rules = list(Rule)  # every rule, so a dashboard can describe any result it will ever see
    index = {rule: position for position, rule in enumerate(rules)}
    driver = {**_driver(), "rules": [_rule_json(rule) for rule in rules]}
    run = {
        "tool": {"driver": driver},
        "invocations": [{"executionSuccessful": True}],
        # Lines and columns count Unicode characters, as the YAML reader does.
        "columnKind": "unicodeCodePoints",
        "results": [
            {
                "ruleId": result.rule.value,
                "ruleIndex": index[result.rule],
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


def problem_result(problem: Problem) -> SarifResult:
    field = field_prefix(problem.path)
    return SarifResult(
        problem.rule,
        field + problem.message,
        problem.file,
        problem.line,
        problem.column,
        problem.severity.sarif,
    )
