"""Quick fixes for the language server: the mechanical edit a problem's message asks for, made
by the same functions that wrote the message (no pygls here; positions are code points).

Each fix is offered only when the text at the problem's position is what the rule found, so a
buffer edited since the diagnostic gets no stale fix; and only when it keeps what the author
meant (`keeps_meaning`): applied, it removes its problem and adds no other (a rename onto a
field already set, a value the field refuses); a rename never crosses to a field meaning the
opposite (`field_names`); and a scalar that reads as two values the field accepts, one
stricter than the other (`010`: 10 or 8), gets no fix: which was meant, only the author
knows, and the fix must not pick the looser."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from cleveragents.reading.rules import Rule
from cleveragents.reading.scalars import unambiguous_spellings

from ..core.kinds import KINDS

if TYPE_CHECKING:
    import yaml

__all__ = ["FIXED_RULES", "Fix", "apply", "fixes", "keeps_meaning", "lines_of"]


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
    from cleveragents.reading.field_names import closest_field

    found = _key_at(line_text, column)
    known = _known_fields(kind, path)
    if found is None or not known or not path.endswith(found[0]):
        return []
    field = closest_field(found[0], known)
    if field is None or not _a_misspelling(found[0], field, known):
        return []
    return _renamed(line, column, *found, field)


def _a_misspelling(key: str, field: str, known: tuple[str, ...]) -> bool:
    """Whether `key` is `field` misspelt (case and separators aside), close enough that no
    other field could be meant: a fix renames at once, where "did you mean" only suggests.
    `max_cost` is no fix for `max_total_cost`: the author may have meant `max_cost_per_plan`,
    and moving a limit to another field loosens the one meant."""
    import difflib

    def closeness(name: str) -> float:
        return difflib.SequenceMatcher(None, _plain(key), _plain(name)).ratio()

    best = closeness(field)
    runner_up = max((closeness(name) for name in known if name != field), default=0.0)
    return best >= 0.8 and best - runner_up >= 0.1


def _plain(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


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
    `text`, a document of `kind`; `path` is the problem's field. Only those that keep what the
    author meant (see the module)."""
    fixer = _FIXERS.get(rule)
    lines = lines_of(text)
    if fixer is None or line >= len(lines):
        return []
    found = fixer(lines[line], line, column, path, kind, text)
    return keeps_meaning(text, kind, rule, path, found) if found else []


def apply(text: str, fix: Fix) -> str:
    """`text` with `fix` made."""
    lines = re.split(r"(\r\n|\r|\n)", text)  # lines, and between them their breaks
    index = 2 * fix.line
    lines[index] = lines[index][: fix.start] + fix.new_text + lines[index][fix.end :]
    return "".join(lines)


def _problems(text: str, kind: str) -> set[tuple[str, str]]:
    """The problems of `text` as `check` finds them (no floor: a fix is about the text), by
    rule and field."""
    from ..core.check import Checker

    checker = _CHECKERS.get(kind)
    if checker is None:
        checker = _CHECKERS[kind] = Checker(kind)
    found = checker.check_bytes(text.encode("utf-8", "surrogatepass"), "fixed")
    return {(problem.rule, problem.path) for problem in found if problem.severity.fails}


_CHECKERS: dict[str, Any] = {}


def keeps_meaning(text: str, kind: str, rule: str, path: str, found: list[Fix]) -> list[Fix]:
    """The fixes of `found` (for the problem of `rule` at field `path`) that remove it and add
    no other problem; of a scalar's readings, none when the field accepts two that are not
    equally strict."""
    before = _problems(text, kind)
    kept = []
    for fix in found:
        after = _problems(apply(text, fix), kind)
        if (rule, path) in after:
            continue  # not fixed
        added = after - before
        if rule == Rule.YAML_AMBIGUOUS_SCALAR:
            if added or any(field == path for _, field in after):
                continue  # a value the field refuses
        elif any(added_rule.startswith("yaml.") for added_rule, _ in added):
            continue  # a rename onto a key already there (a duplicate), ...
        kept.append(fix)
    if (
        rule == Rule.YAML_AMBIGUOUS_SCALAR
        and len(kept) > 1
        and _differ_in_strictness(text, kind, path, kept)
    ):
        return []
    return kept


def _differ_in_strictness(text: str, kind: str, path: str, readings: list[Fix]) -> bool:
    """Whether the field holding `path` is stricter with one of `readings` than another."""
    from cleveragents.domain.models.core.strictness import STRICTNESS_RULES
    from cleveragents.reading.loaded_file import load_bytes

    profile_field = KINDS[kind].profile_field
    prefix = "" if profile_field is None else profile_field + "."
    if not path.startswith(prefix):
        return False  # not in the profile: no field is looser
    field = re.split(r"[.\[]", path[len(prefix) :], maxsplit=1)[0]
    rule = STRICTNESS_RULES.get(field)
    if rule is None:
        return False
    values = []
    for fix in readings:
        mapping = load_bytes(apply(text, fix).encode("utf-8", "surrogatepass"), "fixed").mapping
        profile = (
            mapping if profile_field is None or mapping is None else mapping.get(profile_field)
        )
        if not isinstance(profile, dict) or field not in profile:
            return True  # cannot tell: offer none
        values.append(profile[field])
    return any(rule.compare(first, second) is not None for first in values for second in values)
