"""Strict, safe YAML loading with a position for every value.

The document is built straight from libyaml's event stream (the pure-Python parser when
libyaml is missing), so nothing is ever constructed from a tag, and every limit is checked
while reading, before any work can grow out of bounds:

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
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from .problems import Loc, Problem, ProfileFileError, render_loc

try:  # libyaml's parser when present: same events, much faster
    from yaml import CSafeLoader as _EventLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _EventLoader  # type: ignore[assignment]


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


@dataclass(slots=True)
class _Container:
    """A mapping or sequence being filled, with what is needed to report on it."""

    loc: Loc
    mark: Any
    value: dict[str, Any] | list[Any]
    nodes: int = 1
    anchor: str | None = None
    pending_key: Any = None
    has_key: bool = False
    key_lines: dict[str, int] = field(default_factory=dict)
    bad_key: bool = False


class _DocumentBuilder:
    """Turns one YAML event stream into a JSON-like value, positions and problems."""

    def __init__(self, filename: str, limits: LoadLimits) -> None:
        self.filename = filename
        self.limits = limits
        self.document = YamlDocument(value=None)
        self.stack: list[_Container] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.nodes = 0
        self.documents = 0

    # -- reporting -------------------------------------------------------------------------
    def problem(self, mark: Any, loc: Loc, message: str, rule: str) -> None:
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        self.document.problems.append(
            Problem(self.filename, line, column, render_loc(loc), message, rule)
        )

    def fatal(self, mark: Any, loc: Loc, message: str, rule: str) -> _Stop:
        self.problem(mark, loc, message, rule)
        return _Stop()

    # -- building ----------------------------------------------------------------------------
    def child_loc(self) -> tuple[Loc, bool]:
        """Where the next node goes, and whether it is a mapping key."""
        if not self.stack:
            return (), False
        parent = self.stack[-1]
        if isinstance(parent.value, list):
            return (*parent.loc, len(parent.value)), False
        if not parent.has_key:
            return parent.loc, True
        return (*parent.loc, parent.pending_key), False

    def count(self, amount: int, mark: Any, loc: Loc) -> None:
        self.nodes += amount
        if self.nodes > self.limits.max_nodes:
            raise self.fatal(
                mark,
                loc,
                f"the document expands to more than {self.limits.max_nodes} values "
                "(an alias bomb?); simplify it",
                "yaml.too-many-nodes",
            )

    def place(self, value: Any, nodes: int, mark: Any, is_key: bool, loc: Loc) -> None:
        """Put a finished node into its parent (or make it the document)."""
        if not self.stack:
            self.document.value = value
            self.document.value_marks[()] = (mark.line + 1, mark.column + 1)
            return
        parent = self.stack[-1]
        parent.nodes += nodes
        if isinstance(parent.value, list):
            parent.value.append(value)
            self.document.value_marks.setdefault(loc, (mark.line + 1, mark.column + 1))
            return
        if is_key:
            parent.has_key = True
            parent.bad_key = not isinstance(value, str)
            parent.pending_key = value
            if parent.bad_key:
                self.problem(
                    mark,
                    parent.loc,
                    f"keys must be strings, found {describe_value(value)}; quote the key",
                    "yaml.key-type",
                )
                return
            first_line = parent.key_lines.get(value)
            if first_line is not None:
                self.problem(
                    mark,
                    (*parent.loc, value),
                    f"duplicate key {value!r} (first on line {first_line}, again on line "
                    f"{mark.line + 1}); keep only one",
                    "yaml.duplicate-key",
                )
            else:
                parent.key_lines[value] = mark.line + 1
                self.document.key_marks[(*parent.loc, value)] = (mark.line + 1, mark.column + 1)
            return
        parent.has_key = False
        if not parent.bad_key:
            assert isinstance(parent.value, dict)
            key = parent.pending_key
            if key not in parent.value:  # a duplicate keeps its first value's position
                self.document.value_marks[loc] = (mark.line + 1, mark.column + 1)
            parent.value[key] = value

    def tag_of(self, event: Any, default: str, loc: Loc) -> str:
        tag = event.tag
        if tag is None or tag == "!":
            return default
        if tag not in (_STR, _INT, _FLOAT, _BOOL, _NULL, _MAP, _SEQ):
            raise self.fatal(
                event.start_mark,
                loc,
                f"the tag {_short_tag(tag)!r} is not allowed; remove it (only plain YAML "
                "values are accepted, nothing is ever constructed from a tag)",
                "yaml.tag",
            )
        return str(tag)

    def on_event(self, event: Any) -> None:
        loc, is_key = self.child_loc()
        mark = event.start_mark
        if isinstance(event, yaml.ScalarEvent):
            self.count(1, mark, loc)
            default = _resolve_plain(event.value) if event.implicit[0] else _STR
            tag = self.tag_of(event, default, loc)
            try:
                value = _construct_scalar(tag, event.value)
            except ValueError as error:
                raise self.fatal(mark, loc, str(error), "yaml.scalar") from None
            self.remember(event.anchor, value, 1)
            self.place(value, 1, mark, is_key, loc)
        elif isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            self.count(1, mark, loc)
            if len(self.stack) >= self.limits.max_depth:
                raise self.fatal(
                    mark,
                    loc,
                    f"nesting is deeper than {self.limits.max_depth} levels; flatten the document",
                    "yaml.too-deep",
                )
            is_map = isinstance(event, yaml.MappingStartEvent)
            tag = self.tag_of(event, _MAP if is_map else _SEQ, loc)
            if tag != (_MAP if is_map else _SEQ):
                raise self.fatal(
                    mark, loc, f"the tag {_short_tag(tag)!r} does not fit here", "yaml.tag"
                )
            if is_key:
                raise self.fatal(
                    mark, loc, "keys must be strings, not mappings or lists", "yaml.key-type"
                )
            self.stack.append(
                _Container(loc=loc, mark=mark, value={} if is_map else [], anchor=event.anchor)
            )
        elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            container = self.stack.pop()
            self.remember(container.anchor, container.value, container.nodes)
            loc, is_key = self.child_loc()
            self.place(container.value, container.nodes, container.mark, is_key, loc)
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor not in self.anchors:
                raise self.fatal(
                    mark, loc, f"the alias *{event.anchor} has no anchor before it", "yaml.alias"
                )
            value, nodes = self.anchors[event.anchor]
            self.count(nodes, mark, loc)
            if is_key and not isinstance(value, str):
                raise self.fatal(mark, loc, "keys must be strings", "yaml.key-type")
            self.place(value, nodes, mark, is_key, loc)
        elif isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise self.fatal(
                    mark,
                    (),
                    "the file holds more than one YAML document; keep one (remove the '---' "
                    "separator and what follows, or split the file)",
                    "yaml.multiple-documents",
                )

    def remember(self, anchor: str | None, value: Any, nodes: int) -> None:
        if anchor is not None:
            self.anchors[anchor] = (value, nodes)

    def build(self, events: Iterator[Any]) -> YamlDocument:
        try:
            for event in events:
                self.on_event(event)
        except _Stop:
            self.document.value = None
        except yaml.MarkedYAMLError as error:
            what = error.problem or "invalid YAML"
            if error.context:
                what = f"{error.context}: {what}"
            self.problem(error.problem_mark, (), f"invalid YAML: {what}", "yaml.syntax")
            self.document.value = None
        return self.document


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
    if b"\x00" in data:
        raise ProfileFileError(
            [Problem(filename, 1, 1, "$", "the file is binary, not YAML text", "yaml.binary")]
        )
    text = decode_utf8(data, filename)
    loader = _EventLoader(text)
    try:
        return _DocumentBuilder(filename, limits).build(_events(loader))
    finally:
        loader.dispose()


def _events(loader: Any) -> Iterator[Any]:
    while loader.check_event():
        yield loader.get_event()
