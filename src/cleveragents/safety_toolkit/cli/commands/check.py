"""`safety-profile check`: validate files and report every problem."""

from __future__ import annotations

import argparse

from ...core.floor_setting import floor_setting
from ...formats import reporter
from ...formats.base import CheckedFiles
from ..options import add_floor_options, add_kind_and_format
from ..output import EXIT_INVALID, EXIT_OK, EXIT_USAGE, colour, emit, error_lines


def add_options(check: argparse.ArgumentParser) -> None:
    add_kind_and_format(check, "check")
    add_floor_options(check)
    check.add_argument(
        "files", nargs="+", metavar="FILE", help="a YAML file to check; give several at once"
    )


def run(args: argparse.Namespace) -> int:
    from ...core.check import check_files
    from ...core.kind_hint import with_hints_last
    from ...floor import Floors
    from ...git.paths import GitError

    floor = floor_setting(args)
    files = tuple(args.files)
    try:
        problems = check_files(files, args.kind, Floors(floor))
    except GitError as error:  # as `diff` stops: what git would have said is unknown
        error_lines(str(error))
        return EXIT_USAGE
    report = reporter("check", args.output_format, colour(args.output_format))
    emit(report.check(CheckedFiles(files, tuple(with_hints_last(problems)))))
    # Only an error fails a file (a warning is said; a hint accompanies errors).
    return EXIT_INVALID if any(problem.severity.fails for problem in problems) else EXIT_OK
