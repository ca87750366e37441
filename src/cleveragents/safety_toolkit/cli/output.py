"""Writing a command's report and errors, and the exit statuses (the exit code is the API)."""

from __future__ import annotations

import os
import sys

from cleveragents.reading.terminal_text import visible

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def emit(text: str) -> None:
    """Write to standard output. A reader that went away (`| head`) must not change the exit
    status, which is the API: the rest of the output is dropped, the status stands."""
    try:
        try:
            sys.stdout.write(text)
        except UnicodeEncodeError:
            # An output encoding that cannot hold a character (PYTHONIOENCODING=ascii): write
            # it as a backslash escape rather than lose the whole report.
            sys.stdout.flush()
            sys.stdout.buffer.write(text.encode(sys.stdout.encoding, "backslashreplace"))
        sys.stdout.flush()
    except BrokenPipeError:
        # Point stdout at /dev/null, or Python reports the pipe again when it flushes at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def colour(output_format: str) -> bool:
    """Whether a report in `output_format` is coloured: text only, to a terminal."""
    # https://no-color.org: any non-empty NO_COLOR turns colour off.
    if output_format != "text" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def error_line(text: str) -> None:
    """One line on standard error; file names in `text` are already `visible`, and anything
    else from outside is made so here (messages quote it with repr)."""
    print(f"safety-profile: {visible(text, escape_backslashes=False)}", file=sys.stderr)


def error_lines(text: str) -> None:
    """Each line of `text` by `error_line`."""
    for line in text.splitlines():
        error_line(line)
