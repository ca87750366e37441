"""How a loaded value reads in a message."""

from __future__ import annotations

import math

from .lean_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def describe_value(value: Any) -> str:
    """How a loaded value reads in a message: `'3' (a string)`, `3.5`, `true`, `a list`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"{shown!r} (a string)"
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    if isinstance(value, int):
        text = str(value)
        return text if len(text) <= 40 else f"an integer of {len(text)} digits"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    return type(value).__name__
