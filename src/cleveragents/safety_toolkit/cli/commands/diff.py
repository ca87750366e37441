"""`safety-profile diff`: does a change loosen a profile (two files, or against git)?"""

from __future__ import annotations

import argparse
import os
import sys

from ...formats import reporter
from ..help_text import COMMAND_HELP
from ..options import add_floor_options, add_kind_and_format
from ..output import EXIT_INVALID, EXIT_OK, EXIT_USAGE, colour, emit, error_lines

USAGE = """\
safety-profile diff [OPTIONS] OLD NEW
       safety-profile diff [OPTIONS] --git REV [--staged | --to REV2] [PATH ...]
       safety-profile diff [OPTIONS] --pre-commit [PATH ...]"""

SKIP_HINT = (
    "an intended loosening? commit it with the hook skipped once: "
    "SKIP=safety-profile-loosening git commit ...\n"
)


def add_options(diff: argparse.ArgumentParser) -> None:
    diff.usage = USAGE
    # Its description lists the strictness rules.
    diff.description = COMMAND_HELP["diff"].description.format(rules=_strictness_rules_text())
    add_kind_and_format(diff, "diff")
    add_floor_options(diff)
    diff.add_argument(
        "--git",
        metavar="REV",
        help="compare the files with their content at REV, a commit, branch or tag "
        "(default: compare two files, OLD NEW)",
    )
    diff.add_argument(
        "--staged",
        action="store_true",
        help="with --git: compare REV with the staged content (default: the working tree)",
    )
    diff.add_argument(
        "--to",
        metavar="REV2",
        help="with --git: compare REV with REV2 (default: the working tree)",
    )
    diff.add_argument(
        "--baseline",
        metavar="FILE",
        help="with --git or --pre-commit: the safety profile an added profile is compared "
        "with, each looser field a loosening (default: DEFAULT_SAFETY_PROFILE)",
    )
    diff.add_argument(
        "--pre-commit",
        action="store_true",
        help="what the pre-commit hook runs, see above (default: off)",
    )
    diff.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="OLD NEW; with --git or --pre-commit, files or folders to compare",
    )


def _strictness_rules_text() -> str:
    """Which value of each field is stricter, as the rule catalogue says, one line each."""
    from cleveragents.reading.rules import STRICTER

    width = max(map(len, STRICTER))
    return "\n".join(f"  {field:<{width}}  {stricter}" for field, stricter in STRICTER.items())


def run(args: argparse.Namespace) -> int:
    from ...core.diff import DiffReport, diff_files, diff_options, load_baseline
    from ...core.git_diff import GitComparison, GitError, diff_against_git, pre_commit_comparison
    from ...core.kinds import KINDS
    from ...floor import Floors

    options = diff_options(args, colour(args.output_format))  # UsageError: exit 2, the usage
    kind = KINDS[options.kind]
    try:
        if options.git is None and not options.pre_commit:
            report = diff_files(kind, *options.paths)
        else:
            git = (
                GitComparison(options.git, new_rev=options.to, staged=options.staged)
                if options.git is not None
                else pre_commit_comparison(os.environ)
            )
            # Without --baseline, an added profile is compared with its floor, else with the
            # built-in default.
            baseline = None if options.baseline is None else load_baseline(options.baseline)
            if isinstance(baseline, DiffReport):  # the baseline itself is invalid
                report = baseline
            else:
                # The pre-commit stage's loosening hook leaves an invalid staged file's problems
                # to the check hook, which checks those very bytes (pre-commit stashes what is
                # not staged); on a push, that hook reads the working tree, not the commits.
                defer = options.pre_commit and git.staged
                report = diff_against_git(
                    kind,
                    git,
                    options.paths,
                    baseline=baseline,
                    floors=Floors(options.floor),
                    defer_invalid=defer,
                )
    except GitError as error:
        error_lines(str(error))
        return EXIT_USAGE
    emit(reporter("diff", options.output_format, options.colour).diff(report))
    if options.pre_commit and report.failed and not report.problems and report.loosens_itself:
        # Not for a floor alone: skipping the hook is not the way past the floor. On standard
        # error: json and sarif on standard output stay one document.
        sys.stderr.write(SKIP_HINT)
    return EXIT_INVALID if report.failed else EXIT_OK
