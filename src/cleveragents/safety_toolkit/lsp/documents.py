"""What an editor's document is on disk and in git, for the language server: the file its URI
names (or why it names none), its path in its git repository (which decides its kind, as the
hooks see it, whatever folder the editor opened), the file it is when it is a link (inside the
repository only, as `diff --git` follows links), and its version at HEAD.

Git is asked once per folder for the repository's top (`Places`), and again only when a file
is opened or saved: never per keystroke. No pygls here."""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote_to_bytes, urlsplit

from cleveragents.reading.problems import Problem
from cleveragents.reading.rules import Rule

from ..core.kinds import KINDS
from ..git.paths import folder_with_git, quoted

if TYPE_CHECKING:
    from ..git.objects import LinkError

# The git modules are imported only for a file in a repository (`git.paths` finds it without).

__all__ = ["Place", "Places", "UriRefused", "file_path", "kind_by_name", "link_problem", "target"]


class UriRefused(ValueError):
    """A document URI that names no file the server can check; the message says why."""


def file_path(uri: str) -> str:
    """The file a `file:` URI names: its percent-escapes decoded to the name's own bytes (a name
    that is not UTF-8 is itself, as `os.fsdecode` gives it). UriRefused for any other URI."""
    try:
        parts = urlsplit(uri)
    except ValueError as error:
        raise UriRefused(f"is not a valid URI ({error})") from None
    if parts.scheme != "file":
        raise UriRefused(f"is not a file: URI (its scheme is {parts.scheme or 'missing'!r})")
    if parts.netloc not in ("", "localhost"):
        raise UriRefused(f"names a file on another host ({parts.netloc!r})")
    if parts.query or parts.fragment:
        raise UriRefused("has a query or a fragment, which no file's URI holds")
    name = unquote_to_bytes(parts.path)
    if b"\0" in name:
        raise UriRefused("holds a NUL byte (%00), which no file name can hold")
    if not name.startswith(b"/"):
        raise UriRefused("does not hold an absolute path")
    if any(segment in (b".", b"..") for segment in name.split(b"/")):
        raise UriRefused("names the file through '.' or '..', not by its own path")
    return os.fsdecode(name)


class Place(NamedTuple):
    """A file as the editor names it (`path`) and as its repository does."""

    path: str
    root: str | None  # the top of the git work tree it is in (None: in none)
    repository_path: str | None  # its path there, with `/` (None: in no work tree)


class Places:
    """Where files are in their repositories: `git rev-parse` once per folder (with
    `by_repository`, once per folder holding `.git`, for many files at once), remembered until
    `forget`; never in a folder with no `.git` at or above it, where git finds no repository."""

    def __init__(self, by_repository: bool = False) -> None:
        self._tops: dict[str, str | None] = {}
        self._by_repository = by_repository
        self._asked_in: dict[str, str | None] = {}  # by folder: `_folder`'s answer

    def _folder(self, path: str) -> str | None:
        """The folder to ask git in for `path`; None: git would find no repository."""
        folder, _ = _existing_folder(os.path.dirname(path))
        if os.environ.get("GIT_DIR"):
            return folder  # git reads that repository, from any folder
        if folder not in self._asked_in:
            holder = folder_with_git(folder)
            if holder is None or self._by_repository:
                self._asked_in[folder] = holder
            else:
                self._asked_in[folder] = folder
        return self._asked_in[folder]

    def place(self, path: str) -> Place:
        folder = self._folder(path)
        if folder is None:
            return Place(path, None, None)
        if folder not in self._tops:
            self._tops[folder] = _top_of(folder)
        root = self._tops[folder]
        name = None if root is None else _repository_path(path, root)
        return Place(path, None, None) if name is None else Place(path, root, name)

    def forget(self, path: str) -> None:
        """Ask git again for the folder of `path` (on save: the folder may be a repository now)."""
        folder = self._folder(path)
        self._asked_in.pop(_existing_folder(os.path.dirname(path))[0], None)
        if folder is not None:
            self._tops.pop(folder, None)


