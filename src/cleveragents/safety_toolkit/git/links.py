"""Following a side's links inside the repository, component by component as the kernel does
(`Links`), so `diff --git` reads a link exactly as `check` reads the file a checkout writes:
each link is followed once (its result remembered), a link reached again while it is being
followed is a loop, and more than MAX_LINKS links on one path is an error, as the kernel's ELOOP
is. A side is a `Tree` or the `WorkTree` (`objects`), or the files on disk alone (the language
server's). `check` follows no link through git, so it does not import this module. `Links` is not
generic over its side: the walk of names (`names.py`), which lists a side's folders, asks for
git's sides (`git_side`).
"""

from __future__ import annotations

import os

from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple

from .objects import LINK, MAX_LINKS, PATH_MAX, LinkError, Side, WorkTree, not_a_file
from .paths import quoted

if TYPE_CHECKING:
    from typing import Protocol

    class LinkSide(Protocol):
        """What `Links` asks of a side: what a name is, and where a link points. A `Tree`,
        the `WorkTree`, or the files on disk alone (the language server's: no git)."""

        def kind_of(self, path: str) -> str | None: ...

        def read_link(self, path: str) -> str: ...


__all__ = ["MISSING", "Links", "Node", "git_side"]


class Node(NamedTuple):
    """What a name leads to on one side: `kind` "file", "dir", GITLINK, "missing" or "error",
    the repository path it leads to (through links), whether a link was followed, and for
    "error" why (a LinkError's words)."""

    kind: str
    path: str
    through_link: bool = False
    error: str = ""


MISSING = Node("missing", "")


class Links:
    """A side's links, followed as the kernel follows them and never out of the repository:
    each link once (its result is remembered, so a path through many links costs one step per
    link, not one walk per link), a link met again while it is being followed is a loop."""

    def __init__(self, side: LinkSide) -> None:
        self.side = side
        # link path -> (the path it leads to, links followed to get there); None while it is
        # being followed; a LinkError when it cannot be followed.
        self._followed: dict[str, tuple[str, int] | LinkError | None] = {}
        self._nodes: dict[str, Node] = {}

    def follow(self, link: str) -> tuple[str, int]:
        """The path the link `link` leads to (itself no link), and the links followed on the
        way, itself included. LinkError when it loops, leaves the repository or passes
        through something that is not a folder."""
        if link in self._followed:
            known = self._followed[link]
            if known is None:
                raise LinkError("has too many levels of links (a loop?)")
            if isinstance(known, LinkError):
                raise known
            return known
        self._followed[link] = None
        try:
            target = self.side.read_link(link)
            if len(os.fsencode(target)) >= PATH_MAX:
                # No checkout can make such a link (ENAMETOOLONG): the profile is missing.
                raise LinkError(f"has a target longer than a link can hold ({PATH_MAX - 1} bytes)")
            if target.startswith("/"):
                raise LinkError(f"leads outside the repository (to {quoted(target)})")
            resolved, count = self.walk(link.rpartition("/")[0], target)
            result = (resolved, count + 1)
            if result[1] > MAX_LINKS:
                raise LinkError("has too many levels of links (a loop?)")
        except LinkError as error:
            self._followed[link] = error
            raise
        self._followed[link] = result
        return result

    def walk(self, folder: str, relative: str) -> tuple[str, int]:
        """The path `relative` names from the folder `folder`, each link on it followed, and
        the links followed. Every name before the last must be a folder that exists (the
        kernel walks folders that exist: `nowhere/../x` fails when `nowhere` does not, though
        git's own diff reads it as `x`); the last may be anything, or nothing."""
        done = folder.split("/") if folder else []
        parts = relative.split("/")
        count = 0
        for index, name in enumerate(parts):
            if name in ("", "."):
                continue
            if name == "..":
                if not done:
                    raise LinkError("leads outside the repository")
                done.pop()
                continue
            done.append(name)
            current = "/".join(done)
            kind = self.side.kind_of(current)
            if kind == LINK:
                current, used = self.follow(current)
                count += used
                if count > MAX_LINKS:
                    raise LinkError("has too many levels of links (a loop?)")
                kind = self.side.kind_of(current)
                done = current.split("/") if current else []
            if index < len(parts) - 1 and kind != "dir":
                # Something follows (a trailing `/` too): this must be a folder.
                what = "does not exist" if kind is None else "is not a folder"
                raise LinkError(f"leads through {quoted(current)}, which {what}")
        return "/".join(done), count

    def node(self, path: str) -> Node:
        """What the entry `path` (in a folder that exists, reached without links) leads to."""
        found = self._nodes.get(path)
        if found is None:
            found = self._nodes[path] = self._node(path)
        return found

    def _node(self, path: str) -> Node:
        kind = self.side.kind_of(path)
        if kind != LINK:
            return Node(kind or "missing", path)
        try:
            target, _ = self.follow(path)
        except LinkError as error:
            return Node("error", path, True, str(error))
        kind = self.side.kind_of(target)
        if kind == "file" and isinstance(self.side, WorkTree) and not self.side.known(target):
            message = f"leads to {quoted(target)}, which git ignores (a checkout lacks it)"
            return Node("error", target, True, message)
        return Node(kind or "missing", target, True)

    def resolve(self, path: str) -> str:
        """The file the repository path `path` names (LinkError when it names none), as a
        program opening `path` reads it."""
        resolved, links = self.walk("", path)
        kind = self.side.kind_of(resolved)
        if kind == "file":
            if isinstance(self.side, WorkTree) and not self.side.known(resolved):
                message = f"leads to {quoted(resolved)}, which git ignores (a checkout lacks it)"
                raise LinkError(message)
            return resolved
        raise LinkError(not_a_file(kind, resolved, through_link=links > 0))


def git_side(links: Links) -> Side:
    """The side `links` follows links on, which must be git's (a `Tree` or the `WorkTree`, whose
    folders can be listed); TypeError for another (the language server's files on disk)."""
    side = links.side
    if not isinstance(side, Side):
        raise TypeError(f"a Tree or the WorkTree is needed here, not {type(side).__name__}")
    return side
