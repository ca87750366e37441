"""`safety-profile init`: a starter profile rendered from the schema itself, so it cannot drift
from it: every field at the schema's default, each under its description as a comment, and a
yaml-language-server modeline first so editors complete and check the file at once."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .kinds import KINDS
from .rendering import yaml_value

COMMENT_WIDTH = 100


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


def installed_starter_profile(schema_location: str | None = None) -> str:
    """The starter profile from the installed schema; its modeline points at `schema_location`,
    by default the installed schema file itself (a file URI: it works offline)."""
    schema_file = KINDS["profile"].schema_path()
    location = schema_file.resolve().as_uri() if schema_location is None else schema_location
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    return render_starter_profile(schema, location)


def create_starter_file(path: Path, text: str) -> None:
    """Write `text` to a new file at `path`.

    Raises FileExistsError, without touching it, when anything already exists at `path`
    (exclusive creation: no window between checking and writing); OSError when it cannot be
    written."""
    with path.open("x", encoding="utf-8", newline="\n") as stream:
        stream.write(text)
