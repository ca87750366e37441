"""Bounds on what a composed document may expand to, checked before any value is built.

Aliases share nodes, so an alias bomb is a small graph that expands hugely: into many values,
or into much text (one long string repeated through aliases). Both are counted on the graph, once
per node, before anything is built.
"""

from __future__ import annotations

import yaml

from .lean_typing import TYPE_CHECKING
from .limits import LoadLimits
from .problems import Loc, Problem, render_loc
from .rules import Rule

if TYPE_CHECKING:
    from typing import Any


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


def _expanded_sizes(root: Any, limits: LoadLimits) -> dict[int, tuple[int, int]]:
    """(values, characters of scalar text) each node stands for once aliases are expanded,
    each capped just past its limit.

    Computed once per node, without recursion, in time linear in the graph. Raises
    _RecursiveAlias when the graph has a cycle (`a: &a [*a]`)."""
    max_values, max_text = limits.max_nodes + 1, limits.max_expanded_text + 1
    sizes: dict[int, tuple[int, int]] = {}
    in_progress: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            in_progress.discard(id(node))
            if isinstance(node, yaml.ScalarNode):
                sizes[id(node)] = (1, min(max_text, len(node.value)))
                continue
            values, text = 1, 0
            for child in _children(node):
                child_values, child_text = sizes[id(child)]
                values, text = values + child_values, text + child_text
            sizes[id(node)] = (min(max_values, values), min(max_text, text))
            continue
        if id(node) in sizes:
            continue
        # A node is never popped here while in progress: a child in progress is refused
        # below, before it is pushed, so a cycle is found on its first step back.
        in_progress.add(id(node))
        stack.append((node, True))
        for child in _children(node):
            if id(child) in in_progress:
                raise _RecursiveAlias(child)
            if id(child) not in sizes:
                stack.append((child, False))
    return sizes


def _largest_entry(root: Any, size_of: Any) -> tuple[Loc, Any]:
    """The top-level entry that expands the most (its key's mark for a mapping)."""
    if isinstance(root, yaml.MappingNode) and root.value:
        key, _ = max(root.value, key=lambda pair: size_of(pair[1]))
        return (key.value,), key.start_mark
    if isinstance(root, yaml.SequenceNode) and root.value:
        index = max(range(len(root.value)), key=lambda i: size_of(root.value[i]))
        return (index,), root.value[index].start_mark
    return (), root.start_mark


def expansion_problem(root: Any, limits: LoadLimits, filename: str) -> Problem | None:
    """When the document expands too much or refers to itself: a problem naming the top-level
    entry that expands the most."""
    try:
        sizes = _expanded_sizes(root, limits)
    except _RecursiveAlias as recursive:
        mark = recursive.node.start_mark
        return Problem(
            filename,
            mark.line + 1,
            mark.column + 1,
            "$",
            "an alias refers to the value that contains it, which would never end; "
            "remove the alias",
            Rule.YAML_RECURSIVE_ALIAS,
        )
    bounds = (
        (
            limits.max_nodes,
            f"the document expands to more than {limits.max_nodes} values (an alias bomb?); "
            "simplify it",
            Rule.YAML_TOO_MANY_NODES,
        ),
        (
            limits.max_expanded_text,
            f"the document's text expands to more than {limits.max_expanded_text} characters "
            "through aliases (an alias bomb?); simplify it",
            Rule.YAML_TOO_MUCH_TEXT,
        ),
    )
    for measure, (limit, message, rule) in enumerate(bounds):
        if sizes[id(root)][measure] > limit:
            loc, mark = _largest_entry(root, lambda node, m=measure: sizes[id(node)][m])
            return Problem(filename, mark.line + 1, mark.column + 1, render_loc(loc), message, rule)
    return None
