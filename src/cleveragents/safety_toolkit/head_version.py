"""A file's content at HEAD, for the language server's notes on what loosens while you type.

The file is found by listing HEAD's tree for its literal path (`git_objects.git` gives git
`--literal-pathspecs`, so a name such as `?.safety_profile.yaml` or `:(glob)x` is only itself)
and read by the object id that listing gives: no `REV:path` syntax for a name to play with."""

from __future__ import annotations

import os

from .git_objects import GitError, git, read_blobs
from .git_versions import Repository

__all__ = ["head_version"]

_REGULAR_FILES = ("100644", "100755")


def head_version(path: str) -> bytes | None:
    """The bytes of the file at `path` as committed at HEAD; None outside a git repository,
    before the first commit, or when HEAD has no regular file there."""
    try:
        absolute = os.path.abspath(path)
        repository = Repository(os.path.dirname(absolute))
        wanted = repository.repository_path(absolute)
        listing = git(repository.root, "ls-tree", "-z", "--full-tree", "HEAD", "--", wanted)
        entry, _, listed = os.fsdecode(listing).split("\0", 1)[0].partition("\t")
        if listed != wanted:
            return None  # not in HEAD's tree
        mode, kind, object_id = entry.split()
        if kind != "blob" or mode not in _REGULAR_FILES:
            return None  # a link at HEAD means what it points to: not compared here
        return read_blobs(repository.root, {wanted: object_id})[wanted]
    except (GitError, ValueError, OSError):
        return None
