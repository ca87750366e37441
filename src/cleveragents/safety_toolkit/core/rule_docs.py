"""The catalogue of rules, written out: `safety-profile rules` (every rule, or one, as text or
JSON, as `ruff rule` does), docs/rules.md and the table "What each reader says" of
docs/one-file-one-meaning.md, all from `cleveragents.reading.rules`."""

from __future__ import annotations

import functools
import json
import textwrap
from collections.abc import Callable
from pathlib import PurePosixPath

from cleveragents.reading.rules import (
    ALIASES,
    REPOSITORY_URL,
    Example,
    Reading,
    Rule,
    RuleDoc,
    Severity,
)

__all__ = [
    "EXAMPLE_TEXTS_FILE",
    "FAMILIES",
    "example_texts_json",
    "family",
    "former_ids",
    "readers_table",
    "rule_json",
    "rule_text",
    "rules_json",
    "rules_list",
    "rules_markdown",
    "with_readers_table",
]

_GENERATED_BY = (
    "Generated from src/cleveragents/reading/rules.py by `python scripts/generate_rule_docs.py`; "
    "do not edit by hand."
)
# Where the table of examples is, and the section of the page that holds it.
READERS_SECTION = "one-file-one-meaning.md#what-each-reader-says"

# The families of ids, in the order a file meets them, with what each is about: every rule's
# family is one of them (tests/reading/test_rule_catalogue.py).
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
    "advice": "Advice: warnings about a valid file (it stays valid)",
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


def _example_object(example: Example) -> dict[str, object]:
    readings = {"check_jsonschema": example.check_jsonschema, "editor": example.editor}
    return {
        **example._asdict(),
        **{reader: reading._asdict() for reader, reading in readings.items()},
    }


def _rule_object(rule: Rule) -> dict[str, object]:
    examples = [_example_object(example) for example in rule.doc.examples]
    return {
        **rule.doc._asdict(),
        "examples": examples,
        "url": rule.url,
        "formerly": former_ids(rule),
    }


def rule_json(rule: Rule) -> str:
    """{id, title, description, fix, severity, readers, examples, url, formerly}: one rule,
    for scripts (`formerly`: the ids it had before, which `safety-profile rules` still takes)."""
    return json.dumps(_rule_object(rule), indent=2) + "\n"


def rules_json() -> str:
    """Every rule, as `rule_json` writes each, in the order `rules_list` lists them."""
    return json.dumps([_rule_object(rule) for rule in _by_family()], indent=2) + "\n"


def rules_list() -> str:
    """One line per rule: its id, default severity and title."""
    rules = _by_family()
    width = max(len(rule.value) for rule in rules)
    words = max(len(severity) for severity in Severity)  # a column as wide as every severity
    lines = [
        f"{rule.value:<{width}}  {rule.doc.severity:<{words}}  {rule.doc.title}" for rule in rules
    ]
    return "\n".join(lines) + "\n"


def _paragraph(text: str, label: str = "") -> str:
    return textwrap.fill(f"{label}{text}", width=80)


def rule_text(rule: Rule) -> str:
    """One rule explained: `ID: title`, the ids it had before, its severity, what it means,
    how to fix it, which readers disagree (and what they say of its examples) and where the
    documentation is."""
    doc: RuleDoc = rule.doc
    parts = [f"{doc.id}: {doc.title}"]
    if former_ids(rule):
        parts.append(f"Formerly: {', '.join(former_ids(rule))}")
    parts += [f"Default severity: {doc.severity}", _paragraph(doc.description)]
    parts.append(_paragraph(doc.fix, "How to fix: "))
    if doc.readers:
        parts.append(_paragraph(doc.readers, "Other readers: "))
    if doc.examples:
        parts.append("\n".join(["Examples:", *map(_example_text, doc.examples)]))
    parts.append(f"More: {rule.url}")
    return "\n\n".join(parts) + "\n"


