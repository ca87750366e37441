"""Quick fixes for the language server: the mechanical edit a problem's message asks for, made
by the same functions that wrote the message (no pygls here; positions are code points).

Each fix is offered only when the text at the problem's position is what the rule found, so a
buffer edited since the diagnostic gets no stale fix."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from cleveragents.reading.rules import Rule
from cleveragents.reading.scalars import unambiguous_spellings

from .kinds import KINDS

if TYPE_CHECKING:
    import yaml

__all__ = ["FIXED_RULES", "Fix", "fixes", "lines_of"]


class Fix(NamedTuple):
    """Replace `line`'s characters `start` to `end` (0-based code points) with `new_text`."""

    title: str
    line: int
    start: int
    end: int
    new_text: str


# A plain scalar in a block or flow collection: up to a flow indicator, a comment or the end.
_PLAIN_VALUE = re.compile(r"[^,\[\]{}#\s](?:[^,\[\]{}#\n]*[^,\[\]{}#\s])?")
_PLAIN_KEY = re.compile(r"[^\s:#,\[\]{}'\"][^:#\n]*?(?=:(?:\s|$))")


def lines_of(text: str) -> list[str]:
    """The lines of `text`, broken where YAML readers and the LSP break them."""
    return re.split(r"\r\n|\r|\n", text)


def _ambiguous_scalar(
    line_text: str, line: int, column: int, path: str, kind: str, text: str
) -> list[Fix]:
    found = _PLAIN_VALUE.match(line_text, column)
    if found is None:
        return []
    scalar = found.group()
    return [
        Fix(f"write {spelling}", line, column, found.end(), spelling)
        for spelling in unambiguous_spellings(scalar)
    ]


def _key_at(line_text: str, column: int) -> tuple[str, int] | None:
    found = _PLAIN_KEY.match(line_text, column)
    return None if found is None else (found.group(), found.end())


def _renamed(line: int, column: int, key: str, end: int, field: str) -> list[Fix]:
    return [Fix(f"rename {key!r} to {field}", line, column, end, field)]


def _known_fields(kind: str, path: str) -> tuple[str, ...]:
    """The fields beside an unknown key: the document's, or the embedded profile's."""
    profile_field = KINDS[kind].profile_field
    if profile_field is not None and path.startswith(profile_field + "."):
        return KINDS["profile"].field_names()
    return KINDS[kind].field_names() if "." not in path and "[" not in path else ()


def _unknown_field(
    line_text: str, line: int, column: int, path: str, kind: str, text: str
) -> list[Fix]:
    from cleveragents.reading.messages import closest_field

    found = _key_at(line_text, column)
    known = _known_fields(kind, path)
    if found is None or not known or not path.endswith(found[0]):
        return []
    field = closest_field(found[0], known)
    return [] if field is None else _renamed(line, column, *found, field)


def _confusable_key(
    line_text: str, line: int, column: int, path: str, kind: str, text: str
) -> list[Fix]:
    from cleveragents.domain.models.core.document_rules import confusable_skeleton

    found = _key_at(line_text, column)
    if found is None or found[0] != path:
        return []
    field = confusable_skeleton(found[0])
    fields = KINDS[kind].field_names()
    return _renamed(line, column, *found, field) if field in fields else []


def _merge_key(
    line_text: str, line: int, column: int, path: str, kind: str, text: str
) -> list[Fix]:
    """`<<: *base` in a block mapping, the aliased mapping's fields written out in its place
    (those the mapping does not set itself; a merge never overrides them)."""
    import yaml

    if line_text[:column].strip() or not line_text.startswith("<<:", column):
        return []
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return []
    merging = None if root is None else _mapping_with_key_at(root, line, column)
    if merging is None:
        return []
    merged = next(value for key, value in merging.value if key.start_mark.line == line)
    if not isinstance(merged, yaml.MappingNode):
        return []
    own = {key.value for key, _ in merging.value if key.value != "<<"}
    written = []
    for key, value in merged.value:
        if key.value in own:
            continue
        if key.start_mark.line != value.end_mark.line:
            return []  # a value over several lines: indenting it is not mechanical
        written.append(text[key.start_mark.index : value.end_mark.index])
    end = len(line_text.split(" #")[0].rstrip())
    replacement = ("\n" + " " * column).join(written)
    return [Fix("write the merged fields out", line, column, end, replacement)]


def _mapping_with_key_at(node: yaml.Node, line: int, column: int) -> yaml.MappingNode | None:
    import yaml

    stack: list[yaml.Node] = [node]
    seen: set[int] = set()
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, yaml.MappingNode):
            for key, value in current.value:
                if (key.start_mark.line, key.start_mark.column) == (line, column):
                    return current if key.value == "<<" else None
                stack += [key, value]
        elif isinstance(current, yaml.SequenceNode):
            stack += current.value
    return None


_FIXERS: dict[str, Callable[[str, int, int, str, str, str], list[Fix]]] = {
    Rule.YAML_AMBIGUOUS_SCALAR: _ambiguous_scalar,
    Rule.SCHEMA_EXTRA_FORBIDDEN: _unknown_field,
    Rule.SCHEMA_CONFUSABLE_FIELD: _confusable_key,
    Rule.YAML_MERGE_KEY: _merge_key,
}
FIXED_RULES = frozenset(_FIXERS)


def fixes(text: str, line: int, column: int, rule: str, path: str, kind: str) -> list[Fix]:
    """The quick fixes for a problem of `rule` at `line`, `column` (0-based code points) of
    `text`, a document of `kind`; `path` is the problem's field."""
    fixer = _FIXERS.get(rule)
    lines = lines_of(text)
    if fixer is None or line >= len(lines):
        return []
    return fixer(lines[line], line, column, path, kind, text)
