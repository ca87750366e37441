"""A file's content at HEAD, for the language server's notes on what loosens while you type.

HEAD is the commit it names exactly (`objects.head_commit`). The file is found by listing that
commit's tree for its literal path (`git/objects.py`'s `git` gives git `--literal-pathspecs`,
so a name such as `?.safety_profile.yaml` or `:(glob)x` is only itself) and read by the object
id that listing gives: no `REV:path` syntax for a name to play with.
When the file, or a folder above it, is a link at HEAD, it is what the link leads to in HEAD's
tree, followed inside the repository as `diff --git` follows it."""

from __future__ import annotations

import os
from pathlib import Path

from .links import Links
from .objects import LINK, GitError, LinkError, Tree, head_listing, read_blobs

__all__ = ["blob_id", "head_version"]

_REGULAR_FILES = ("100644", "100755")


def blob_id(data: bytes, length: int) -> str | None:
    """The id git gives a blob holding `data`, as `length` hex digits name it: SHA-1 of
    `blob <size>NUL` and the bytes (40), or SHA-256 for a repository of that object format
    (64); None for any other length."""
    blob = b"blob %d\0" % len(data) + data
    if length == 40:
        try:  # Python's own SHA-1: hashlib, with OpenSSL's, is 5 ms of the editor's first open
            from _sha1 import sha1  # type: ignore[import-not-found]  # (no type stubs)
        except ImportError:  # pragma: no cover - a Python built without it
            from hashlib import sha1
        return str(sha1(blob).hexdigest())
    if length == 64:
        import hashlib

        return hashlib.sha256(blob).hexdigest()
    return None


def head_version(root: str, path: str, on_disk: bytes | None = None) -> bytes | None:
    """The bytes of the file at repository path `path` (with `/`) as committed at HEAD in the
    repository at `root`; None before the first commit, when HEAD has no file there, or when
    its links lead nowhere or out of the repository. `on_disk`: the bytes the file holds on
    disk, when read; when HEAD's blob has their id, they are its bytes, and no `cat-file` runs
    (a file opened unchanged since the last commit: one git process, not two)."""
    parts = path.split("/")
    names = ["/".join(parts[:end]) for end in range(1, len(parts) + 1)]
    try:
        # HEAD itself, never a ref named HEAD (see head_commit)
        found = head_listing(root, "-z", "--full-tree", "HEAD", "--", *names)
        if found is None:
            return None
        commit, listing = found
        entries = {}
        for field in filter(None, os.fsdecode(listing).split("\0")):
            entry, _, listed = field.partition("\t")
            mode, kind, object_id = entry.split()
            entries[listed] = (mode, kind, object_id)
        if any(mode == LINK for mode, _, _ in entries.values()):
            tree = Tree.of_revision(Path(root), commit, "HEAD")
            try:
                target = Links(tree).resolve(path)
                return tree.read([target])[target]
            finally:
                tree.close()  # its cat-file process
        mode, kind, object_id = entries.get(path, ("", "", ""))
        if kind != "blob" or mode not in _REGULAR_FILES:
            return None  # not in HEAD's tree, or a submodule there
        if on_disk is not None and blob_id(on_disk, len(object_id)) == object_id.lower():
            return on_disk
        return read_blobs(Path(root), {path: object_id})[path]
    except (GitError, LinkError, ValueError, OSError):
        return None
