"""`safety-profile`: a thin shell over the toolkit. The exit code is the API:
0 all valid (for `diff`: nothing loosens), 1 a file is invalid or unreadable (or a change
loosens), 2 a usage error. Parse, run the command's handler (`commands/<name>.py`), and map
the errors it lets through to exit statuses."""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    # Start-up (the imports, the parser and the command's module) with the garbage collector
    # paused, as `check`'s own imports are (`with_gc_paused`): what it builds lives as long as
    # the process, so collections during it only cost (a thirtieth of a `check`).
    collecting = gc.isenabled()
    gc.disable()
    try:
        from ..core.usage import UsageError
        from ..floor import FloorError
        from .output import EXIT_INVALID, EXIT_USAGE, error_line, error_lines
        from .parser import build_parser, chosen_command, command_module, command_parser

        parser = build_parser(chosen_command(arguments))
    finally:
        if collecting:
            gc.freeze()
            gc.enable()
    traceback = False
    try:
        args = parser.parse_args(arguments)
        traceback = args.traceback
        try:
            return int(command_module(args.command).run(args))
        except UsageError as error:  # options argparse cannot check: as argparse's own, exit 2
            command_parser(parser, args.command).error(str(error))
    except SystemExit as exit_request:  # --help, --version, or a usage error (2)
        return exit_request.code if isinstance(exit_request.code, int) else EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except FloorError as error:  # fail closed: never "no floor"
        error_lines(str(error))
        return EXIT_USAGE
    except Exception as error:
        if traceback:
            raise
        error_line(
            f"internal error: {type(error).__name__}: {error} "
            "(run again with --traceback and report it)"
        )
        return EXIT_INVALID
