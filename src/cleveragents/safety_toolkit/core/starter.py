"""`safety-profile init`: a starter profile rendered from the schema itself, so it cannot drift
from it: every field at the schema's default, each under its description as a comment, and a
yaml-language-server modeline first so editors complete and check the file at once.

The modeline is committed with the file, so by default it points where every clone finds the
schema: at a copy of it in the file's repository, by a path relative to the file, or else at
the schema's published URL at `SCHEMA_REVISION` (`published_schema_url`), a URL that resolves."""

from __future__ import annotations

import json
import os
import re
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cleveragents.domain.models.core.rendering import yaml_value
from cleveragents.reading.files import read_regular_file

from .kinds import KINDS

COMMENT_WIDTH = 100

# The revision of the repository whose schema a modeline names when no copy is near: the
# default branch, which holds the schema from the first commit on. The schemas' `$id`s name
# the next release's tag, which does not exist until the release is made; scripts/release.py
# sets that tag here as it cuts the release (with the `$id`s), so a released package names its
# own tag, by then published.
SCHEMA_REVISION = "main"
# `$id`: https://raw.githubusercontent.com/OWNER/REPOSITORY/REVISION/PATH
_PUBLISHED_ID = re.compile(r"(https://raw\.githubusercontent\.com/[^/]+/[^/]+)/[^/]+/(.+)")


class SchemaLocationError(ValueError):
    """A modeline cannot point at this location."""


def modeline(schema_location: str) -> str:
    """The comment yaml-language-server (VS Code, Neovim, Helix, ...) reads a file's schema from."""
    # The server reads the location up to the first whitespace.
    if not schema_location or any(character.isspace() for character in schema_location):
        raise SchemaLocationError(
            f"the schema location {schema_location!r} must not be empty or contain spaces "
            "(editors read the modeline up to the first space); write a space in a file URI as %20"
        )
    return f"# yaml-language-server: $schema={schema_location}"


def published_schema_url(schema_id: str) -> str:
    """The schema's URL at `SCHEMA_REVISION`: its `$id` with the revision replaced (a `$id`
    of another shape is returned as it is)."""
    found = _PUBLISHED_ID.fullmatch(schema_id)
    return f"{found[1]}/{SCHEMA_REVISION}/{found[2]}" if found else schema_id


def _comment(text: str) -> list[str]:
    return textwrap.wrap(text, COMMENT_WIDTH, initial_indent="# ", subsequent_indent="# ")


def render_starter_profile(schema: Mapping[str, Any], schema_location: str) -> str:
    """A valid profile: the modeline, then every property of `schema` at its default."""
    lines = [
        modeline(schema_location),
        *_comment(schema["description"]),
        "# Every field below is at its default. Check the file with: safety-profile check FILE",
    ]
    for name, field in schema["properties"].items():
        lines += ["", *_comment(field["description"]), f"{name}: {yaml_value(field['default'])}"]
    return "\n".join(lines) + "\n"


def installed_starter_profile(path: Path, schema_location: str | None = None) -> str:
    """The starter profile from the installed schema, to be written at `path`; its modeline
    points at `schema_location`, by default `portable_schema_location`."""
    schema_file = KINDS["profile"].schema_path()
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    if schema_location is None:
        schema_location = portable_schema_location(path, schema["$id"], schema_file.name)
    return render_starter_profile(schema, schema_location)


def portable_schema_location(path: Path, schema_id: str, schema_name: str) -> str:
    """Where a modeline in a file at `path` finds the schema whatever the clone: the nearest
    copy of that very schema (the same `$id`, so the same release) that the file's git
    repository holds, tracked or about to be, as a path relative to the file; else the
    schema's published URL (`published_schema_url`)."""
    folder = Path(os.path.realpath(path.parent))
    copies = []
    for copy in _repository_files(folder, schema_name):
        try:  # a regular file, read no further than the loader's limit
            same = json.loads(read_regular_file(str(copy)).data).get("$id") == schema_id
        except (OSError, ValueError, AttributeError):
            continue  # unreadable, not JSON, or not an object: not the schema
        relative = Path(os.path.relpath(copy, folder)).as_posix()
        # Editors read the modeline up to the first space.
        if same and not any(character.isspace() for character in relative):
            copies.append((relative.count("/"), relative))
    return min(copies)[1] if copies else published_schema_url(schema_id)


def _repository_files(folder: Path, name: str) -> list[Path]:
    """The files called `name` in the git repository around `folder`, tracked or untracked but
    not ignored (none outside a repository, or without git)."""

    from ..git.objects import GitError
    from ..git.objects import git as run_git

    def git(*args: str) -> str | None:
        try:
            # Not literal: the pattern below is pathspec magic.
            output = run_git(folder, *args, literal_pathspecs=False)
        except (GitError, OSError):  # no git, no folder, not a repository
            return None
        # Names are bytes: any that are not UTF-8 come back as they are on disk.
        return os.fsdecode(output)

    top = git("rev-parse", "--show-toplevel")
    listed = git(
        "ls-files",
        "-z",
        "--full-name",
        "--cached",
        "--others",
        "--exclude-standard",
        "--",
        f":(top,glob)**/{name}",
    )
    if top is None or listed is None:
        return []
    root = Path(top.removesuffix("\n"))
    return [root / entry for entry in dict.fromkeys(listed.split("\0")) if entry]


def create_starter_file(path: Path, text: str) -> None:
    """Write `text` to a new file at `path`.

    Raises FileExistsError, without touching it, when anything already exists at `path`
    (exclusive creation: no window between checking and writing); OSError when it cannot be
    written."""
    with path.open("x", encoding="utf-8", newline="\n") as stream:
        stream.write(text)
