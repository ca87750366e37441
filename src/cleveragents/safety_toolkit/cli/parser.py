"""The `safety-profile` parser: the top level (--version, --traceback, the commands listed with
their summaries) and, for the command that runs, its own options from its module in
`commands/` (`add_options`); the other commands' modules are not even imported."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from importlib import import_module
from types import ModuleType

from cleveragents.reading.lean_typing import TYPE_CHECKING
from cleveragents.reading.terminal_text import visible

from .help_text import COMMAND_HELP

if TYPE_CHECKING:
    from typing import Any, NoReturn

# The commands, in the order --help lists them; each is the module `commands/<name>.py`.
COMMAND_NAMES = ("check", "schema", "show", "init", "resolve", "rules", "diff", "completion", "lsp")

EPILOG = """\
examples:
  safety-profile check safety_profile.yaml
  safety-profile check --format json profiles/*.yaml
  safety-profile check --format github profiles/*.yaml   (annotations in GitHub Actions)
  safety-profile show safety_profile.yaml                (every default filled in)
  safety-profile schema --path                           (for editors and other validators)
  safety-profile init                                    (a starter safety_profile.yaml)
  safety-profile rules yaml.tab                          (what a rule means, how to fix it)
  safety-profile check --kind action actions/*.yaml      (actions and their embedded profiles)
  safety-profile resolve --action actions/deploy.yaml --project project.safety_profile.yaml
  safety-profile diff old.safety_profile.yaml new.safety_profile.yaml
  safety-profile diff --git origin/main --format github  (does a pull request loosen a profile?)

Run `safety-profile COMMAND --help` for a command's options and examples.

exit status: 0 all files valid, 1 a file is invalid or unreadable, 2 usage error
"""


class _VersionAction(argparse.Action):
    """`--version`, reading the installed metadata only when asked (it is slow to import)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> NoReturn:
        from importlib.metadata import version

        print(f"{parser.prog} {version('cleveragents-safety-profile')}")
        parser.exit()


class _TopLevelFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse measures the commands' names two columns left of where it prints them, so the
    longest (`completion`) would push its summary to the next line: count those two columns."""

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if isinstance(action, argparse._SubParsersAction):
            self._action_max_length = max(
                self._action_max_length,
                max(len(name) for name in action.choices) + self._current_indent + 2,
            )


class _Parser(argparse.ArgumentParser):
    """argparse quotes the arguments it refuses as given: escape them for the terminal. A
    value that is not one of the choices (a mistyped command, format or kind) is told the
    choice it most likely misspells, as an unknown field is (`closest_field`)."""

    # While the parser is built, argparse makes a help formatter for each option only to
    # check its metavar; one made without a width imports shutil to measure the terminal.
    building = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        if _Parser.building:  # a width that is never printed with: no shutil at start-up
            formatter_class: Any = self.formatter_class  # a HelpFormatter: it takes a width
            formatter: argparse.HelpFormatter = formatter_class(prog=self.prog, width=80)
            return formatter
        return super()._get_formatter()

    def error(self, message: str) -> NoReturn:
        super().error(visible(message, escape_backslashes=False))

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as error:
            if not isinstance(value, str) or action.choices is None:
                raise
            from cleveragents.reading.field_names import closest_field

            close = closest_field(value, [str(choice) for choice in action.choices])
            if close is None:
                raise
            raise argparse.ArgumentError(
                action, f"{error.message}; did you mean {close!r}?"
            ) from None


def command_module(name: str) -> ModuleType:
    """The module of the command `name`: its `add_options(parser)` and `run(args) -> int`."""
    return import_module(f"{__package__}.commands.{name}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command, each with its options; with `only` (a
    command's name), only that command and its options are built (the run needs no other)."""
    _Parser.building = True
    try:
        return _built_parser(only)
    finally:
        _Parser.building = False


def _built_parser(only: str | None) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="safety-profile",
        description="Check, show and describe CleverAgents Safety Profile YAML files.",
        epilog=EPILOG,
        formatter_class=_TopLevelFormatter,
    )
    parser.add_argument("--version", action=_VersionAction)
    parser.add_argument(
        "--traceback",
        action="store_true",
        help="show a traceback on internal errors, for a bug report (default: a one-line message)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # --traceback is accepted after the command too; SUPPRESS keeps the subcommand's parser
    # from resetting a --traceback given before it.
    traceback_option = _Parser(add_help=False)
    traceback_option.add_argument(
        "--traceback", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    # With `only`, the other commands' parsers are not even made (each costs argparse's set-up
    # and its translated words): a run never reaches them, and the top-level usage names no
    # command (COMMAND), so nothing a run prints can differ.
    for name in COMMAND_NAMES if only is None else (only,):
        # Its summary, description, examples and exit status from `COMMAND_HELP` (as written).
        text = COMMAND_HELP[name]
        command = commands.add_parser(
            name,
            parents=[traceback_option],
            formatter_class=argparse.RawDescriptionHelpFormatter,
            help=text.summary,
            description=text.description,
            epilog=text.epilog,
        )
        command_module(name).add_options(command)
    return parser


def chosen_command(argv: Sequence[str]) -> str | None:
    """The command `argv` names, read as argparse would (after `--traceback`); None when it
    names none (then every command is built: `--help`, `--version`, a mistyped command)."""
    for argument in argv:
        if argument != "--traceback":
            return argument if argument in COMMAND_NAMES else None
    return None


def command_parser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The parser of the command `name`, as `parser` holds it (for its usage errors)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise LookupError(name)
