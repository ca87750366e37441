"""`safety-profile show`: the effective document with every default filled in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cleveragents.domain.models.core.rendering import marked_lines
from cleveragents.reading.terminal_text import visible

if TYPE_CHECKING:
    from cleveragents.domain.models.core.document_values import ShownDocument


def render_effective(document: ShownDocument, source: str) -> str:
    """The whole document: a header naming the source, then `marked_lines`."""
    header = f"# Effective {document.name} for {visible(source)}"
    return "\n".join([header, *marked_lines(document)]) + "\n"
