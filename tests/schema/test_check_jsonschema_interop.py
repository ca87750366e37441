"""Our schema works with the real check-jsonschema, and both agree on every schema-level verdict.

What only our checker catches is asserted too, so the README's list stays true. (How each reader
reads the YAML itself is tests/reading/test_readers_agree.py's subject.)"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

from conftest import (
    INVALID_PROFILES,
    PROFILE_SCHEMA_PATH,
    REPO_ROOT,
    VALID_PROFILES,
    console_script,
    relative,
)

from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.reading.validation import check_yaml_file

# Rules JSON Schema cannot express: the schema accepts these, our checker does not.
ONLY_OUR_RULES = {"schema.cost-order", "schema.finite-number", "schema.blank-categories"}


def compared_examples() -> list[str]:
    """The valid examples and the invalid ones whose problems are all about values (not YAML
    syntax, encoding or resource bounds: check-jsonschema takes minutes to expand the alias
    bomb, for instance)."""
    return [relative(path) for path in VALID_PROFILES] + [
        relative(path)
        for path in INVALID_PROFILES
        if all(rule.startswith("schema.") for rule in our_rules(relative(path)))
    ]


@cache
def files_check_jsonschema_rejects() -> frozenset[str]:
    """One run over the compared examples; the files it names as unparsable or invalid."""
    files = compared_examples()
    result = subprocess.run(
        [console_script("check-jsonschema"), "--schemafile", str(PROFILE_SCHEMA_PATH), *files],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    output = result.stdout + result.stderr
    unparsable = re.findall(r"Failed to parse (\S+)", output)
    invalid = re.findall(r"^\s*(\S+?)::\$", output, flags=re.MULTILINE)
    return frozenset(unparsable + invalid)


@cache
def our_rules(path_text: str) -> frozenset[str]:
    result = check_yaml_file(str(REPO_ROOT / path_text), SafetyProfile)
    return frozenset(problem.rule for problem in result.problems)


def test_both_accept_every_valid_example() -> None:
    assert files_check_jsonschema_rejects().isdisjoint(relative(path) for path in VALID_PROFILES)


def test_both_reject_every_example_with_a_schema_level_problem() -> None:
    rejected = files_check_jsonschema_rejects()
    schema_level = [name for name in compared_examples() if our_rules(name) - ONLY_OUR_RULES]
    assert len(schema_level) >= 35
    assert set(schema_level) <= rejected


def test_check_jsonschema_misses_exactly_what_only_our_rules_catch() -> None:
    invalid = {relative(path) for path in INVALID_PROFILES} & set(compared_examples())
    accepted_by_check_jsonschema = invalid - files_check_jsonschema_rejects()
    assert {Path(name).name.split(".")[0] for name in accepted_by_check_jsonschema} == {
        "categories_only_blank",
        "cost_order",
        "cost_order_small",
        "nan_cost",
        "inf_cost",
    }
    for name in accepted_by_check_jsonschema:
        assert our_rules(name) <= ONLY_OUR_RULES, name
