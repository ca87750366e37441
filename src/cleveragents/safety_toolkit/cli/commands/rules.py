"""`safety-profile rules`: what a rule means and how to fix it, or every rule."""

from __future__ import annotations

import argparse

from ...formats import reporter
from ..options import add_format
from ..output import EXIT_OK, EXIT_USAGE, emit, error_line


def add_options(rules: argparse.ArgumentParser) -> None:
    rules.add_argument(
        "rule",
        nargs="?",
        metavar="ID",
        help="the rule to explain, e.g. yaml.tab (default: list every rule)",
    )
    add_format(rules, "rules")


def run(args: argparse.Namespace) -> int:
    from cleveragents.reading.rules import find_rule

    rule = None if args.rule is None else find_rule(args.rule)
    if args.rule is not None and rule is None:
        error_line(f"no rule {args.rule!r}; `safety-profile rules` lists them")
        return EXIT_USAGE
    if rule is not None and rule != args.rule:
        error_line(f"note: rule {args.rule!r} is now {rule.value!r}")
    emit(reporter("rules", args.output_format).rules(rule))
    return EXIT_OK
