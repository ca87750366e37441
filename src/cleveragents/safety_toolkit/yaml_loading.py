"""Strict, safe YAML loading with a position for every value.

libyaml (PyYAML's pure-Python parser when libyaml is missing) composes the node graph; one
walk over it then builds the value, so nothing is ever constructed from a tag, and every limit
is checked before any work can grow out of bounds:

* YAML 1.2 core scalars only, like check-jsonschema and yaml-language-server: `yes`/`no`/`on`/`off`
  are strings (the schema then rejects them where a boolean is expected), `1e3` is a number,
  timestamps are strings. Any explicit tag other than the core ones is an error.
* Duplicate keys, non-string keys, several documents, non-UTF-8 bytes: errors.
* Size, nesting depth and the number of nodes after alias expansion are bounded, so alias bombs
  and deep nesting fail fast with a clear message instead of a hang, `MemoryError` or
  `RecursionError`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from .problems import Loc, Problem, ProfileFileError, render_loc

try:  # libyaml's parser and composer when present: much faster
    from yaml import CSafeLoader as _ComposingLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _ComposingLoader  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class LoadLimits:
    """Resource bounds for one document (documented in the README)."""

    max_bytes: int = 1024 * 1024
    max_depth: int = 64
    max_nodes: int = 100_000


DEFAULT_LIMITS = LoadLimits()

_CORE = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (
    _CORE + name for name in ("str", "int", "float", "bool", "null")
)
_MAP, _SEQ = _CORE + "map", _CORE + "seq"
_SCALAR_TAGS = (_STR, _INT, _FLOAT, _BOOL, _NULL)
_CORE_TAGS = (*_SCALAR_TAGS, _MAP, _SEQ)

# The YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution).
_NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL_RE = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT_RE = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT_RE = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)

# YAML 1.1 read these as booleans; YAML 1.2 (and we) read them as strings.
YAML11_BOOLEAN_WORDS = frozenset({"yes", "no", "on", "off", "y", "n"})


@dataclass(slots=True)
class YamlDocument:
    """The loaded value and where each part of it starts in the file."""

    value: Any
    empty: bool = False  # no document at all (an empty file, or only comments)
    value_marks: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def position(self, loc: Loc, *, of_key: bool = False) -> tuple[int, int]:
        """Line and column of `loc`, or of its nearest ancestor that has one (inside an alias)."""
        marks = self.key_marks if of_key else self.value_marks
        for end in range(len(loc), -1, -1):
            found = marks.get(loc[:end]) or self.value_marks.get(loc[:end])
            if found is not None:
                return found
        return (1, 1)


class _Stop(Exception):
    """Loading cannot go on; the problem is already recorded."""


def _resolve_plain(value: str) -> str:
    if _NULL_RE.match(value):
        return _NULL
    if _BOOL_RE.match(value):
        return _BOOL
    if _INT_RE.match(value):
        return _INT
    if _FLOAT_RE.match(value):
        return _FLOAT
    return _STR


def _construct_scalar(tag: str, text: str) -> Any:
    """Build a core-schema scalar; ValueError when `text` is not a valid `tag`."""
    if tag == _STR:
        return text
    if tag == _NULL:
        if not _NULL_RE.match(text):
            raise ValueError(f"{text!r} is not a valid null")
        return None
    if tag == _BOOL:
        if not _BOOL_RE.match(text):
            raise ValueError(f"{text!r} is not a valid boolean")
        return text.lower() == "true"
    if tag == _INT:
        if not _INT_RE.match(text):
            raise ValueError(f"{text!r} is not a valid integer")
        if text.startswith("0o"):
            return int(text[2:], 8)
        if text.startswith("0x"):
            return int(text[2:], 16)
        return int(text)
    if tag == _FLOAT:
        if not _FLOAT_RE.match(text):
            raise ValueError(f"{text!r} is not a valid number")
        lowered = text.lower()
        if lowered.endswith(".nan"):
            return math.nan
        if lowered.endswith(".inf"):
            return -math.inf if lowered.startswith("-") else math.inf
        return float(text)
    raise ValueError(f"the tag {tag!r} is not allowed; only plain YAML values are")


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


def yaml12_loader(base: type[Any]) -> type[Any]:
    """`base` (a PyYAML loader class) with YAML 1.2 core tag resolution instead of YAML 1.1's."""
    loader = type(f"Yaml12{base.__name__}", (base,), {})
    # Start from no implicit resolvers (PyYAML's include YAML 1.1 booleans and timestamps).
    loader.yaml_implicit_resolvers = {}  # type: ignore[attr-defined]
    for tag, pattern, first in (
        (_NULL, _NULL_RE, ["~", "n", "N", ""]),
        (_BOOL, _BOOL_RE, list("tTfF")),
        (_INT, _INT_RE, list("-+0123456789")),
        (_FLOAT, _FLOAT_RE, list("-+0123456789.")),
    ):
        loader.add_implicit_resolver(tag, pattern, first)  # type: ignore[attr-defined]
    return loader


