"""`safety-profile show`: the effective document with every default filled in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cleveragents.reading.terminal_text import visible

from .rendering import marked_lines

if TYPE_CHECKING:
    from pydantic import BaseModel


def render_effective(instance: BaseModel, source: str) -> str:
    """The whole document: a header naming the source, then `marked_lines`."""
    header = f"# Effective {type(instance).__name__} for {visible(source)}"
    return "\n".join([header, *marked_lines(instance)]) + "\n"
