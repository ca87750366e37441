"""Write docs/rules.md from the rule catalogue (`cleveragents.reading.rules`).

    .venv/bin/python scripts/generate_rule_docs.py

tests/test_rules_command.py fails when the committed page differs from what this writes."""

from __future__ import annotations

from pathlib import Path

from cleveragents.safety_toolkit.rule_docs import rules_markdown

RULES_PAGE = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def main() -> int:
    RULES_PAGE.write_text(rules_markdown(), encoding="utf-8")
    print(f"wrote {RULES_PAGE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