_Yaml12Loader = yaml12_loader(_ComposingLoader)


class _Walker:
    """Turns a composed node graph into a JSON-like value, positions and problems."""

    def __init__(self, filename: str, limits: LoadLimits) -> None:
        self.filename = filename
        self.limits = limits
        self.document = YamlDocument(value=None)

    def problem(self, mark: Any, loc: Loc, message: str, rule: str) -> None:
        self.document.problems.append(
            Problem(self.filename, mark.line + 1, mark.column + 1, render_loc(loc), message, rule)
        )

    def fatal(self, mark: Any, loc: Loc, message: str, rule: str) -> _Stop:
        self.problem(mark, loc, message, rule)
        return _Stop()

    def check_tag(self, node: Any, allowed: tuple[str, ...], loc: Loc) -> None:
        if node.tag not in allowed:
            tag = _short_tag(node.tag)
            if node.tag in _CORE_TAGS:
                raise self.fatal(
                    node.start_mark, loc, f"the tag {tag!r} does not fit here", "yaml.tag"
                )
            raise self.fatal(
                node.start_mark,
                loc,
                f"the tag {tag!r} is not allowed; remove it (only plain YAML values are "
                "accepted, nothing is ever constructed from a tag)",
                "yaml.tag",
            )

    def walk(self, node: Any, loc: Loc, depth: int) -> Any:
        mark = node.start_mark
        self.document.value_marks.setdefault(loc, (mark.line + 1, mark.column + 1))
        if isinstance(node, yaml.ScalarNode):
            self.check_tag(node, _SCALAR_TAGS, loc)
            try:
                return _construct_scalar(node.tag, node.value)
            except ValueError as error:
                raise self.fatal(mark, loc, str(error), "yaml.scalar") from None
        if depth >= self.limits.max_depth:
            raise self.fatal(
                mark,
                loc,
                f"nesting is deeper than {self.limits.max_depth} levels; flatten the document",
                "yaml.too-deep",
            )
        if isinstance(node, yaml.SequenceNode):
            self.check_tag(node, (_SEQ,), loc)
            return [
                self.walk(item, (*loc, index), depth + 1) for index, item in enumerate(node.value)
            ]
        self.check_tag(node, (_MAP,), loc)
        return self.walk_mapping(node, loc, depth)

    def walk_mapping(self, node: Any, loc: Loc, depth: int) -> dict[str, Any]:
        mapping: dict[str, Any] = {}
        first_lines: dict[str, int] = {}
        for key_node, value_node in node.value:
            key_mark = key_node.start_mark
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fatal(
                    key_mark, loc, "keys must be strings, not mappings or lists", "yaml.key-type"
                )
            key = self.walk(key_node, loc, depth + 1)
            if not isinstance(key, str):
                self.problem(
                    key_mark,
                    loc,
                    f"keys must be strings, found {describe_value(key)}; quote the key",
                    "yaml.key-type",
                )
                continue
            key_loc = (*loc, key)
            if key in first_lines:
                self.problem(
                    key_mark,
                    key_loc,
                    f"duplicate key {key!r} (first on line {first_lines[key]}, again on line "
                    f"{key_mark.line + 1}); keep only one",
                    "yaml.duplicate-key",
                )
                # The first value stays, so every other message points at the value it names.
                continue
            first_lines[key] = key_mark.line + 1
            self.document.key_marks[key_loc] = (key_mark.line + 1, key_mark.column + 1)
            mapping[key] = self.walk(value_node, key_loc, depth + 1)
        return mapping


