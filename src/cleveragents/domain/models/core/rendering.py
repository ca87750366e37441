"""How values and fields are written for people, in one place for every command and format:
a value as YAML flow text (`yaml_value`), a key (`yaml_key`), a change (`change_text`), and a
document field by field, each line marked with where its value came from (`marked_lines`).
Everything taken from a file is escaped for a terminal."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from cleveragents.reading.terminal_text import visible

if TYPE_CHECKING:
    from cleveragents.domain.models.core.document_values import ShownDocument
    from cleveragents.domain.models.core.strictness import FieldChange

__all__ = ["change_text", "marked_lines", "yaml_key", "yaml_value"]

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_RESERVED_WORDS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})


def yaml_value(value: Any) -> str:
    """A value as YAML flow syntax, safe to print on a terminal."""
    # JSON is valid YAML flow syntax, and it quotes every string that needs it. It escapes C0
    # controls, quotes and backslashes; `visible` writes the rest a terminal would act on
    # (DEL, C1, bidi and format characters) as `\x7f`/`\u202e`, escapes YAML reads the same.
    return visible(json.dumps(value, ensure_ascii=False), escape_backslashes=False)


def yaml_key(key: str) -> str:
    """A mapping key as YAML, quoted when it would not read back as the same string."""
    # Keys kept as written (an action's extra keys) may need quoting too.
    plain = _PLAIN_KEY.match(key) and key.lower() not in _RESERVED_WORDS
    return key if plain else yaml_value(key)


def change_text(change: FieldChange) -> str:
    """`old → new`, each value as YAML flow (JSON) text."""
    return f"{yaml_value(change.old)} → {yaml_value(change.new)}"


def _rows(document: ShownDocument, indent: str) -> list[tuple[str, str]]:
    """(YAML line, origin) for each field; a nested document becomes an indented block."""
    rows: list[tuple[str, str]] = []
    for field in document.fields:
        origin = "from file" if field.given else "default"
        inner = [] if field.nested is None else _rows(field.nested, indent + "  ")
        if inner:
            rows.append((f"{indent}{yaml_key(field.key)}:", origin))
            rows.extend(inner)
        else:
            rows.append((f"{indent}{yaml_key(field.key)}: {yaml_value(field.value)}", origin))
    return rows


def marked_lines(
    document: ShownDocument, indent: str = "", *, origin: str | None = None
) -> list[str]:
    """Every field as a YAML line marked `# from file` or `# default` (or `# {origin}` for all
    when given), comments aligned; nested profiles (an action's `safety_profile`) are blocks
    marked the same way."""
    rows = _rows(document, indent)
    width = max((len(line) for line, _ in rows), default=0)
    return [f"{line.ljust(width)}  # {origin or found}" for line, found in rows]
