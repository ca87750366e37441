"""The floor options as the command line gives them (`--floor`, `--no-floor`, `--add-floor`),
checked: a `UsageError` (exit 2) for `--floor` and `--no-floor` at once."""

from __future__ import annotations

import argparse

from ..floor import FloorSetting
from .usage import UsageError

__all__ = ["floor_setting"]


def floor_setting(args: argparse.Namespace) -> FloorSetting:
    """--floor, --no-floor and --add-floor as given on the command line; UsageError for
    --floor and --no-floor at once."""
    if args.floor is not None and args.no_floor:
        raise UsageError("--floor and --no-floor do not go together; choose one")
    return FloorSetting(args.floor, args.no_floor, tuple(getattr(args, "add_floor", None) or ()))
