"""Our schema works with the real check-jsonschema, and both agree on every schema-level verdict.

What only our checker catches is asserted too, so the README's list stays true."""

from __future__ import annotations

import re
import subprocess
from functools import cache

from conftest import (
    INVALID_PROFILES,
    PROFILE_SCHEMA_PATH,
    REPO_ROOT,
    VALID_PROFILES,
    console_script,
    relative,
)

from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.safety_toolkit.validation import check_yaml_file

# Rules JSON Schema cannot express: the schema accepts these, our checker does not.
ONLY_OUR_RULES = {"schema.cost_order", "schema.finite_number"}


@cache
def files_check_jsonschema_rejects() -> frozenset[str]:
    """One run over every example; the files it names as unparsable or invalid."""
    files = [relative(path) for path in VALID_PROFILES + INVALID_PROFILES]
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


def our_rules(path_text: str) -> set[str]:
    result = check_yaml_file(str(REPO_ROOT / path_text), SafetyProfile)
    return {problem.rule for problem in result.problems}


def test_both_accept_every_valid_example() -> None:
    assert files_check_jsonschema_rejects().isdisjoint(relative(path) for path in VALID_PROFILES)


def test_both_reject_every_example_with_a_schema_level_problem() -> None:
    rejected = files_check_jsonschema_rejects()
    schema_level = [
        relative(path) for path in INVALID_PROFILES if our_rules(relative(path)) - ONLY_OUR_RULES
    ]
    assert len(schema_level) >= 20
    assert set(schema_level) <= rejected


def test_check_jsonschema_misses_what_only_our_rules_catch() -> None:
    only_ours = [
        relative(path) for path in INVALID_PROFILES if our_rules(relative(path)) <= ONLY_OUR_RULES
    ]
    assert {name.split("/")[-1].split(".")[0] for name in only_ours} == {
        "cost_order",
        "nan_cost",
        "inf_cost",
    }
    assert files_check_jsonschema_rejects().isdisjoint(only_ours)
