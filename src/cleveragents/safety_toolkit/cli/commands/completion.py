"""`safety-profile completion`: a shell completion script, from the parser itself."""

from __future__ import annotations

import argparse

from ..output import EXIT_OK, emit

# The shells `safety-profile completion` writes a script for (shtab writes them).
COMPLETION_SHELLS = ("bash", "zsh", "fish")


def add_options(completion: argparse.ArgumentParser) -> None:
    completion.add_argument(
        "shell",
        metavar="SHELL",
        choices=list(COMPLETION_SHELLS),
        help="bash, zsh or fish: the shell the script is for",
    )


def run(args: argparse.Namespace) -> int:
    from ..completion import completion_script
    from ..parser import build_parser

    emit(completion_script(build_parser(), args.shell))
    return EXIT_OK
