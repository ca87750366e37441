"""`safety-profile init`: write a starter Safety Profile."""

from __future__ import annotations

import argparse

from cleveragents.reading.terminal_text import visible

from ..output import EXIT_INVALID, EXIT_OK, EXIT_USAGE, emit, error_line


def add_options(init: argparse.ArgumentParser) -> None:
    init.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        default="safety_profile.yaml",
        help="the file to create (default: %(default)s)",
    )
    init.add_argument(
        "--schema",
        metavar="LOCATION",
        help="what the modeline points editors at: a URL, a file URI or a path relative to FILE "
        "(default: a copy of the schema in FILE's git repository, by a path relative to FILE; "
        "else the schema's published URL on the default branch until a release, then at its tag)",
    )


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ...core.starter import SchemaLocationError, create_starter_file, installed_starter_profile

    path = args.file
    shown = visible(path)
    try:
        create_starter_file(Path(path), installed_starter_profile(Path(path), args.schema))
    except SchemaLocationError as error:
        error_line(f"--schema: {error}")
        return EXIT_USAGE
    except FileExistsError:
        error_line(
            f"{shown} already exists; not overwriting it (remove it first, or pass another FILE)"
        )
        return EXIT_INVALID
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        error_line(f"cannot write {shown} ({reason})")
        return EXIT_INVALID
    options_end = "-- " if path.startswith("-") else ""
    emit(f"wrote {shown}; check it with: safety-profile check {options_end}{shown}\n")
    return EXIT_OK
