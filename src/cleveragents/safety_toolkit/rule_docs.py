"""The catalogue of rules, written out: `safety-profile rules` (every rule, or one, as text or
JSON, as `ruff rule` does) and docs/rules.md, all from `cleveragents.reading.rules`."""

from __future__ import annotations

import json
import textwrap

from cleveragents.reading.rules import ALIASES, Rule, RuleDoc

__all__ = [
    "FAMILIES",
    "family",
    "former_ids",
    "rule_json",
    "rule_text",
    "rules_json",
    "rules_list",
    "rules_markdown",
]

# The families of ids, in the order a file meets them, with what each is about: every rule's
# family is one of them (tests/test_rule_catalogue.py).
FAMILIES: dict[str, str] = {
    "file": "Files that cannot be read",
    "git": "Files git would not check out as committed (check, diff --git)",
    "yaml": "YAML the toolkit does not read (one file, one meaning for every reader)",
    "document": "The document's shape",
    "schema": "Values the schema (or a rule JSON Schema cannot express) does not allow",
    "kind": "Hints",
    "floor": "The organisation's floor (check, resolve, diff --git, the editor)",
    "internal": "Bugs",
    "loosens": "diff: a change that loosens a profile",
    "tightens": "diff: a change that tightens a profile",
    "diff": "diff: a profile with nothing to compare it with, and (diff --pre-commit) an "
    "invalid staged file, which the check hook reports",
}


def family(rule: Rule) -> str:
    """`yaml` for `yaml.tab`: the part of the id before the dot."""
    return rule.value.split(".", 1)[0]


def former_ids(rule: Rule) -> list[str]:
    """The ids the rule had before (`ALIASES`), which scripts may still name."""
    return [old for old, renamed in ALIASES.items() if renamed is rule]


def _by_family() -> list[Rule]:
    order = list(FAMILIES)
    return sorted(Rule, key=lambda rule: order.index(family(rule)))


def _rule_object(rule: Rule) -> dict[str, object]:
    return {**rule.doc._asdict(), "url": rule.url, "formerly": former_ids(rule)}


def rule_json(rule: Rule) -> str:
    """{id, title, description, fix, severity, readers, url, formerly}: one rule, for scripts
    (`formerly`: the ids it had before, which `safety-profile rules` still takes)."""
    return json.dumps(_rule_object(rule), indent=2) + "\n"


def rules_json() -> str:
    """Every rule, as `rule_json` writes each, in the order `rules_list` lists them."""
    return json.dumps([_rule_object(rule) for rule in _by_family()], indent=2) + "\n"


def rules_list() -> str:
    """One line per rule: its id, default severity and title."""
    rules = _by_family()
    width = max(len(rule.value) for rule in rules)
    lines = [f"{rule.value:<{width}}  {rule.doc.severity:<5}  {rule.doc.title}" for rule in rules]
    return "\n".join(lines) + "\n"


def _paragraph(text: str, label: str = "") -> str:
    return textwrap.fill(f"{label}{text}", width=80)


def rule_text(rule: Rule) -> str:
    """One rule explained: `ID: title`, the ids it had before, its severity, what it means,
    how to fix it, which readers disagree and where the documentation is."""
    doc: RuleDoc = rule.doc
    parts = [f"{doc.id}: {doc.title}"]
    if former_ids(rule):
        parts.append(f"Formerly: {', '.join(former_ids(rule))}")
    parts += [f"Default severity: {doc.severity}", _paragraph(doc.description)]
    parts.append(_paragraph(doc.fix, "How to fix: "))
    if doc.readers:
        parts.append(_paragraph(doc.readers, "Other readers: "))
    parts.append(f"More: {rule.url}")
    return "\n\n".join(parts) + "\n"


def rules_markdown() -> str:
    """docs/rules.md: every rule under its own heading (`### ID`, the anchor SARIF's helpUri and
    editors link to), by family."""
    lines = [
        "# Rules",
        "",
        "<!-- Generated from src/cleveragents/reading/rules.py by "
        "`python scripts/generate_rule_docs.py`; do not edit by hand. -->",
        "",
        "Every problem `safety-profile` reports (in `check`, `diff`, `show`, `resolve`, the "
        "pre-commit hooks, SARIF and editors) names one of these rules by its id. "
        "`safety-profile rules` lists them; `safety-profile rules ID` explains one "
        "(`--format json` for scripts).",
        "",
        "| id | severity | title |",
        "|---|---|---|",
    ]
    rules = _by_family()
    lines += [f"| [`{rule.value}`](#{rule.url.rsplit('#', 1)[1]}) | {rule.doc.severity} | "
              f"{rule.doc.title} |" for rule in rules]  # fmt: skip
    current = None
    for rule in rules:
        if family(rule) != current:
            current = family(rule)
            lines += ["", f"## {FAMILIES[current]}"]
        doc = rule.doc
        lines += ["", f"### {doc.id}", "", f"**{doc.title}** ({doc.severity})", ""]
        if former_ids(rule):
            lines += [f"Formerly {', '.join(f'`{old}`' for old in former_ids(rule))}.", ""]
        lines += [doc.description, "", f"How to fix: {doc.fix}"]
        if doc.readers:
            lines += ["", f"Other readers: {doc.readers}"]
    return "\n".join(lines) + "\n"
