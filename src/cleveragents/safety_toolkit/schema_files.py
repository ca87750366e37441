"""Where the installed copies of the canonical schemas are (for editors and other validators)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

SCHEMA_FILE_NAMES = {"profile": "safety_profile.schema.json"}


def schema_path(kind: str = "profile") -> Path:
    """The installed schema file for `kind` (shipped as package data in `cleveragents/schemas`)."""
    # `cleveragents` is a namespace package: joinpath one level at a time.
    resource = files("cleveragents").joinpath("schemas").joinpath(SCHEMA_FILE_NAMES[kind])
    return Path(str(resource))
