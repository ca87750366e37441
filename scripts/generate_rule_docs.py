"""Write docs/rules.md, the table "What each reader says" of docs/one-file-one-meaning.md,
the example files' text that `safety-profile rules ID` shows (kept in the package, which a pip
user has without examples/), from the rule catalogue (`cleveragents.reading.rules`); and the
field tables of docs/loosening.md and docs/floor.md from the field facts
(`cleveragents.reading.field_facts`).

    .venv/bin/python scripts/generate_rule_docs.py

tests/cli/test_rules_command.py and tests/schema/test_field_facts.py fail when a committed page
differs from what this writes."""

from __future__ import annotations

from pathlib import Path

from cleveragents.safety_toolkit.core.field_docs import with_field_table
from cleveragents.safety_toolkit.core.rule_docs import (
    EXAMPLE_TEXTS_FILE,
    example_texts_json,
    rules_markdown,
    with_readers_table,
)

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLE_TEXTS = ROOT / "src" / "cleveragents" / "safety_toolkit" / "core" / EXAMPLE_TEXTS_FILE
RULES_PAGE = DOCS / "rules.md"
READERS_PAGE = DOCS / "one-file-one-meaning.md"
# Which page holds each field table (`field_docs.FIELD_TABLES`).
FIELD_TABLE_PAGES = {"stricter": DOCS / "loosening.md", "floor": DOCS / "floor.md"}


def main() -> int:
    RULES_PAGE.write_text(rules_markdown(), encoding="utf-8")
    print(f"wrote {RULES_PAGE}")
    page = READERS_PAGE.read_text(encoding="utf-8")
    READERS_PAGE.write_text(with_readers_table(page), encoding="utf-8")
    print(f"wrote the readers table of {READERS_PAGE}")
    for name, path in FIELD_TABLE_PAGES.items():
        path.write_text(with_field_table(path.read_text(encoding="utf-8"), name), encoding="utf-8")
        print(f"wrote the field table of {path}")
    EXAMPLE_TEXTS.write_text(
        example_texts_json(lambda path: (ROOT / path).read_bytes()), encoding="utf-8"
    )
    print(f"wrote {EXAMPLE_TEXTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
