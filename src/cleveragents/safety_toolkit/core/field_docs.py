"""The field tables of docs/loosening.md ("which value is stricter") and docs/floor.md ("at least
as strict as the floor when"), written from the field facts kept beside the schema
(`cleveragents.reading.field_facts`) by `scripts/generate_rule_docs.py`;
tests/schema/test_field_facts.py fails when a committed table differs."""

from __future__ import annotations

from collections.abc import Callable

from cleveragents.reading.field_facts import FIELD_FACTS, FieldFacts

__all__ = ["FIELD_TABLES", "field_table", "with_field_table"]

# Each table: its name in the page's markers, its header and the cell each field's facts give.
FIELD_TABLES: dict[str, tuple[str, Callable[[FieldFacts], str]]] = {
    "stricter": ("stricter", lambda facts: facts.stricter_cell),
    "floor": ("at least as strict as the floor when", lambda facts: facts.floor_cell),
}
_GENERATED_BY = (
    "Generated from the x-strictness of schema/safety_profile.schema.json by "
    "`python scripts/generate_rule_docs.py`; do not edit by hand."
)
_END = "<!-- end field-table -->"


def field_table(name: str) -> str:
    """The table `name` in Markdown: one row per cell, naming every field that has it, in the
    order of the schema's first field with it."""
    header, cell = FIELD_TABLES[name]
    rows: dict[str, list[str]] = {}
    for field, facts in FIELD_FACTS.items():
        rows.setdefault(cell(facts), []).append(f"`{field}`")
    lines = [f"| field | {header} |", "| --- | --- |"]
    lines += [f"| {', '.join(fields)} | {text} |" for text, fields in rows.items()]
    return "\n".join(lines) + "\n"


def with_field_table(page: str, name: str) -> str:
    """The page with `field_table(name)` between its `<!-- field-table NAME: ... -->` and
    `<!-- end field-table -->` lines."""
    mark = f"<!-- field-table {name}"
    before, start, rest = page.partition(mark)
    _, end, after = rest.partition(_END)
    if not (start and end):
        raise ValueError(f"the page has no field-table {name} markers")
    return f"{before}{mark}: {_GENERATED_BY} -->\n{field_table(name)}{_END}{after}"