# Each example file's text, kept in the package (a pip install has no examples/ folder):
# written by scripts/generate_rule_docs.py from examples/, a test fails when it drifts.
EXAMPLE_TEXTS_FILE = "rule_examples.json"


def example_texts_json(read: Callable[[str], bytes]) -> str:
    """The package's EXAMPLE_TEXTS_FILE: {path: text} for every example of the catalogue,
    `read(path)` giving the file's bytes (those that are not UTF-8 as lone surrogates, as
    `os.fsdecode` holds them; ASCII JSON, so every character survives as written)."""
    texts = {
        example.path: read(example.path).decode("utf-8", "surrogateescape")
        for rule in Rule
        for example in rule.doc.examples
    }
    return json.dumps(texts, indent=1, sort_keys=True) + "\n"


@functools.cache
def _packaged_example_texts() -> dict[str, str]:
    from importlib.resources import files

    text = files(__package__).joinpath(EXAMPLE_TEXTS_FILE).read_text(encoding="utf-8")
    texts: dict[str, str] = json.loads(text)
    return texts


def _example_text(example: Example) -> str:
    """The example's case and file, its text line by line (escaped for a terminal: a tab is
    `\\t`, a control character `\\x01`) and what the other readers make of it."""
    from cleveragents.reading.terminal_text import visible

    text = _packaged_example_texts()[example.path]
    lines = text.removesuffix("\n").split("\n")
    return "\n".join(
        [
            f"  {example.case} ({_example_name(example)}):",
            *(f"    | {visible(line)}" for line in lines),
            f"    check-jsonschema: {_cell(example.check_jsonschema)}",
            f"    yaml-language-server: {_cell(example.editor)}",
        ]
    )


def rules_markdown() -> str:
    """docs/rules.md: every rule under its own heading (`### ID`, the anchor SARIF's helpUri and
    editors link to), by family."""
    lines = [
        "# Rules",
        "",
        f"<!-- {_GENERATED_BY} -->",
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
        if doc.examples:
            names = ", ".join(f"`{_example_name(example)}`" for example in doc.examples)
            lines += ["", f"Examples: {names} ([what each reader says]({READERS_SECTION}))."]
    return "\n".join(lines) + "\n"


def _example_name(example: Example) -> str:
    return PurePosixPath(example.path).name.split(".", 1)[0]


def _cell(reading: Reading) -> str:
    return f"{reading.verdict}: {reading.detail}" if reading.detail else reading.verdict


def readers_table() -> str:
    """The table "What each reader says": for each rule's examples, what our hook,
    check-jsonschema and yaml-language-server say. Each reader's cell starts with its verdict
    (`error`, `accepts` or `crashes`), which tests/reading/test_readers_agree.py checks."""
    lines = [
        "| rule | case | example | `safety-profile` (the hook) | check-jsonschema 0.39 | "
        "yaml-language-server 2.0 |",
        "|---|---|---|---|---|---|",
    ]
    for rule in _by_family():
        for example in rule.doc.examples:
            cells = (
                f"[`{rule.value}`](rules.md#{rule.url.rsplit('#', 1)[1]})",
                example.case,
                f"[`{_example_name(example)}`]({REPOSITORY_URL}{example.path})",
                f"error: {example.ours}",
                _cell(example.check_jsonschema),
                _cell(example.editor),
            )
            lines.append(f"| {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


_READERS_TABLE_MARK = "<!-- readers-table"
_READERS_TABLE_START = f"{_READERS_TABLE_MARK}: {_GENERATED_BY} -->\n"
_READERS_TABLE_END = "<!-- end readers-table -->"


def with_readers_table(page: str) -> str:
    """The page with `readers_table()` between its `<!-- readers-table: ... -->` and
    `<!-- end readers-table -->` lines."""
    before, start, rest = page.partition(_READERS_TABLE_MARK)
    _, end, after = rest.partition(_READERS_TABLE_END)
    if not (start and end):
        raise ValueError("the page has no readers-table markers")
    return f"{before}{_READERS_TABLE_START}{readers_table()}{_READERS_TABLE_END}{after}"
