"""`safety-profile rules` lists every rule of the catalogue and explains one, as text or JSON;
docs/rules.md is the catalogue written out (scripts/generate_rule_docs.py), and this test fails
when the page drifts from it. Each run is the real console script."""

from __future__ import annotations

import json
import re

import pytest
from conftest import REPO_ROOT
from programs import run_program

from cleveragents.reading.rules import DOCS_URL, Rule, rule_anchor, rule_reference
from cleveragents.safety_toolkit.core.rule_docs import (
    EXAMPLE_TEXTS_FILE,
    example_texts_json,
    rules_markdown,
    with_readers_table,
)
from cleveragents.safety_toolkit.formats import format_names

RULES_PAGE = REPO_ROOT / "docs" / "rules.md"
READERS_PAGE = REPO_ROOT / "docs" / "one-file-one-meaning.md"


def test_rules_lists_every_rule_with_its_severity_and_title() -> None:
    result = run_program("safety-profile", "rules")
    assert (result.returncode, result.stderr) == (0, "")
    listed = [line.split()[0] for line in result.stdout.splitlines()]
    assert sorted(listed) == sorted(rule.value for rule in Rule)
    assert re.search(r"^yaml\.tab +error +A tab where YAML readers disagree$", result.stdout, re.M)


def test_rules_id_explains_one_rule() -> None:
    result = run_program("safety-profile", "rules", "yaml.tab")
    assert (result.returncode, result.stderr) == (0, "")
    text = result.stdout
    assert text.startswith("yaml.tab: A tab where YAML readers disagree\n")
    assert "How to fix: Use spaces." in text
    assert "Other readers: libyaml accepts some of these tabs" in text
    # Each example inline (a pip user has no examples/ folder), escaped for the terminal.
    assert (
        "Examples:\n  tab after `-` (tab_after_dash):\n"
        "    | allowed_skill_categories:\n"
        "    |   -\\tcode\n"
        "    check-jsonschema: error: cannot parse (`found character '\\t'`)\n"
        "    yaml-language-server: accepts\n"
    ) in text
    hostile = run_program("safety-profile", "rules", "yaml.character").stdout
    assert "    | require_sandbox: tr\\x01ue\n" in hostile
    assert "\x01" not in hostile
    assert text.endswith(f"More: {DOCS_URL}#yamltab\n")


def test_rules_json_gives_every_field_of_a_rule_and_of_every_rule() -> None:
    one = run_program("safety-profile", "rules", "--format", "json", "schema.cost-order")
    assert one.returncode == 0
    rule = Rule.SCHEMA_COST_ORDER
    (example,) = rule.doc.examples
    assert json.loads(one.stdout) == {
        **rule.doc._asdict(),
        "examples": [
            {
                "case": example.case,
                "path": "examples/invalid/cost_order.safety_profile.yaml",
                "ours": example.ours,
                "check_jsonschema": {"verdict": "accepts", "detail": "JSON Schema cannot say it"},
                "editor": {"verdict": "accepts", "detail": ""},
            }
        ],
        "url": rule.url,
        "formerly": ["schema.cost_order"],
    }
    every = json.loads(run_program("safety-profile", "rules", "--format", "json").stdout)
    assert [entry["id"] for entry in every] == [entry.split()[0] for entry in _listed()]


def _listed() -> list[str]:
    return run_program("safety-profile", "rules").stdout.splitlines()


@pytest.mark.parametrize("output_format", format_names("rules"))
def test_a_former_id_explains_the_rule_under_its_id_of_now(output_format: str) -> None:
    old = run_program("safety-profile", "rules", "--format", output_format, "schema.cost_order")
    new = run_program("safety-profile", "rules", "--format", output_format, "schema.cost-order")
    assert (old.returncode, old.stdout) == (0, new.stdout)
    assert (
        old.stderr == "safety-profile: note: rule 'schema.cost_order' is now 'schema.cost-order'\n"
    )
    assert new.stderr == ""
    if output_format == "json":
        assert json.loads(new.stdout)["formerly"] == ["schema.cost_order"]
    else:
        assert new.stdout.startswith(
            "schema.cost-order: max_cost_per_plan exceeds max_total_cost\n\n"
            "Formerly: schema.cost_order\n\n"
        )
    assert "Formerly `schema.cost_order`." in RULES_PAGE.read_text(encoding="utf-8")


@pytest.mark.parametrize("unknown", ["nope", "yaml.tabs", "YAML.TAB"])
def test_an_unknown_rule_is_a_usage_error(unknown: str) -> None:
    result = run_program("safety-profile", "rules", unknown)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        f"safety-profile: no rule {unknown!r}; `safety-profile rules` lists them\n"
    )


def test_docs_rules_page_is_the_catalogue_written_out() -> None:
    assert RULES_PAGE.read_text(encoding="utf-8") == rules_markdown(), (
        "docs/rules.md is out of date: run .venv/bin/python scripts/generate_rule_docs.py"
    )


def test_the_packaged_example_texts_are_the_example_files() -> None:
    """What `rules ID` shows is kept in the package; it is the files under examples/."""
    kept = REPO_ROOT / "src" / "cleveragents" / "safety_toolkit" / "core" / EXAMPLE_TEXTS_FILE
    assert kept.read_text(encoding="utf-8") == example_texts_json(
        lambda path: (REPO_ROOT / path).read_bytes()
    ), f"{EXAMPLE_TEXTS_FILE} is out of date: run .venv/bin/python scripts/generate_rule_docs.py"


def test_the_readers_table_is_the_catalogues_examples_written_out() -> None:
    page = READERS_PAGE.read_text(encoding="utf-8")
    assert page == with_readers_table(page), (
        "the table of docs/one-file-one-meaning.md is out of date: run "
        ".venv/bin/python scripts/generate_rule_docs.py"
    )
    for rule in Rule:
        for example in rule.doc.examples:
            assert f"| {example.case} | [`" in page, example.case


def test_every_rule_has_its_own_heading_where_its_url_points() -> None:
    headings = re.findall(r"^### (\S+)$", RULES_PAGE.read_text(encoding="utf-8"), re.M)
    assert sorted(headings) == sorted(rule.value for rule in Rule)
    for rule in Rule:
        assert rule.url == f"{DOCS_URL}#{rule_anchor(rule.value)}"
    # GitHub's anchors: lower case, punctuation but `-` and `_` dropped.
    assert rule_anchor("yaml.byte-order-mark") == "yamlbyte-order-mark"
    assert rule_anchor("schema.cost-order") == "schemacost-order"


def test_a_rules_reference_for_editors() -> None:
    reference = rule_reference("yaml.tab")
    assert reference is not None
    assert (reference.id, reference.title) == ("yaml.tab", "A tab where YAML readers disagree")
    assert reference.url == f"{DOCS_URL}#yamltab"
    assert rule_reference("yaml.tabs") is None
