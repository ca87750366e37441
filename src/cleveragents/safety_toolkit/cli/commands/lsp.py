"""`safety-profile lsp`: the language server, over standard input and output."""

from __future__ import annotations

import argparse

from ..output import EXIT_OK, EXIT_USAGE, error_line


def add_options(lsp: argparse.ArgumentParser) -> None:
    # Editors' configurations often pass --stdio; standard input and output is the only way.
    lsp.add_argument(
        "--stdio",
        action="store_true",
        help="serve over standard input and output, the only transport (default: on)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        from ...lsp.server import serve
    except ImportError as error:
        if error.name is None or error.name.split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        error_line(
            "the language server needs the lsp extra: "
            "pip install 'cleveragents-safety-profile[lsp]'"
        )
        return EXIT_USAGE
    serve()
    return EXIT_OK
