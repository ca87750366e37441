"""Where the files `check` is given are, and what it refuses before reading them: the work tree
each is in (`locate`), links that lead out of it or to a file git does not hold
(`outside_problems`), and names another name folds to (`collision_problems`).

A file in no work tree (no `.git` above it, `GIT_DIR` unset) is judged here with the os module
alone: `check` outside a repository imports no git module, subprocess nor pathlib. Only a work
tree's files need git (`git.objects`, imported then).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection, Iterable, Mapping, Sequence

from cleveragents.reading.lean_typing import NamedTuple
from cleveragents.reading.problems import Problem
from cleveragents.reading.rules import Rule

from .name_folding import (
    collision_message,
    collisions,
    folded,
    folded_names,
    read_through_message,
)
from .paths import GitError, nearest_with_git, quoted

__all__ = [
    "NOT_HELD_MESSAGE",
    "OUTSIDE_MESSAGE",
    "Located",
    "collision_problems",
    "inside",
    "locate",
    "outside_problems",
    "work_tree_of",
]


class Located(NamedTuple):
    """Where a file named on the command line is: the work tree its name is in (resolved;
    None: none), the file it leads to (resolved), and whether a link of the work tree was
    followed on the way (from its name in the work tree to that file)."""

    top: str | None
    real: str
    through_link: bool = False


def locate(paths: Iterable[str]) -> dict[str, Located]:
    """Each path's work tree and file, each folder asked about once (see `work_tree_of`) and
    resolved once (see `_Resolver`)."""
    tops: dict[str, str | None] = {}
    resolved: dict[str, str] = {}
    real_of = _Resolver()
    located = {}
    git_dir = bool(os.environ.get("GIT_DIR"))
    for path in paths:
        absolute = os.path.abspath(path)
        top = _work_tree_of_absolute(absolute, tops, git_dir)
        real = real_of(path)
        if top is None:
            located[path] = Located(None, real)
            continue
        if top not in resolved:
            resolved[top] = os.path.realpath(top)
        named = _below(absolute, top, resolved[top])
        if named is None:
            named = os.path.normpath(os.path.join(resolved[top], os.path.relpath(absolute, top)))
        located[path] = Located(resolved[top], real, real != named)
    return located


def _below(absolute: str, top: str, real_top: str) -> str | None:
    """`normpath(join(real_top, relpath(absolute, top)))` for the absolute, normalised
    `absolute` strictly below `top` (a plain prefix cut: neither holds `.` nor `..`); None
    otherwise, for the general computation."""
    if top == os.sep or not absolute.startswith(top + os.sep) or len(absolute) == len(top) + 1:
        return None
    return os.path.join(real_top, absolute[len(top) + 1 :])


class _Resolver:
    """`os.path.realpath` of many names, each folder resolved once: a name whose last
    component is not a link (nor `''`, `.`, `..`) resolves to its folder's real path joined
    with that component, exactly as `realpath` walks it; so only that component is looked at
    (one lstat), not each component of the path again. A link, or any error but a missing
    file, is left to `realpath` itself."""

    def __init__(self) -> None:
        self._folders: dict[str, str] = {}  # folder -> its real path, with a closing `/`

    def __call__(self, path: str) -> str:
        folder, name = os.path.split(path)
        if name in ("", os.curdir, os.pardir):
            return os.path.realpath(path)
        real_folder = self._folders.get(folder)
        if real_folder is None:
            real_folder = os.path.join(os.path.realpath(folder or os.curdir), "")
            self._folders[folder] = real_folder
        real = real_folder + name  # os.path.join(realpath(folder), name): `name` holds no `/`
        try:
            is_link = stat.S_ISLNK(os.lstat(real).st_mode)
        except FileNotFoundError:  # `realpath` is not strict: a missing file is its name
            return real
        except OSError:
            return os.path.realpath(path)
        return os.path.realpath(path) if is_link else real


OUTSIDE_MESSAGE = (
    "is a link to a file outside {where}, so it is not read: what is checked must be part of "
    "what is reviewed; make the profile a regular file, or link it to a file committed in the "
    "repository"
)


NOT_HELD_MESSAGE = (
    "is a link to {target}, which git does not hold (a file in git's own folder, a file git "
    "ignores, a nested repository's): a checkout lacks it, so it is not read; make the "
    "profile a regular file, or link it to a file committed in the repository"
)


def outside_problems(
    paths: Sequence[str], located: Mapping[str, Located] | None = None
) -> dict[str, Problem]:
    """`check`, before reading anything: each of `paths` whose links lead out of the git work
    tree it is in (outside any work tree: out of both the folder checked, the current one, and
    the folder the file is named in), or, in the work tree, to a file git does not hold, as
    `diff --git` refuses it (in `.git`, ignored, a nested repository's). Such a file is not
    read: it may exist on one machine only (the CI runner's strict profile, a secret), and its
    bytes must not reach a report. GitError when git refuses the repository."""
    located = locate(paths) if located is None else located
    here = os.path.realpath(os.curdir)
    refused = {}
    linked: dict[str, dict[str, str]] = {}  # work tree -> path -> the file, for those in it
    folders: dict[str, str] = {}  # each folder a file is named in, resolved once
    for path in paths:
        top, real, through_link = located[path]
        if top is not None:
            bounds, where = [top], "the repository"
        else:
            folder = os.path.dirname(os.path.abspath(path))
            if folder not in folders:
                folders[folder] = os.path.realpath(folder)
            bounds = [here, folders[folder]]
            where = "the folder checked (there is no git repository here)"
        if not any(inside(real, bound) for bound in bounds):
            message = OUTSIDE_MESSAGE.format(where=where)
            refused[path] = Problem(path, 0, 0, "", message, Rule.FILE_OUTSIDE)
        elif top is not None and through_link and os.path.lexists(real) and not os.path.isdir(real):
            # (A folder, or nothing, is said to be one when the file is read.)
            relative = os.path.relpath(real, top).replace(os.sep, "/")
            linked.setdefault(top, {})[path] = relative
    for top, targets in linked.items():
        held = _held_files(top)
        for path, target in targets.items():
            if target not in held:
                message = NOT_HELD_MESSAGE.format(target=quoted(target))
                refused[path] = Problem(path, 0, 0, "", message, Rule.FILE_OUTSIDE)
    return refused


def _held_files(top: str) -> set[str]:
    """The files git holds in the work tree `top`, or would (not ignored): what a checkout
    of it, once committed, holds; never anything in `.git` or in a nested repository."""
    from .objects import _fields, git, repository_refused

    try:
        output = git(top, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    except GitError as error:
        raise repository_refused(top, error) from None
    return set(filter(None, _fields(output)))


def collision_problems(
    paths: Sequence[str], located: Mapping[str, Located] | None = None
) -> list[Problem]:
    """`check`: each of `paths` that another name in its repository (what the index holds) or,
    outside one, in its folder, is one file with on a case-insensitive or normalising file
    system (`name_folding`). GitError when git refuses the repository."""
    located = locate(paths) if located is None else located
    listings: dict[str, _Listing] = {}
    problems = []
    for path in paths:
        top, real, through_link = located[path]
        if top is None:  # the names in the file's own folder
            shown = os.path.basename(path)
            folder = os.path.dirname(os.path.abspath(path))
            if folder not in listings:
                listings[folder] = _Listing.of_folder(folder)
            found = listings[folder].collisions(shown)
        else:
            if top not in listings:
                listings[top] = _Listing.of_index(top)
            absolute = os.path.abspath(path)
            if top != os.sep and absolute.startswith(top + os.sep):  # relpath's answer, cut
                shown = absolute[len(top) + 1 :].replace(os.sep, "/")
            else:
                shown = os.path.relpath(absolute, top).replace(os.sep, "/")
            found = listings[top].collisions(shown)
            if not found and through_link and inside(real, top):
                # The file a link leads to, and its folders: another name folds to it.
                target = os.path.relpath(real, top).replace(os.sep, "/")
                twins = listings[top].collisions(target)
                if twins:
                    message = read_through_message(shown, target, twins)
                    problems.append(Problem(path, 0, 0, "", message, Rule.FILE_NAME_COLLISION))
        if found:
            message = collision_message(shown, found)
            problems.append(Problem(path, 0, 0, "", message, Rule.FILE_NAME_COLLISION))
    return problems


class _Listing:
    """The names a repository's index holds (or a folder's), to find a name's twins in: each
    folder's names folded once, however many names are checked."""

    def __init__(self, entries: set[str], children: Mapping[str, Collection[str]]) -> None:
        self.entries = entries
        self.children = children
        self._folded: dict[str, dict[str, list[str]]] = {}
        # Each name's folded name, once: a folder's name is on the way to each of its files,
        # a file's name is folded with its folder's names and again when it is checked.
        self._keys: dict[str, str] = {}

    @classmethod
    def of_index(cls, top: str) -> _Listing:
        from .objects import _children, _fields, git, repository_refused

        try:
            output = git(top, "ls-files", "-z", "--cached", "--full-name")
        except GitError as error:
            raise repository_refused(top, error) from None
        entries = set(filter(None, _fields(output)))
        return cls(entries, _children(entries))

    @classmethod
    def of_folder(cls, folder: str) -> _Listing:
        names: list[str] = []
        files = set()
        if os.path.isdir(folder):
            with os.scandir(folder) as entries:  # the kind of each name, mostly without a stat
                for entry in entries:
                    names.append(entry.name)
                    if not _is_folder(entry):
                        files.add(entry.name)
        return cls(files, {"": names})

    def _folded_children(self, folder: str) -> dict[str, list[str]]:
        if folder not in self._folded:
            self._folded[folder] = folded_names(self.children.get(folder, ()), self._fold)
        return self._folded[folder]

    def _fold(self, name: str) -> str:
        """`folded(name)` of one component, kept."""
        key = self._keys.get(name)
        if key is None:
            key = self._keys[name] = folded(name)
        return key

    def collisions(self, path: str) -> list[str]:
        return collisions(
            path,
            self._folded_children,
            lambda name: name in self.entries or name == path,
            self._fold,
        )


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """`os.path.isdir` of the entry's path (a link followed), which says False for an error."""
    try:
        return entry.is_dir()
    except OSError:
        return os.path.isdir(entry.path)


def inside(path: str, folder: str) -> bool:
    """Whether the absolute `path` is `folder` or lies below it (both resolved already)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def work_tree_of(path: str, known: dict[str, str | None]) -> str | None:
    """The work tree the file named `path` lies in: the one `GIT_DIR` (and `GIT_WORK_TREE`)
    name, where git takes every file to be; else the nearest folder above its name (as given,
    before any link is followed: where the name is) holding `.git`; None for none. `known`
    remembers the folders already asked about."""
    return _work_tree_of_absolute(os.path.abspath(path), known, bool(os.environ.get("GIT_DIR")))


def _work_tree_of_absolute(
    absolute: str, known: dict[str, str | None], git_dir: bool
) -> str | None:
    """`work_tree_of` the name `absolute`, made absolute already; `git_dir`: `GIT_DIR` set."""
    if git_dir:
        if "\0GIT_DIR" not in known:
            known["\0GIT_DIR"] = _environment_work_tree()
        return known["\0GIT_DIR"]
    return nearest_with_git(os.path.dirname(absolute), known)


def _environment_work_tree() -> str | None:
    """The work tree of the repository `GIT_DIR` names (None: a bare one, which has none).
    GitError when git cannot use that repository: what it holds is unknown, so no file
    passes for one outside any repository."""
    from .objects import git, repository_refused

    try:
        if git(".", "rev-parse", "--is-bare-repository").strip() == b"true":
            return None
        top = git(".", "rev-parse", "--show-toplevel")[:-1]  # less git's closing newline
    except GitError as error:
        raise repository_refused(os.environ.get("GIT_DIR", ""), error) from None
    return os.path.realpath(os.fsdecode(top)) if top else None
