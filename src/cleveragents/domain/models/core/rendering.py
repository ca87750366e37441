"""How values and fields are written for people, in one place for every command and format:
a value as YAML flow text (`yaml_value`), a key (`yaml_key`), a change (`change_text`), and a
document field by field, each line marked with where its value came from (`marked_lines`), a
field's value with what it means (`value_text`) and against a floor's (`below_floor_text`).
Everything taken from a file is escaped for a terminal."""

from __future__ import annotations

import re

try:  # json's own C encoder of strings, without the rest of json
    from _json import encode_basestring
except ImportError:  # pragma: no cover - a Python without json's C speed-ups
    from json.encoder import py_encode_basestring as encode_basestring

from cleveragents.reading.field_facts import FIELD_FACTS, Stricter
from cleveragents.reading.lean_typing import TYPE_CHECKING
from cleveragents.reading.terminal_text import visible

if TYPE_CHECKING:
    from typing import Any

    from cleveragents.domain.models.core.document_values import ShownDocument
    from cleveragents.domain.models.core.strictness import FieldChange

__all__ = [
    "below_floor_text",
    "change_text",
    "json_text",
    "marked_lines",
    "value_text",
    "yaml_key",
    "yaml_value",
]

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_RESERVED_WORDS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})


def yaml_value(value: Any) -> str:
    """A value as YAML flow syntax, safe to print on a terminal."""
    # JSON is valid YAML flow syntax, and it quotes every string that needs it. It escapes C0
    # controls, quotes and backslashes; `visible` writes the rest a terminal would act on
    # (DEL, C1, bidi and format characters) as `\x7f`/`\u202e`, escapes YAML reads the same.
    return visible(json_text(value), escape_backslashes=False)


def json_text(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False)` of a document's value (None, a bool, a number,
    a string, a list or a mapping of them), without importing json: 2 ms of every `diff` and
    `show`, for which this is json's only use. Strings are json's own C encoder's
    (`_json.encode_basestring`); tests/domain/test_rendering.py holds this to `json.dumps`."""
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None or value is True or value is False:
        return _JSON_CONSTANTS[value]
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _json_float(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(json_text, value)) + "]"
    if isinstance(value, dict):
        items = (f"{_json_key(key)}: {json_text(item)}" for key, item in value.items())
        return "{" + ", ".join(items) + "}"
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_JSON_CONSTANTS = {None: "null", True: "true", False: "false"}


def _json_float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (_INFINITY, -_INFINITY):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _json_key(key: Any) -> str:
    """A mapping key as json writes it: always a string."""
    if isinstance(key, str):
        return encode_basestring(key)
    if key is None or key is True or key is False:
        return encode_basestring(_JSON_CONSTANTS[key])
    if isinstance(key, int):
        return encode_basestring(int.__repr__(key))
    if isinstance(key, float):
        return encode_basestring(_json_float(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


_INFINITY = float("inf")


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


def value_text(value: Any, field: str, *, absent: bool = False) -> str:
    """A value as YAML, with what null and [] mean and whether the key was written (the floor's
    messages, and the language server's words for a default and a floor's value)."""
    facts = FIELD_FACTS.get(field)  # the editor also shows the defaults of other documents
    meaning = facts.meaning(value) if facts else ""
    notes = [meaning] if meaning else []
    if absent:
        notes.append("the key is absent: its default applies")
    text = yaml_value(list(value) if isinstance(value, tuple) else value)
    return text + (f" ({'; '.join(notes)})" if notes else "")


def below_floor_text(change: FieldChange, source: str, *, absent: bool = False) -> str:
    """`false is looser than the floor's true (SOURCE)`: the profile's value (`change.new`)
    against the floor's (`change.old`), with the categories the floor does not allow."""
    value = value_text(change.new, change.field, absent=absent)
    extra = ""
    if FIELD_FACTS[change.field].stricter is Stricter.SUBSET and change.new and change.old:
        beyond = [category for category in change.new if category not in change.old]
        extra = f"; it allows {', '.join(map(yaml_value, beyond))}"
    floor_value = value_text(change.old, change.field)
    return f"{value} is looser than the floor's {floor_value} ({visible(source)}){extra}"