def _existing_folder(folder: str) -> tuple[str, list[str]]:
    """The nearest folder at or above `folder` that exists, and the names below it to `folder`
    (a new file's folders may not exist yet)."""
    rest: list[str] = []
    while not os.path.isdir(folder):
        parent, name = os.path.split(folder)
        if parent == folder:
            break
        rest.insert(0, name)
        folder = parent
    return folder, rest


def _repository_path(path: str, root: str) -> str | None:
    """`path`'s name in the repository at `root` as the editor names it: below the nearest
    folder above it that is the repository's top, so a link to a folder inside the repository
    keeps the name it gives (`actions/` a link to `stuff/`: `actions/deploy.yaml` is an action,
    as `diff --git` names it); else below its real folder (it was reached through a link from
    outside). None: it is not inside."""
    names = [os.path.basename(path)]
    current = os.path.dirname(path)
    while True:
        if os.path.realpath(current) == root:
            return "/".join(reversed(names))
        parent, name = os.path.split(current)
        if parent == current:
            break
        names.append(name)
        current = parent
    folder, rest = _existing_folder(os.path.dirname(path))
    inside = os.path.join(os.path.realpath(folder), *rest, os.path.basename(path))
    relative = os.path.relpath(inside, root).replace(os.sep, "/")
    return None if relative == ".." or relative.startswith("../") else relative


def _top_of(folder: str) -> str | None:
    from ..git.objects import GitError, git

    try:
        output = git(folder, "rev-parse", "--show-toplevel")
    except (GitError, OSError):  # no repository (or a bare one, or no git)
        return None
    top = os.fsdecode(output[:-1])  # less git's one closing newline
    return os.path.realpath(top) if top else None


def kind_by_name(place: Place) -> str | None:
    """The kind whose hook matches the file's name: its repository path, as the hooks see it;
    outside a repository (where no hook runs), its whole path. Never the folder the editor
    opened: the same file is the same kind whichever that is."""
    name = place.repository_path
    if name is None:
        name = place.path.replace(os.sep, "/")
    return next((kind for kind, document in KINDS.items() if document.matches(name)), None)


class _OnDisk:
    """What `Links` asks of a side, answered by the working tree on disk (no git)."""

    def __init__(self, root: str) -> None:
        self.root = root

    def kind_of(self, path: str) -> str | None:
        from ..git.objects import GITLINK, LINK

        try:
            mode = os.lstat(os.path.join(self.root, path)).st_mode
        except OSError:
            return None
        if stat.S_ISLNK(mode):
            return LINK
        if stat.S_ISDIR(mode):
            inner_repository = path and os.path.lexists(os.path.join(self.root, path, ".git"))
            return GITLINK if inner_repository else "dir"
        return "file" if stat.S_ISREG(mode) else None

    def read_link(self, path: str) -> str:
        return os.readlink(os.path.join(self.root, path))


def target(place: Place) -> str:
    """The file to read for the document: the file itself, or, when it or a folder above it is
    a link, the file that leads to inside the repository, followed as the kernel follows it
    (LinkError when it leads outside, nowhere, or round in a loop). Outside a repository and for
    a file not on disk yet: the path as it is."""
    if place.root is None or place.repository_path is None or not os.path.lexists(place.path):
        return place.path
    from ..git.links import Links
    from ..git.objects import LinkError

    try:
        resolved = Links(_OnDisk(place.root)).resolve(place.repository_path)
    except LinkError as error:
        if str(error).startswith(("leads", "has")):  # a link was followed
            raise
        return place.path  # not a link: what it is, reading it says (a FIFO, ...)
    return os.path.join(place.root, resolved)


def link_problem(place: Place, error: LinkError) -> Problem:
    """What `diff --git` says of a profile that is a link it cannot follow (`git.link`)."""
    message = (
        f"{quoted(place.repository_path or place.path)} {error}; a profile that is a link must "
        "lead to a file in the repository"
    )
    return Problem(place.path, 0, 0, "", message, Rule.GIT_LINK)
