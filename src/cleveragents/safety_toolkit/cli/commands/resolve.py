"""`safety-profile resolve`: the effective profile of a run from its layers' files."""

from __future__ import annotations

import argparse

from ...core.floor_setting import floor_setting
from ...formats import reporter
from ...formats.base import CheckedFiles
from ..options import add_floor_options, add_format
from ..output import EXIT_INVALID, EXIT_OK, colour, emit


def add_options(resolve: argparse.ArgumentParser) -> None:
    resolve.add_argument(
        "--plan",
        metavar="FILE",
        help="a safety profile file set on the plan (default: none, the plan sets no profile)",
    )
    resolve.add_argument(
        "--action",
        metavar="FILE",
        help="an action file: its safety_profile is the action layer (default: none)",
    )
    resolve.add_argument(
        "--project",
        metavar="FILE",
        help="the project's safety profile file (default: none)",
    )
    resolve.add_argument(
        "--global",
        dest="global_profile",
        metavar="FILE",
        help="the global safety profile file (default: the built-in DEFAULT_SAFETY_PROFILE)",
    )
    add_format(resolve, "resolve")
    add_floor_options(resolve)


def run(args: argparse.Namespace) -> int:
    from ...core.resolve import resolve_files, resolve_layers
    from ...floor import Floors

    floor = floor_setting(args)
    given = resolve_layers(args)
    # A plan is resolved for the project the command runs in, from its layers' files: the
    # floors of both apply.
    resolution, problems = resolve_files(given, Floors(floor).for_resolution(list(given.values())))
    report = reporter("resolve", args.output_format, colour(args.output_format))
    if resolution is None:
        emit(report.check(CheckedFiles(tuple(given.values()), tuple(problems))))
        return EXIT_INVALID
    emit(report.resolve(resolution))
    return EXIT_INVALID if resolution.below_floor else EXIT_OK
