"""`safety-profile`: a thin shell over the toolkit. The exit code is the API:
0 all valid (for `diff`: nothing loosens), 1 a file is invalid or unreadable (or a change
loosens), 2 a usage error."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, NoReturn, cast

from cleveragents.reading.terminal_text import visible

from ..core.floor_setting import floor_setting
from ..core.kinds import KINDS
from ..core.usage import UsageError
from ..floor import FloorError, FloorSetting
from ..formats import format_help, format_names, reporter
from ..formats.base import CheckedFiles
from .help_text import ADD_FLOOR_HELP, COMMAND_HELP, FLOOR_HELP, KIND_HELP, NO_FLOOR_HELP

# The shells `safety-profile completion` writes a script for (shtab writes them).
COMPLETION_SHELLS = ("bash", "zsh", "fish")

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2

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


DIFF_USAGE = """\
safety-profile diff [OPTIONS] OLD NEW
       safety-profile diff [OPTIONS] --git REV [--staged | --to REV2] [PATH ...]
       safety-profile diff [OPTIONS] --pre-commit [PATH ...]"""

SKIP_HINT = (
    "an intended loosening? commit it with the hook skipped once: "
    "SKIP=safety-profile-loosening git commit ...\n"
)


class _VersionAction(argparse.Action):
    """`--version`, reading the installed metadata only when asked (it is slow to import)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> NoReturn:
        from importlib.metadata import version

        print(f"{parser.prog} {version('cleveragents-safety-profile')}")
        parser.exit()


def _emit(text: str) -> None:
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


def _colour(output_format: str) -> bool:
    """Whether a report in `output_format` is coloured: text only, to a terminal."""
    # https://no-color.org: any non-empty NO_COLOR turns colour off.
    if output_format != "text" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def _error_line(text: str) -> None:
    """One line on standard error; file names in `text` are already `visible`, and anything
    else from outside is made so here (messages quote it with repr)."""
    print(f"safety-profile: {visible(text, escape_backslashes=False)}", file=sys.stderr)


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
            return cast(argparse.HelpFormatter, formatter_class(prog=self.prog, width=80))
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


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command, each with its options; with `only` (a
    command's name), only that command's options are built (the run needs no other: the
    others are listed, by name and summary, as choices of COMMAND)."""

    _Parser.building = True
    try:
        return _built_parser(only)
    finally:
        _Parser.building = False


def _built_parser(only: str | None) -> argparse.ArgumentParser:
    def wanted(name: str) -> bool:
        return only is None or name == only

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

    def add_command(name: str, **options: Any) -> argparse.ArgumentParser:
        """A subcommand, with its summary, description, examples and exit status from
        `COMMAND_HELP` (shown as written)."""
        if name in COMMAND_HELP:
            text = COMMAND_HELP[name]
            written = {"help": text.summary, "description": text.description}
            options = {**written, "epilog": text.epilog, **options}
        return commands.add_parser(
            name,
            parents=[traceback_option],
            formatter_class=argparse.RawDescriptionHelpFormatter,
            **options,
        )

    for name, add_options, handler in _COMMANDS:
        if name == "diff":
            description = COMMAND_HELP["diff"].description
            if wanted(name):  # its description lists the strictness rules
                description = description.format(rules=_strictness_rules_text())
            command = add_command(name, usage=DIFF_USAGE, description=description)
        else:
            command = add_command(name)
        if wanted(name):
            add_options(command)
        command.set_defaults(handler=handler(command))
    return parser


def _add_kind_and_format(command: argparse.ArgumentParser, name: str) -> None:
    """The options `check` and `diff` share: the document kind and the report format."""
    command.add_argument("--kind", choices=sorted(KINDS), default="profile", help=KIND_HELP)
    _add_format(command, name)


def _add_format(command: argparse.ArgumentParser, name: str) -> None:
    """`--format`: the formats that render the command's report, from the one registry."""
    command.add_argument(
        "--format",
        dest="output_format",
        choices=format_names(name),
        default="text",
        help=format_help(name),
    )


def _add_floor_options(command: argparse.ArgumentParser) -> None:
    """--floor and --no-floor, for the commands that hold profiles to the floor."""
    command.add_argument("--floor", metavar="FLOOR", help=FLOOR_HELP)
    command.add_argument("--no-floor", action="store_true", help=NO_FLOOR_HELP)
    command.add_argument("--add-floor", metavar="FLOOR", action="append", help=ADD_FLOOR_HELP)


def _add_check_options(check: argparse.ArgumentParser) -> None:
    _add_kind_and_format(check, "check")
    _add_floor_options(check)
    check.add_argument(
        "files", nargs="+", metavar="FILE", help="a YAML file to check; give several at once"
    )


def _add_schema_options(schema: argparse.ArgumentParser) -> None:
    schema.add_argument(
        "--kind",
        choices=sorted(KINDS),
        default="profile",
        help="which schema: profile, the Safety Profile's; action, the action's "
        "(default: %(default)s)",
    )
    schema.add_argument(
        "--path",
        action="store_true",
        help="print the installed schema file's path, not the schema (default: the schema)",
    )


def _add_show_options(show: argparse.ArgumentParser) -> None:
    show.add_argument("--kind", choices=sorted(KINDS), default="profile", help=KIND_HELP)
    _add_format(show, "show")
    show.add_argument("file", metavar="FILE", help="the YAML file to show")


def _add_init_options(init: argparse.ArgumentParser) -> None:
    init.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        default="safety_profile.yaml",
        help="the file to create (default: %(default)s)",
    )
    init.add_argument(
        "--schema",
        metavar="LOCATION",
        help="what the modeline points editors at: a URL, a file URI or a path relative to FILE "
        "(default: a copy of the schema in FILE's git repository, by a path relative to FILE; "
        "else the schema's published URL on the default branch until a release, then at its tag)",
    )


