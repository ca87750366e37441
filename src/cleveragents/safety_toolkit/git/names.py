"""Every name under which the two sides of a comparison give a program a file, through links.

A name's file depends on both sides' links: relinking the folder `conf` from `sel/a` to `sel/b`
changes what `conf/sub/safety_profile.yaml` reads though no file changed, and a link to a
folder (`loop` -> `.`) gives a file endless names (`loop/loop/…/x`). The names are walked on
both sides at once, component by component, as a pair of folders (old, new; either may be
none). Two names that reach the same pair of folders, passing the same marked folders
(`actions/`, `.github/`: all a name's kind depends on besides its last component) in the same
scope, go on alike below it, so the pair is walked once, from its shortest name: a loop ends
where it meets a pair it has seen, and the cost is the number of pairs, each folder's entries
looked at once per pair. No depth is cut off: a walk that would pass a budget proportional to
the repository's size stops with an error (`LinkBudgetError`), never with names unseen.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterator, Sequence

from cleveragents.reading.lean_typing import NamedTuple

from .links import MISSING, Links, Node, git_side
from .objects import GITLINK

__all__ = ["LinkBudgetError", "Named", "named_files", "walk_budget"]


class Named(NamedTuple):
    """One name and what it leads to on each side; the entries are the names' own places (the
    real folder it is in, joined with its last component), None where a side lacks the name."""

    name: str
    old_entry: str | None
    new_entry: str | None
    old: Node
    new: Node


class LinkBudgetError(Exception):
    """The folder links give more pairs of folders than the budget: `name` is where it ran
    out."""

    def __init__(self, name: str, budget: int) -> None:
        super().__init__(name)
        self.name = name
        self.budget = budget


_IN = "\0in"  # every name below is in scope


def _scope(prefix: str, specs: Sequence[str]) -> str | None:
    """What the paths the user named (`specs`, repository paths) say of the names below the
    folder name `prefix`: all in scope (_IN), none (None), or, while `prefix` lies above a
    named path, `prefix` itself (the names below are told apart by the next components)."""
    if not specs or any(s == "" or prefix == s or prefix.startswith(f"{s}/") for s in specs):
        return _IN
    if prefix == "" or any(spec.startswith(f"{prefix}/") for spec in specs):
        return prefix
    return None


def walk_budget(*links: Links) -> int:
    """How many pairs of folders a walk may meet: eight for each entry the sides hold (there
    are no more folders or links than entries: a pair per folder, times the marked folders a
    name can pass, and the pairs a relinked folder adds), and 100,000 more for small
    repositories."""
    return 8 * sum(len(git_side(side).paths()) for side in links) + 100_000


def named_files(
    old: Links,
    new: Links,
    wanted: Callable[[str], bool],
    folder_mark: Callable[[str], str | None],
    specs: Sequence[str] = (),
    budget: int | None = None,
) -> Iterator[Named]:
    """Each name `wanted` takes that leads to something other than a folder on either side (a
    file, a submodule, nothing through a link, an error), shortest names first. `folder_mark`
    says which marked folder a path component is (the kinds' `folder_mark`): a name is walked
    once for each set of marked folders it passes. `specs` limits the walk to names at or below
    those paths (none: everything). LinkBudgetError past `budget` pairs of folders (default:
    `walk_budget`)."""
    budget = walk_budget(old, new) if budget is None else budget
    old_side, new_side = git_side(old), git_side(new)
    scope = _scope("", specs)
    if scope is None:
        return
    seen: set[tuple[str | None, str | None, frozenset[str], str]] = {("", "", frozenset(), scope)}
    queue: deque[tuple[str, str | None, str | None, frozenset[str], str]] = deque(
        [("", "", "", frozenset(), scope)]
    )
    while queue:
        prefix, old_folder, new_folder, marks, scope = queue.popleft()
        old_names = old_side.children(old_folder) if old_folder is not None else ()
        new_names = new_side.children(new_folder) if new_folder is not None else ()
        for component in sorted({*old_names, *new_names}):
            name = f"{prefix}/{component}" if prefix else component
            old_entry = _entry(old_folder, component, old_names)
            new_entry = _entry(new_folder, component, new_names)
            old_node = MISSING if old_entry is None else old.node(old_entry)
            new_node = MISSING if new_entry is None else new.node(new_entry)
            if (_names_a_file(old_node) or _names_a_file(new_node)) and wanted(name):
                yield Named(name, old_entry, new_entry, old_node, new_node)
            old_below = old_node.path if old_node.kind == "dir" else None
            new_below = new_node.path if new_node.kind == "dir" else None
            if old_below is None and new_below is None:
                continue
            mark = folder_mark(component)
            below_marks = marks | {mark} if mark is not None else marks
            below_scope = scope if scope == _IN else _scope(name, specs)
            if below_scope is None:
                continue
            key = (old_below, new_below, below_marks, below_scope)
            if key in seen:
                continue
            if len(seen) >= budget:
                raise LinkBudgetError(name, budget)
            seen.add(key)
            queue.append((name, old_below, new_below, below_marks, below_scope))


def _entry(folder: str | None, component: str, names: Collection[str]) -> str | None:
    if folder is None or component not in names:
        return None
    return f"{folder}/{component}" if folder else component


def _names_a_file(node: Node) -> bool:
    """Whether a name's node is more than a folder or nothing: a file, a submodule, an error,
    or anything reached through a link (a link to a folder, or to nothing, in a file's place
    is an error for a name of the kind)."""
    return node.kind in ("file", GITLINK, "error") or node.through_link