def _children(node: Any) -> list[Any]:
    if isinstance(node, yaml.MappingNode):
        return [child for pair in node.value for child in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


class _RecursiveAlias(Exception):
    """An alias refers to a node that contains it."""

    def __init__(self, node: Any) -> None:
        self.node = node


def _expanded_sizes(root: Any, cap: int) -> dict[int, int]:
    """How many values each node stands for once aliases are expanded (capped at cap + 1).

    Aliases share nodes, so an alias bomb is a small graph that expands hugely; sizes are
    computed once per node, without recursion, in time linear in the graph. Raises
    _RecursiveAlias when the graph has a cycle (`a: &a [*a]`)."""
    sizes: dict[int, int] = {}
    in_progress: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        children = _children(node)
        if children_done:
            in_progress.discard(id(node))
            sizes[id(node)] = min(cap + 1, 1 + sum(sizes[id(child)] for child in children))
            continue
        if id(node) in sizes:
            continue
        if id(node) in in_progress:
            raise _RecursiveAlias(node)
        in_progress.add(id(node))
        stack.append((node, True))
        for child in children:
            if id(child) in in_progress:
                raise _RecursiveAlias(child)
            if id(child) not in sizes:
                stack.append((child, False))
    return sizes


def _expansion_problem(root: Any, max_nodes: int, filename: str) -> Problem | None:
    """When the document expands too much or refers to itself: a problem naming the first
    top-level entry that reaches the limit on its own (or the largest one)."""
    try:
        sizes = _expanded_sizes(root, max_nodes)
    except _RecursiveAlias as recursive:
        mark = recursive.node.start_mark
        return Problem(
            filename,
            mark.line + 1,
            mark.column + 1,
            "$",
            "an alias refers to the value that contains it, which would never end; "
            "remove the alias",
            "yaml.recursive-alias",
        )
    if sizes[id(root)] <= max_nodes:
        return None
    loc: Loc = ()
    mark = root.start_mark
    if isinstance(root, yaml.MappingNode) and root.value:
        key, _ = max(root.value, key=lambda pair: sizes[id(pair[1])])
        loc, mark = (key.value,), key.start_mark
    elif isinstance(root, yaml.SequenceNode) and root.value:
        index = max(range(len(root.value)), key=lambda i: sizes[id(root.value[i])])
        loc, mark = (index,), root.value[index].start_mark
    return Problem(
        filename,
        mark.line + 1,
        mark.column + 1,
        render_loc(loc),
        f"the document expands to more than {max_nodes} values (an alias bomb?); simplify it",
        "yaml.too-many-nodes",
    )


def _syntax_problem(error: yaml.MarkedYAMLError, filename: str) -> Problem:
    mark = error.problem_mark
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    if error.problem == "but found another document":
        return Problem(
            filename,
            line,
            column,
            "$",
            "the file holds more than one YAML document; keep one (remove the '---' "
            "separator and what follows, or split the file)",
            "yaml.multiple-documents",
        )
    what = error.problem or "invalid YAML"
    if error.context:
        what = f"{error.context}: {what}"
    return Problem(filename, line, column, "$", f"invalid YAML: {what}", "yaml.syntax")


# Line breaks in YAML 1.1 (and to libyaml) but ordinary characters in YAML 1.2 (and to editors
# and check-jsonschema): two readers would see different documents, so they are refused.
_AMBIGUOUS_BREAK = re.compile("[\u0085\u2028\u2029]")


def _problem_at(text: str, offset: int, filename: str, message: str, rule: str) -> Problem:
    """A problem at character `offset` of `text` (lines counted by LF, as editors do)."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Problem(filename, line, column, "$", message, rule)


def _ambiguous_break_problem(found: re.Match[str], text: str, filename: str) -> Problem:
    return _problem_at(
        text,
        found.start(),
        filename,
        f"the character U+{ord(found.group()):04X} is a line break to some YAML readers and "
        "not to others; remove it",
        "yaml.ambiguous-line-break",
    )


def _character_problem(error: yaml.reader.ReaderError, text: str, filename: str) -> Problem:
    """A character YAML forbids (control characters and the like), located in `text`.

    The parsers report its offset in different units, so it is looked up by value."""
    return _problem_at(
        text,
        max(text.find(chr(error.character)), 0),
        filename,
        f"the character U+{error.character:04X} is not allowed in YAML ({error.reason}); remove it",
        "yaml.character",
    )


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


def decode_utf8(data: bytes, filename: str) -> str:
    """The text of `data`, or ProfileFileError naming where the first non-UTF-8 byte is."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ProfileFileError(
            [
                Problem(
                    filename,
                    1,
                    1,
                    "$",
                    "the file is UTF-16 text; save it as UTF-8",
                    "yaml.encoding",
                )
            ]
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1
        column = error.start - (before.rfind(b"\n") + 1) + 1
        raise ProfileFileError(
            [
                Problem(
                    filename,
                    line,
                    column,
                    "$",
                    f"the file is not UTF-8 text (byte 0x{data[error.start]:02x}); "
                    "save it as UTF-8",
                    "yaml.encoding",
                )
            ]
        ) from None


def load_yaml_document(
    data: bytes, filename: str, limits: LoadLimits = DEFAULT_LIMITS
) -> YamlDocument:
    """Load one YAML document strictly. Problems found on the way are in `.problems`;
    when loading could not finish, `.value` is None and `.problems` says why."""
    if len(data) > limits.max_bytes:
        raise ProfileFileError(
            [
                Problem(
                    filename,
                    1,
                    1,
                    "$",
                    f"the file is {len(data)} bytes, more than the limit of {limits.max_bytes}",
                    "yaml.too-large",
                )
            ]
        )
    if b"\x00" in data and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ProfileFileError(
            [Problem(filename, 1, 1, "$", "the file is binary, not YAML text", "yaml.binary")]
        )
    text = decode_utf8(data, filename)
    ambiguous = _AMBIGUOUS_BREAK.search(text)
    if ambiguous is not None:
        return YamlDocument(
            value=None, problems=[_ambiguous_break_problem(ambiguous, text, filename)]
        )
    loader = _Yaml12Loader(text)
    try:
        # libyaml composes the node graph (its parser caps nesting at 1,000 levels); no Python
        # object is ever constructed from a tag.
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as error:
        return YamlDocument(value=None, problems=[_syntax_problem(error, filename)])
    except yaml.reader.ReaderError as error:
        return YamlDocument(value=None, problems=[_character_problem(error, text, filename)])
    except RecursionError:  # only PyYAML's pure-Python composer recurses (libyaml stops at 1,000)
        problem = Problem(
            filename,
            1,
            1,
            "$",
            f"nesting is deeper than {limits.max_depth} levels; flatten the document",
            "yaml.too-deep",
        )
        return YamlDocument(value=None, problems=[problem])
    finally:
        loader.dispose()
    walker = _Walker(filename, limits)
    walker.document.empty = root is None
    if root is not None:
        # Without an alias (`*`) every value starts at its own character, so a short text
        # cannot expand past the limit: skip the graph walk, a third of a small file's cost.
        too_large = (
            _expansion_problem(root, limits.max_nodes, filename)
            if "*" in text or len(text) > limits.max_nodes
            else None
        )
        if too_large is not None:
            walker.document.problems.append(too_large)
            return walker.document
        try:
            walker.document.value = walker.walk(root, (), 0)
        except _Stop:
            walker.document.value = None
    return walker.document
