"""`safety-profile schema`: print a kind's JSON Schema, or its file's path."""

from __future__ import annotations

import argparse

from ...core.kinds import KINDS
from ..output import EXIT_OK, emit


def add_options(schema: argparse.ArgumentParser) -> None:
    schema.add_argument(
        "--kind",
        choices=sorted(KINDS),
        default="profile",
        help="which schema: profile, the Safety Profile's; action, the action's "
        "(default: %(default)s)",
    )
    schema.add_argument(
        "--path",
        action="store_true",
        help="print the installed schema file's path, not the schema (default: the schema)",
    )


def run(args: argparse.Namespace) -> int:
    schema_file = KINDS[args.kind].schema_path()
    if args.path:
        emit(f"{schema_file}\n")
    else:
        emit(schema_file.read_text(encoding="utf-8"))
    return EXIT_OK
