"""Bounds on what a composed document may expand to, checked before any value is built."""

from __future__ import annotations

from typing import Any

import yaml

from .problems import Loc, Problem, render_loc


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


def expansion_problem(root: Any, max_nodes: int, filename: str) -> Problem | None:
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
