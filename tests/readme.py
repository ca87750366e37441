"""The code blocks of the README and of the documentation pages (docs/*.md), so tests can check
that what they show is what is tested. A section is found by its heading in whichever page holds
it, so moving a section from the README to a page (or between pages) keeps its tests running."""

from __future__ import annotations

from conftest import REPO_ROOT
from snapshots import FENCED_BLOCK, documentation_pages

__all__ = [
    "FENCED_BLOCK",
    "code_blocks",
    "documentation_pages",
    "documentation_text",
    "modeline_block",
    "readme_text",
    "section_text",
]


def readme_text() -> str:
    return (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def documentation_text() -> str:
    """The README and every documentation page, one after the other."""
    return "\n\n".join(page.read_text(encoding="utf-8") for page in documentation_pages())


def section_text(section: str, subsection: str | None = None) -> str:
    """The text under the `## {section}` heading (up to the next `## `), or under its
    `### {subsection}` heading (up to the next `### ` or `## `), in the one page that holds it."""
    heading = f"\n## {section}\n"
    holding = [
        text
        for text in (page.read_text(encoding="utf-8") for page in documentation_pages())
        if heading in text
    ]
    assert len(holding) == 1, f"{len(holding)} pages have the section '## {section}'"
    _, found, rest = holding[0].partition(heading)
    body = rest.split("\n## ", 1)[0]
    if subsection is None:
        return body
    _, found, rest = body.partition(f"\n### {subsection}\n")
    assert found, f"no subsection '### {subsection}' under '## {section}'"
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
