"""Walking a composed node graph: the value, where each part starts, and problems."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from .describe import describe_value
from .limits import LoadLimits
from .problems import Loc, Problem, render_loc
from .scalars import CORE_TAGS, MAP_TAG, SCALAR_TAGS, SEQ_TAG, construct_scalar, short_tag


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


class Stop(Exception):
    """Loading cannot go on; the problem is already recorded."""


class Walker:
    """Turns a composed node graph into a JSON-like value, positions and problems."""

    def __init__(self, filename: str, limits: LoadLimits) -> None:
        self.filename = filename
        self.limits = limits
        self.document = YamlDocument(value=None)

    def problem(self, mark: Any, loc: Loc, message: str, rule: str) -> None:
        self.document.problems.append(
            Problem(self.filename, mark.line + 1, mark.column + 1, render_loc(loc), message, rule)
        )

    def fatal(self, mark: Any, loc: Loc, message: str, rule: str) -> Stop:
        self.problem(mark, loc, message, rule)
        return Stop()

    def check_tag(self, node: Any, allowed: tuple[str, ...], loc: Loc) -> None:
        if node.tag not in allowed:
            tag = short_tag(node.tag)
            if node.tag in CORE_TAGS:
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
            self.check_tag(node, SCALAR_TAGS, loc)
            try:
                return construct_scalar(node.tag, node.value)
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
            self.check_tag(node, (SEQ_TAG,), loc)
            return [
                self.walk(item, (*loc, index), depth + 1) for index, item in enumerate(node.value)
            ]
        self.check_tag(node, (MAP_TAG,), loc)
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
