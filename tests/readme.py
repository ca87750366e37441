"""The README's code blocks, so tests can check that what it shows is what is tested."""

from __future__ import annotations

import re

from conftest import REPO_ROOT

FENCED_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def code_blocks(section: str) -> list[tuple[str, str]]:
    """(language, text) of each fenced block under the `## {section}` heading."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    _, found, rest = readme.partition(f"\n## {section}\n")
    assert found, f"README.md has no section '## {section}'"
    body = rest.split("\n## ", 1)[0]
    return [(match.group(1), match.group(2)) for match in FENCED_BLOCK.finditer(body)]


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
