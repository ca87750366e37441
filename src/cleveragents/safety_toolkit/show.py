"""`safety-profile show`: the effective document with every default filled in."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from cleveragents.reading.problems import Problem
from cleveragents.reading.terminal_text import visible

from .reporters import problem_json

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


def _rows(instance: BaseModel, indent: str) -> list[tuple[str, str]]:
    """(YAML line, origin) for each field; a nested model becomes an indented block."""
    rows: list[tuple[str, str]] = []
    for key, value in instance.model_dump(mode="json").items():
        origin = "from file" if key in instance.model_fields_set else "default"
        nested = getattr(instance, key, None)
        inner = _rows(nested, indent + "  ") if isinstance(nested, BaseModel) else []
        if inner:
            rows.append((f"{indent}{yaml_key(key)}:", origin))
            rows.extend(inner)
        else:
            rows.append((f"{indent}{yaml_key(key)}: {yaml_value(value)}", origin))
    return rows


def marked_lines(instance: BaseModel, indent: str = "", *, origin: str | None = None) -> list[str]:
    """Every field as a YAML line marked `# from file` or `# default` (or `# {origin}` for all
    when given), comments aligned; nested profiles (an action's `safety_profile`) are blocks
    marked the same way."""
    rows = _rows(instance, indent)
    width = max((len(line) for line, _ in rows), default=0)
    return [f"{line.ljust(width)}  # {origin or found}" for line, found in rows]


def render_effective(instance: BaseModel, source: str) -> str:
    """The whole document: a header naming the source, then `marked_lines`."""
    header = f"# Effective {type(instance).__name__} for {visible(source)}"
    return "\n".join([header, *marked_lines(instance)]) + "\n"


def field_origins(instance: BaseModel, prefix: str = "") -> dict[str, str]:
    """`file` or `default` for each field by dotted path, nested models' fields too: what the
    text output marks `# from file` or `# default` (the keys of the dumped document)."""
    origins: dict[str, str] = {}
    for key in instance.model_dump(mode="json"):
        origins[prefix + key] = "file" if key in instance.model_fields_set else "default"
        nested = getattr(instance, key, None)
        if isinstance(nested, BaseModel):
            origins.update(field_origins(nested, f"{prefix}{key}."))
    return origins


def render_json(
    instance: BaseModel | None, problems: Sequence[Problem], source: str, kind: str
) -> str:
    """{file, kind, document, origins, problems}: the effective document (null when the file is
    invalid), where each field's value came from, and check's objects for its problems.
    ASCII only, as every JSON output: exact, and safe on any terminal."""
    document = {
        "file": source,
        "kind": kind,
        "document": None if instance is None else instance.model_dump(mode="json"),
        "origins": {} if instance is None else field_origins(instance),
        "problems": [problem_json(problem) for problem in problems],
    }
    return json.dumps(document, indent=2) + "\n"
