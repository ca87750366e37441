"""The options several commands share: the document kind, the report format and the floor."""

from __future__ import annotations

import argparse

from ..core.kinds import KINDS
from ..formats import format_help, format_names
from .help_text import ADD_FLOOR_HELP, FLOOR_HELP, KIND_HELP, NO_FLOOR_HELP


def add_kind(command: argparse.ArgumentParser) -> None:
    """`--kind`: the document kind, a profile by default."""
    command.add_argument("--kind", choices=sorted(KINDS), default="profile", help=KIND_HELP)


def add_kind_and_format(command: argparse.ArgumentParser, name: str) -> None:
    """The options `check` and `diff` share: the document kind and the report format."""
    add_kind(command)
    add_format(command, name)


def add_format(command: argparse.ArgumentParser, name: str) -> None:
    """`--format`: the formats that render the command's report, from the one registry."""
    command.add_argument(
        "--format",
        dest="output_format",
        choices=format_names(name),
        default="text",
        help=format_help(name),
    )


def add_floor_options(command: argparse.ArgumentParser) -> None:
    """--floor and --no-floor, for the commands that hold profiles to the floor."""
    command.add_argument("--floor", metavar="FLOOR", help=FLOOR_HELP)
    command.add_argument("--no-floor", action="store_true", help=NO_FLOOR_HELP)
    command.add_argument("--add-floor", metavar="FLOOR", action="append", help=ADD_FLOOR_HELP)
