"""Walking a composed node graph: the value, where each part is, and every problem on the way.

A problem about one value or key does not stop the walk: it is recorded, the value is left
out (or kept as YAML 1.2 reads it), and its place is marked as reported, so the model's errors
about the same place are not shown twice.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence

from yaml import ScalarNode, SequenceNode

from .characters import invisible_characters, name_characters
from .describe import describe_value
from .lean_typing import TYPE_CHECKING
from .limits import LoadLimits
from .problems import Loc, Problem, render_loc
from .rules import Rule
from .scalars import (
    CORE_TAGS,
    IMPLICIT_TAG,
    MAP_TAG,
    SCALAR_TAGS,
    SEQ_TAG,
    read_scalar,
    short_tag,
)

if TYPE_CHECKING:
    from typing import Any


class YamlDocument:
    """The loaded value and where each part of it is in the file."""

    # A plain class, as the reading core's others are named tuples: no dataclass, because
    # importing `dataclasses` is a tenth of `safety-profile check`'s start-up.
    __slots__ = ("built", "empty", "key_marks", "problems", "reported", "value", "value_marks")

    def __init__(self, value: Any, empty: bool = False, built: bool = False) -> None:
        self.value = value
        self.empty = empty  # no document at all (an empty file, or only comments)
        self.built = built  # the walk finished: `value` is the whole document (None when empty)
        self.value_marks: dict[Loc, tuple[int, int]] = {}
        self.key_marks: dict[Loc, tuple[int, int]] = {}
        self.problems: list[Problem] = []
        # Places whose problems the loader already reported: the model's errors there are
        # dropped.
        self.reported: set[Loc] = set()

    def position(self, loc: Loc, *, of_key: bool = False) -> tuple[int, int]:
        """Line and column of `loc`, or of its nearest ancestor that has one (inside an alias)."""
        marks = self.key_marks if of_key else self.value_marks
        for end in range(len(loc), -1, -1):
            found = marks.get(loc[:end]) or self.value_marks.get(loc[:end])
            if found is not None:
                return found
        return (1, 1)

    def already_reported(self, loc: Loc) -> bool:
        """Whether the loader reported a problem at `loc` or at a place that holds it."""
        return any(loc[:end] in self.reported for end in range(len(loc) + 1))


class Stop(Exception):
    """Walking cannot go on (a bound was reached); the problem is already recorded."""


_MERGE_KEY_MESSAGE = (
    "merge keys ('<<') are not allowed: YAML 1.2 has none, and readers that merge them "
    "disagree with those that keep a key named '<<'; write the fields out instead"
)


class Walker:
    """Turns a composed node graph into a JSON-like value, positions and problems."""

    def __init__(self, filename: str, limits: LoadLimits, *, locate: bool = True) -> None:
        self.filename = filename
        self.limits = limits
        self.document = YamlDocument(value=None)
        # (start, end, loc) of every value and key in the source, to place findings made
        # before the walk (see `locs_at`); an aliased node is recorded where it is written.
        # Kept only when there are findings to place (`locate`).
        self.locate = locate
        self.max_integer_digits = limits.max_integer_digits
        self.spans: list[tuple[int, int, Loc]] = []
        self._walked: set[int] = set()
        # A key as the file writes it, from what the parser read (`DocumentText.exact`): set
        # when the parser read refused characters as spaces.
        self.exact: Callable[[str, int, int], str] | None = None

    def problem(
        self, mark: Any, loc: Loc, message: str, rule: Rule, *, reported: bool = True
    ) -> None:
        self.document.problems.append(
            Problem(self.filename, mark.line + 1, mark.column + 1, render_loc(loc), message, rule)
        )
        if reported:
            self.document.reported.add(loc)

    def locs_at(self, offsets: Sequence[int]) -> list[Loc]:
        """For each offset, the innermost value or key written around it: the narrowest span
        holding it, the first recorded of equally narrow ones; the root when none does. One
        pass over the spans and the offsets, each sorted, so many findings cost little."""
        spans = self.spans
        by_start = sorted(range(len(spans)), key=lambda index: spans[index][0])
        holding: list[tuple[int, int, int]] = []  # (width, index, end): a heap, narrowest first
        locs: list[Loc] = [()] * len(offsets)
        next_span = 0
        for position in sorted(range(len(offsets)), key=offsets.__getitem__):
            offset = offsets[position]
            while next_span < len(by_start) and spans[by_start[next_span]][0] <= offset:
                index = by_start[next_span]
                start, end, _ = spans[index]
                heapq.heappush(holding, (end - start, index, end))
                next_span += 1
            # A span that ends before this offset ends before every later one too.
            while holding and holding[0][2] < offset:
                heapq.heappop(holding)
            if holding:
                locs[position] = spans[holding[0][1]][2]
        return locs

    def tag_fits(self, node: Any, allowed: tuple[str, ...], loc: Loc) -> bool:
        if node.tag in allowed:
            return True
        tag = short_tag(node.tag)
        if node.tag in CORE_TAGS:
            self.problem(node.start_mark, loc, f"the tag {tag!r} does not fit here", Rule.YAML_TAG)
        else:
            self.problem(
                node.start_mark,
                loc,
                f"the tag {tag!r} is not allowed; remove it (only plain YAML values are "
                "accepted, nothing is ever constructed from a tag)",
                Rule.YAML_TAG,
            )
        return False

    def walk(self, node: Any, loc: Loc, depth: int) -> Any:
        mark = node.start_mark
        self.document.value_marks.setdefault(loc, (mark.line + 1, mark.column + 1))
        if self.locate and id(node) not in self._walked:
            self._walked.add(id(node))
            self.spans.append((mark.index, node.end_mark.index, loc))
        if type(node) is ScalarNode:
            return self.scalar(node, loc)
        if depth >= self.limits.max_depth:
            self.problem(
                mark,
                loc,
                f"nesting is deeper than {self.limits.max_depth} levels; flatten the document",
                Rule.YAML_TOO_DEEP,
            )
            raise Stop
        if type(node) is SequenceNode:
            if node.tag != SEQ_TAG and not self.tag_fits(node, (SEQ_TAG,), loc):
                return None
            return [
                self.walk(item, (*loc, index), depth + 1) for index, item in enumerate(node.value)
            ]
        if node.tag != MAP_TAG and not self.tag_fits(node, (MAP_TAG,), loc):
            return None
        return self.walk_mapping(node, loc, depth)

    def scalar(self, node: Any, loc: Loc) -> Any:
        """The YAML 1.2 value of a scalar; a problem when it is not one, or when YAML 1.1 (as
        PyYAML reads it) gives another value."""
        tag = node.tag
        if tag != IMPLICIT_TAG and not self.tag_fits(node, SCALAR_TAGS, loc):
            return None
        value, problem = read_scalar(tag, node.value, self.max_integer_digits)
        if problem is not None:
            self.problem(node.start_mark, loc, *problem)
        return value

    def walk_mapping(self, node: Any, loc: Loc, depth: int) -> dict[str, Any]:
        mapping: dict[str, Any] = {}
        first_lines: dict[str, int] = {}
        key_marks = self.document.key_marks
        for key_node, value_node in node.value:
            key_mark = key_node.start_mark
            if type(key_node) is not ScalarNode:
                self.problem(
                    key_mark,
                    loc,
                    "keys must be strings, not mappings or lists",
                    Rule.YAML_KEY_TYPE,
                    reported=False,
                )
                continue
            key_loc: Loc = (*loc, key_node.value)
            if key_node.tag == IMPLICIT_TAG and key_node.value == "<<":
                self.problem(key_mark, key_loc, _MERGE_KEY_MESSAGE, Rule.YAML_MERGE_KEY)
                continue
            key = self.scalar(key_node, key_loc)
            if key is None and key_loc in self.document.reported:
                continue
            if not isinstance(key, str):
                self.problem(
                    key_mark,
                    loc,
                    f"keys must be strings, found {describe_value(key)}; quote the key",
                    Rule.YAML_KEY_TYPE,
                    reported=False,
                )
                continue
            # Refused characters are reported where they are (the text step), not again as
            # invisible ones: checked in the key as the parser read it.
            hidden = invisible_characters(key)
            if self.exact is not None:
                key = self.exact(key, key_mark.index, key_node.end_mark.index)
            key_loc = (*loc, key)
            if self.locate:
                self.spans.append((key_mark.index, key_node.end_mark.index, key_loc))
            if hidden:
                self.problem(
                    key_mark,
                    key_loc,
                    f"the key holds invisible characters ({name_characters(hidden)}), so it is "
                    "not the key it looks like; remove them",
                    Rule.YAML_INVISIBLE_CHARACTER,
                )
            if key in first_lines:
                self.problem(
                    key_mark,
                    key_loc,
                    f"duplicate key {key!r} (first on line {first_lines[key]}, again on line "
                    f"{key_mark.line + 1}); keep only one",
                    Rule.YAML_DUPLICATE_KEY,
                    reported=False,
                )
                # The first value stays, so every other message points at the value it names.
                continue
            first_lines[key] = key_mark.line + 1
            key_marks[key_loc] = (key_mark.line + 1, key_mark.column + 1)
            mapping[key] = self.walk(value_node, key_loc, depth + 1)
        return mapping
