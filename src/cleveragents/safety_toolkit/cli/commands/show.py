"""`safety-profile show`: the effective document, every default filled in."""

from __future__ import annotations

import argparse

from ...core.kinds import KINDS
from ...formats import reporter
from ..options import add_format, add_kind
from ..output import EXIT_INVALID, EXIT_OK, colour, emit


def add_options(show: argparse.ArgumentParser) -> None:
    add_kind(show)
    add_format(show, "show")
    show.add_argument("file", metavar="FILE", help="the YAML file to show")


def run(args: argparse.Namespace) -> int:
    from cleveragents.domain.models.core.document_values import shown_document
    from cleveragents.reading.loaded_file import load_file

    from ...core.check import Checker

    path = args.file
    checked, problems = Checker(args.kind).check(load_file(path), path)
    valid = checked.valid
    document = None if valid is None else shown_document(KINDS[args.kind].schema(), valid)
    shown = reporter("show", args.output_format, colour(args.output_format))
    emit(shown.show(document, problems, path, args.kind))
    return EXIT_INVALID if document is None else EXIT_OK