def _add_resolve_options(resolve: argparse.ArgumentParser) -> None:
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
    _add_format(resolve, "resolve")
    _add_floor_options(resolve)


def _add_rules_options(rules: argparse.ArgumentParser) -> None:
    rules.add_argument(
        "rule",
        nargs="?",
        metavar="ID",
        help="the rule to explain, e.g. yaml.tab (default: list every rule)",
    )
    _add_format(rules, "rules")


def _add_diff_options(diff: argparse.ArgumentParser) -> None:
    _add_kind_and_format(diff, "diff")
    _add_floor_options(diff)
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


def _add_completion_options(completion: argparse.ArgumentParser) -> None:
    completion.add_argument(
        "shell",
        metavar="SHELL",
        choices=list(COMPLETION_SHELLS),
        help="bash, zsh or fish: the shell the script is for",
    )


def _add_lsp_options(lsp: argparse.ArgumentParser) -> None:
    # Editors' configurations often pass --stdio; standard input and output is the only way.
    lsp.add_argument(
        "--stdio",
        action="store_true",
        help="serve over standard input and output, the only transport (default: on)",
    )


def _strictness_rules_text() -> str:
    """Which value of each field is stricter, as the rule catalogue says, one line each."""
    from cleveragents.reading.rules import STRICTER

    width = max(map(len, STRICTER))
    return "\n".join(f"  {field:<{width}}  {stricter}" for field, stricter in STRICTER.items())


def _checked_floor(parser: argparse.ArgumentParser, args: argparse.Namespace) -> FloorSetting:
    """--floor or --no-floor, as given; a usage error (exit 2) for both at once."""
    try:
        return floor_setting(args)
    except UsageError as error:
        parser.error(str(error))


def run_check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from ..core.check import check_files
    from ..core.kind_hint import with_hints_last
    from ..floor import Floors
    from ..git.paths import GitError

    floor = _checked_floor(parser, args)
    files = tuple(args.files)
    try:
        problems = check_files(files, args.kind, Floors(floor))
    except GitError as error:  # as `diff` stops: what git would have said is unknown
        for line in str(error).splitlines():
            _error_line(line)
        return EXIT_USAGE
    report = reporter("check", args.output_format, _colour(args.output_format))
    _emit(report.check(CheckedFiles(files, tuple(with_hints_last(problems)))))
    # Only an error fails a file (a warning is said; a hint accompanies errors).
    return EXIT_INVALID if any(problem.severity.fails for problem in problems) else EXIT_OK


def run_schema(args: argparse.Namespace) -> int:
    schema_file = KINDS[args.kind].schema_path()
    if args.path:
        _emit(f"{schema_file}\n")
    else:
        _emit(schema_file.read_text(encoding="utf-8"))
    return EXIT_OK


def run_show(args: argparse.Namespace) -> int:
    from cleveragents.domain.models.core.document_values import shown_document
    from cleveragents.reading.loaded_file import load_file

    from ..core.check import Checker

    path = args.file
    checked, problems = Checker(args.kind).check(load_file(path), path)
    valid = checked.valid
    document = None if valid is None else shown_document(KINDS[args.kind].schema(), valid)
    shown = reporter("show", args.output_format, _colour(args.output_format))
    _emit(shown.show(document, problems, path, args.kind))
    return EXIT_INVALID if document is None else EXIT_OK


def run_completion(args: argparse.Namespace) -> int:
    from .completion import completion_script

    _emit(completion_script(build_parser(), args.shell))
    return EXIT_OK


