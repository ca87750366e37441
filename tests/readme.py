"""The README's code blocks, so tests can check that what it shows is what is tested."""

from __future__ import annotations

import re

from conftest import REPO_ROOT

# A fenced block, also one indented inside a list item (its lines carry the fence's indent).
FENCED_BLOCK = re.compile(r"^( *)```(\w*)\n(.*?)^\1```$", re.MULTILINE | re.DOTALL)


def readme_text() -> str:
    return (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def section_text(section: str, subsection: str | None = None) -> str:
    """The text under the `## {section}` heading (up to the next `## `), or under its
    `### {subsection}` heading (up to the next `### ` or `## `)."""
    _, found, rest = readme_text().partition(f"\n## {section}\n")
    assert found, f"README.md has no section '## {section}'"
    body = rest.split("\n## ", 1)[0]
    if subsection is None:
        return body
    _, found, rest = body.partition(f"\n### {subsection}\n")
    assert found, f"README.md has no subsection '### {subsection}' under '## {section}'"
    return rest.split("\n### ", 1)[0]


def code_blocks(section: str, subsection: str | None = None) -> list[tuple[str, str]]:
    """(language, text) of each fenced block under the `## {section}` heading (or its
    `### {subsection}`); a block indented in a list item loses that indent only."""
    return [
        (match.group(2), _outdent(match.group(3), len(match.group(1))))
        for match in FENCED_BLOCK.finditer(section_text(section, subsection))
    ]


def _outdent(text: str, width: int) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(
        line[width:] if line.startswith(" " * width) else line.lstrip(" ") for line in lines
    )


def modeline_block(section: str, schema_file: str) -> str:
    """The one YAML block under `## {section}` whose first line is a modeline naming
    `schema_file`."""
    (block,) = [
        text
        for language, text in code_blocks(section)
        if language == "yaml"
        and text.startswith("# yaml-language-server: $schema=")
        and text.splitlines()[0].endswith(f"/{schema_file}")
    ]
    return block