def run_init(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..core.starter import SchemaLocationError, create_starter_file, installed_starter_profile

    path = args.file
    shown = visible(path)
    try:
        create_starter_file(Path(path), installed_starter_profile(Path(path), args.schema))
    except SchemaLocationError as error:
        _error_line(f"--schema: {error}")
        return EXIT_USAGE
    except FileExistsError:
        _error_line(
            f"{shown} already exists; not overwriting it (remove it first, or pass another FILE)"
        )
        return EXIT_INVALID
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        _error_line(f"cannot write {shown} ({reason})")
        return EXIT_INVALID
    options_end = "-- " if path.startswith("-") else ""
    _emit(f"wrote {shown}; check it with: safety-profile check {options_end}{shown}\n")
    return EXIT_OK


def run_resolve(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from ..core.resolve import resolve_files, resolve_layers
    from ..floor import Floors

    floor = _checked_floor(parser, args)
    given = resolve_layers(args)
    # A plan is resolved for the project the command runs in, from its layers' files: the
    # floors of both apply.
    resolution, problems = resolve_files(given, Floors(floor).for_resolution(list(given.values())))
    report = reporter("resolve", args.output_format, _colour(args.output_format))
    if resolution is None:
        _emit(report.check(CheckedFiles(tuple(given.values()), tuple(problems))))
        return EXIT_INVALID
    _emit(report.resolve(resolution))
    return EXIT_INVALID if resolution.below_floor else EXIT_OK


def run_rules(args: argparse.Namespace) -> int:
    from cleveragents.reading.rules import find_rule

    rule = None if args.rule is None else find_rule(args.rule)
    if args.rule is not None and rule is None:
        _error_line(f"no rule {args.rule!r}; `safety-profile rules` lists them")
        return EXIT_USAGE
    if rule is not None and rule != args.rule:
        _error_line(f"note: rule {args.rule!r} is now {rule.value!r}")
    _emit(reporter("rules", args.output_format).rules(rule))
    return EXIT_OK


def run_diff(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from ..core.diff import DiffReport, diff_files, diff_options, load_baseline
    from ..core.git_diff import GitComparison, GitError, diff_against_git, pre_commit_comparison
    from ..floor import Floors

    try:
        options = diff_options(args, _colour(args.output_format))
    except UsageError as error:
        parser.error(str(error))  # exits 2, with diff's usage

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
        for line in str(error).splitlines():
            _error_line(line)
        return EXIT_USAGE
    _emit(reporter("diff", options.output_format, options.colour).diff(report))
    if options.pre_commit and report.failed and not report.problems and report.loosens_itself:
        # Not for a floor alone: skipping the hook is not the way past the floor. On standard
        # error: json and sarif on standard output stay one document.
        sys.stderr.write(SKIP_HINT)
    return EXIT_INVALID if report.failed else EXIT_OK


def run_lsp(args: argparse.Namespace) -> int:
    try:
        from ..lsp.server import serve
    except ImportError as error:
        if error.name is None or error.name.split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        _error_line(
            "the language server needs the lsp extra: "
            "pip install 'cleveragents-safety-profile[lsp]'"
        )
        return EXIT_USAGE
    serve()
    return EXIT_OK


# Each command: its name, what adds its options, and its handler (given its parser).
_COMMANDS: tuple[
    tuple[
        str,
        Callable[[argparse.ArgumentParser], None],
        Callable[[argparse.ArgumentParser], Callable[[argparse.Namespace], int]],
    ],
    ...,
] = (
    ("check", _add_check_options, lambda parser: partial(run_check, parser)),
    ("schema", _add_schema_options, lambda parser: run_schema),
    ("show", _add_show_options, lambda parser: run_show),
    ("init", _add_init_options, lambda parser: run_init),
    ("resolve", _add_resolve_options, lambda parser: partial(run_resolve, parser)),
    ("rules", _add_rules_options, lambda parser: run_rules),
    ("diff", _add_diff_options, lambda parser: partial(run_diff, parser)),
    ("completion", _add_completion_options, lambda parser: run_completion),
    ("lsp", _add_lsp_options, lambda parser: run_lsp),
)
COMMAND_NAMES = tuple(name for name, _, _ in _COMMANDS)


def _chosen_command(argv: Sequence[str]) -> str | None:
    """The command `argv` names, read as argparse would (after `--traceback`); None when it
    names none (then every command is built: `--help`, `--version`, a mistyped command)."""
    for argument in argv:
        if argument != "--traceback":
            return argument if argument in COMMAND_NAMES else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_chosen_command(arguments))
    try:
        args = parser.parse_args(arguments)
        # The command's own handler, chosen by the parser (set_defaults); it checks what
        # argparse cannot (in the command's module) before doing anything.
        return int(args.handler(args))
    except SystemExit as exit_request:  # --help, --version, or a usage error (2)
        return exit_request.code if isinstance(exit_request.code, int) else EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except FloorError as error:  # fail closed: never "no floor"
        for line in str(error).splitlines():
            _error_line(line)
        return EXIT_USAGE
    except Exception as error:
        if args.traceback:
            raise
        _error_line(
            f"internal error: {type(error).__name__}: {error} "
            "(run again with --traceback and report it)"
        )
        return EXIT_INVALID
