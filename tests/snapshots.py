"""Every CLI snapshot, every example's `.expected` file and the documentation's console
examples: one command writes them all.

From the repository root, after a change meant to alter what the CLI prints:

    .venv/bin/python -m tests.snapshots            # write them (a few seconds)
    .venv/bin/python -m tests.snapshots --check    # write nothing; exit 1 with a unified diff

then review `git diff` (the snapshots keep output one line per JSON string, so a changed line
reads as a changed line). tests/cli/test_cli_snapshots.py runs the `--check` comparison, so a
change nobody meant fails there with the same diff; it also runs the real console script on a
few of the commands and compares with the same snapshots, which proves the in-process runs
here print what a user's run prints.

Each command runs in this process through `main(argv)`, the console script's entry point,
with standard output and error captured as a real run's (UTF-8, `strict` on stdout and
`backslashreplace` on stderr as PYTHONIOENCODING=utf-8 gives; not a terminal, so no colour)
from the repository root. What is kept, by registry rather than every combination:

- every example under examples/ once, `check --kind KIND --format text FILE` as its own kind
  (an action under examples/actions/, else a profile): its problem lines are its `.expected`
  file beside it (this is their one writer). An invalid example prints at least one, exit
  status 1, the summary `1 of 1 file invalid` and nothing on standard error; a valid example
  (in a `valid` folder) prints its warnings, if any (then it has an `.expected` file too), and
  `ok: 1 file valid`, exit status 0. An example whose run does not fit that shape stops the
  tool, naming it;
- every format of FORMAT_BY_NAME, for every command it serves, on that command's
  representative cases (CASES): tests/cli_snapshots/formats.json;
- `check` of every example in one run, as either kind, in text and JSON (the order of files
  and problems, the kind hints, the closing count): tests/cli_snapshots/batches.json;
- the documentation (README.md, docs/*.md): each console block's output of a `safety-profile`
  command on this repository's files (`console_arguments` says which), and the formats each
  synopsis lists (`[--format text|json|...]`, from the registry).

Every SARIF log lists the whole rule catalogue in its driver: that list is kept once, as
printed, in tests/cli_snapshots/sarif_rules.json (see `stored`).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import os
import re
import shlex
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = REPO_ROOT / "tests" / "cli_snapshots"
FORMATS_PATH = SNAPSHOTS / "formats.json"
BATCHES_PATH = SNAPSHOTS / "batches.json"
SARIF_RULES_PATH = SNAPSHOTS / "sarif_rules.json"
EXAMPLE_FOLDERS = ("valid", "invalid", "actions/valid", "actions/invalid")
KINDS = ("profile", "action")
BATCH_FORMATS = ("text", "json")
PROGRAM = "safety-profile"

Outcome = dict[str, Any]  # {"exit": int, "stdout": str, "stderr": str}

# -- what runs ----------------------------------------------------------------------------------
VALID_PROFILE = "examples/valid/spec_example.safety_profile.yaml"
LOOSER_PROFILE = "examples/diff/unsafe_tools_no_checkpoints.safety_profile.yaml"
INVALID_PROFILE = "examples/invalid/several_problems.safety_profile.yaml"
HOSTILE_PROFILE = "examples/invalid/control_character.safety_profile.yaml"
VALID_ACTION = "examples/actions/valid/with_automation_profile.action.yaml"
INVALID_ACTION = "examples/actions/invalid/every_problem_reported.action.yaml"

# Each command's representative cases, without `--format` (every format serving the command
# is added). A format that serves a command missing here stops the tool: add its cases.
CASES: dict[str, list[list[str]]] = {
    "check": [
        ["check", "--kind", "profile", VALID_PROFILE],
        ["check", "--kind", "profile", INVALID_PROFILE],
        ["check", "--kind", "profile", HOSTILE_PROFILE],
        ["check", "--kind", "action", VALID_ACTION],
        ["check", "--kind", "action", INVALID_ACTION],
        ["check", "--kind", "action", VALID_PROFILE],  # the other kind: a hint
        ["check", "--kind", "profile", VALID_PROFILE, INVALID_PROFILE, INVALID_ACTION],
    ],
    "show": [
        ["show", "--kind", "profile", VALID_PROFILE],
        ["show", "--kind", "profile", INVALID_PROFILE],
        ["show", "--kind", "action", VALID_ACTION],
        ["show", "--kind", "action", INVALID_ACTION],
    ],
    "resolve": [
        ["resolve", "--project", VALID_PROFILE],
        ["resolve", "--project", VALID_PROFILE, "--action", VALID_ACTION],
        ["resolve", "--project", LOOSER_PROFILE, "--plan", VALID_PROFILE],
        ["resolve", "--project", INVALID_PROFILE],
        ["resolve", "--action", INVALID_ACTION],
    ],
    "diff": [
        ["diff", VALID_PROFILE, LOOSER_PROFILE],
        ["diff", LOOSER_PROFILE, VALID_PROFILE],
        ["diff", VALID_PROFILE, INVALID_PROFILE],
        ["diff", "--kind", "action", VALID_ACTION, INVALID_ACTION],
    ],
    "rules": [
        ["rules"],
        ["rules", "yaml.tab"],
    ],
}


def example_files(folder: str) -> list[str]:
    """The YAML files of one example folder, as paths from the repository root."""
    found = sorted((REPO_ROOT / "examples" / folder).glob("*.yaml"))
    return [path.relative_to(REPO_ROOT).as_posix() for path in found]


def every_example_file() -> list[str]:
    return [file for folder in EXAMPLE_FOLDERS for file in example_files(folder)]


def own_kind(file: str) -> str:
    return "action" if file.startswith("examples/actions/") else "profile"


def example_command(file: str) -> list[str]:
    """What an example's `.expected` file snapshots."""
    return ["check", "--kind", own_kind(file), "--format", "text", file]


def expected_path(file: str) -> Path:
    """`examples/invalid/x.safety_profile.yaml` -> `.../x.safety_profile.expected`."""
    return REPO_ROOT / f"{file.removesuffix('.yaml')}.expected"


def format_commands() -> dict[str, list[str]]:
    """Every format of the registry, for each command it serves, on that command's cases."""
    from cleveragents.safety_toolkit.formats import FORMAT_BY_NAME

    commands = {}
    for output_format, entry in FORMAT_BY_NAME.items():
        for command in entry.serves:
            if command not in CASES:
                raise SystemExit(
                    f"the {output_format!r} format serves {command!r}, which has no cases in "
                    "tests/snapshots.py CASES: add a few"
                )
            for case in CASES[command]:
                arguments = [case[0], "--format", output_format, *case[1:]]
                commands[shown_command(arguments)] = arguments
    return commands


def batch_commands() -> dict[str, list[str]]:
    """`check` of every example file in one process, as either kind, in text and JSON."""
    files = every_example_file()
    commands = {}
    for kind in KINDS:
        for output_format in BATCH_FORMATS:
            arguments = ["check", "--kind", kind, "--format", output_format, *files]
            commands[f"every example --kind {kind} --format {output_format}"] = arguments
    return commands


def shown_command(arguments: Sequence[str]) -> str:
    return " ".join([PROGRAM, *arguments])


# -- running the CLI in this process ------------------------------------------------------------
@contextlib.contextmanager
def _in_repository_root() -> Iterator[None]:
    before = Path.cwd()
    os.chdir(REPO_ROOT)
    try:
        yield
    finally:
        os.chdir(before)


def run_in_process(arguments: Sequence[str]) -> Outcome:
    """`safety-profile ARGUMENTS` through `main`, from the repository root, its standard
    output and error captured as a real run with PYTHONIOENCODING=utf-8 writes them."""
    from cleveragents.safety_toolkit.cli.main import main

    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", errors="strict")
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace")
    with (
        _in_repository_root(),
        contextlib.redirect_stdout(stdout),
        contextlib.redirect_stderr(stderr),
    ):
        status = main(list(arguments))
    stdout.flush()
    stderr.flush()
    return {
        "exit": status,
        "stdout": out.getvalue().decode("utf-8"),
        "stderr": err.getvalue().decode("utf-8"),
    }


# -- SARIF's rule list, kept once -----------------------------------------------------------------
RULES_PRINTED = '"rules": '
RULES_STORED = f'{RULES_PRINTED}"<the text of tests/cli_snapshots/sarif_rules.json>"'


def sarif_rules_text(stdout: str) -> str | None:
    """The driver's rule list of a one-run SARIF log, exactly as printed; None for output that
    is not such a log."""
    try:
        log = json.loads(stdout)
        start = stdout.index(RULES_PRINTED) + len(RULES_PRINTED)
        rules, end = json.JSONDecoder().raw_decode(stdout, start)
    except ValueError:
        return None
    if not isinstance(log, dict) or len(log.get("runs", [])) != 1:
        return None
    if rules != log["runs"][0]["tool"]["driver"].get("rules"):
        return None
    text: str = stdout[start:end]
    return text


def stored(outcome: Outcome, rules_text: str) -> Outcome:
    """The outcome as a snapshot keeps it: a SARIF log's rule list, when it is `rules_text`,
    replaced by RULES_STORED (and checked to come back byte for byte)."""
    if sarif_rules_text(outcome["stdout"]) != rules_text:
        return outcome
    stdout = outcome["stdout"].replace(RULES_PRINTED + rules_text, RULES_STORED, 1)
    kept = {**outcome, "stdout": stdout}
    assert restored(kept, rules_text) == outcome
    return kept


def restored(outcome: Outcome, rules_text: str) -> Outcome:
    """The outcome the CLI printed, from its snapshot: the inverse of `stored`."""
    if outcome["stdout"].count(RULES_STORED) != 1:
        return outcome
    return {
        **outcome,
        "stdout": outcome["stdout"].replace(RULES_STORED, RULES_PRINTED + rules_text),
    }


# -- the documentation's console examples --------------------------------------------------------
# A fenced block, also one indented inside a list item (its lines carry the fence's indent).
FENCED_BLOCK = re.compile(r"^( *)```(\w*)\n(.*?)^\1```$", re.MULTILINE | re.DOTALL)
# A console example runs here when its command is `safety-profile` on files of this repository
# (every YAML file it names exists here): no shell syntax (pipes, redirections, variables,
# several commands), and not `init`, which writes a file. The others show files made elsewhere
# (a git history, two versions of a file): tests/project/test_readme_examples.py's ELSEWHERE says
# where each is tested; it runs these too, in its copy of the repository.
SHELL_SYNTAX = re.compile(r"[|&;<>$`*?~]")
WRITES = {"init"}
YAML_FILE = re.compile(r"\.ya?ml\Z")


def documentation_pages() -> list[Path]:
    """README.md, then every page of the documentation site."""
    return [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]


def console_arguments(command: str) -> list[str] | None:
    """The arguments of a console example's `safety-profile ...` command (its lines joined at
    a trailing `\\`), when it runs here (see SHELL_SYNTAX); None for any other command."""
    if SHELL_SYNTAX.search(command):
        return None
    try:
        words = shlex.split(command.replace("\\\n", " "))
    except ValueError:  # an unclosed quote: not a command to run here
        return None
    if words[:1] != [PROGRAM] or len(words) < 2 or words[1] in WRITES:
        return None
    files = [word for word in words if YAML_FILE.search(word)]
    if not files or not all((REPO_ROOT / file).is_file() for file in files):
        return None
    return words[1:]


def console_block(text: str) -> str:
    """A console block (without its indent) with the output of each `$ safety-profile ...`
    command it shows replaced by what the command prints now (standard output: what a reader
    of the page sees). Other commands, and the prose of the block, are kept."""
    sessions = re.split(r"^(?=\$ )", text, flags=re.MULTILINE)
    rewritten = [sessions[0]]
    for session in sessions[1:]:
        lines = session.splitlines(keepends=True)
        command = lines.pop(0)
        while command.rstrip("\n").endswith("\\") and lines:
            command += lines.pop(0)
        arguments = console_arguments(command[2:].strip())
        if arguments is None:
            rewritten.append(session)
            continue
        outcome = run_in_process(arguments)
        if outcome["exit"] not in (0, 1) or outcome["stderr"]:
            raise SystemExit(f"the documentation's `{command.strip()}` failed: {outcome!r}")
        rewritten.append(command + outcome["stdout"])
    return "".join(rewritten)


# A synopsis in the prose: `safety-profile COMMAND ... [--format A|B|C] ...`.
# (A single `[--format json]` names one format, not the list: kept as written.)
SYNOPSIS_FORMATS = re.compile(r"(`safety-profile (\w+) [^`]*?\[--format )([a-z]+(?:\|[a-z]+)+)\]")


def synopsis_formats(text: str) -> str:
    """`text` with each synopsis' `[--format A|B|C]` listing the formats of the registry that
    serve its command, in the registry's order (as `--format`'s help lists them)."""
    from cleveragents.safety_toolkit.formats import FORMAT_BY_NAME

    def listed(synopsis: re.Match[str]) -> str:
        names = [name for name, entry in FORMAT_BY_NAME.items() if synopsis[2] in entry.serves]
        return f"{synopsis[1]}{'|'.join(names)}]"

    return SYNOPSIS_FORMATS.sub(listed, text)


def documentation_page(path: Path) -> str:
    """A documentation page with each console block's output as the CLI prints it now, and
    each synopsis' formats those of the registry."""

    def regenerated(block: re.Match[str]) -> str:
        indent, language, text = block.group(1), block.group(2), block.group(3)
        if language != "console":
            return block.group(0)
        lines = text.splitlines(keepends=True)
        outdented = "".join(line.removeprefix(indent) for line in lines)
        now = console_block(outdented)
        if now == outdented:
            return block.group(0)  # as written, blank lines' indent and all
        indented = "".join(indent + line if line.strip() else line for line in now.splitlines(True))
        return f"{indent}```{language}\n{indented}{indent}```"

    return synopsis_formats(FENCED_BLOCK.sub(regenerated, path.read_text(encoding="utf-8")))


# -- the files --------------------------------------------------------------------------------
def snapshot_text(outcomes: dict[str, Outcome], rules_text: str) -> str:
    """A snapshot file: each outcome with its output split at line ends ("\\n" only, so
    joining with "\\n" gives back the exact text), one JSON string per line."""
    kept = {}
    for name, outcome in outcomes.items():
        outcome = stored(outcome, rules_text)
        kept[name] = {
            "exit": outcome["exit"],
            "stdout": outcome["stdout"].split("\n"),
            "stderr": outcome["stderr"].split("\n"),
        }
    return json.dumps(kept, indent=1, ensure_ascii=False) + "\n"


def load_snapshot(path: Path) -> dict[str, Outcome]:
    """A snapshot file's outcomes, each as the CLI printed it."""
    rules_text = SARIF_RULES_PATH.read_text(encoding="utf-8").removesuffix("\n")
    kept: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    outcomes = {
        name: {
            "exit": outcome["exit"],
            "stdout": "\n".join(outcome["stdout"]),
            "stderr": "\n".join(outcome["stderr"]),
        }
        for name, outcome in kept.items()
    }
    return {name: restored(outcome, rules_text) for name, outcome in outcomes.items()}


def example_is_valid(file: str) -> bool:
    """Whether an example is in a `valid` folder (examples/valid, examples/actions/valid)."""
    return Path(file).parent.name == "valid"


def example_outcome(file: str, expected: str | None) -> Outcome:
    """What `example_command(file)` prints, given its `.expected` text (None: no file): the
    problem lines, then the summary; a valid example's lines are warnings, if any."""
    if example_is_valid(file):
        return {"exit": 0, "stdout": (expected or "") + "ok: 1 file valid\n", "stderr": ""}
    return {"exit": 1, "stdout": (expected or "") + "1 of 1 file invalid\n", "stderr": ""}


def expected_text(file: str, outcome: Outcome) -> str | None:
    """The `.expected` text of an example from its run (None: a valid example without
    warnings, no file); the inverse of `example_outcome`, or SystemExit when the run does not
    fit that shape (an invalid example that prints no problem, a valid one that fails)."""
    summary = example_outcome(file, None)["stdout"]
    text: str = outcome["stdout"].removesuffix(summary)
    if outcome == example_outcome(file, text) and (text or example_is_valid(file)):
        return text or None
    raise SystemExit(
        f"{shown_command(example_command(file))} printed what no .expected file can hold "
        f"(exit status {outcome['exit']}): {outcome!r}"
    )


def wanted_files() -> dict[Path, str]:
    """Every snapshot file and `.expected` file, with the text it should hold now."""
    files: dict[Path, str] = {}
    for file in every_example_file():
        text = expected_text(file, run_in_process(example_command(file)))
        if text is not None:
            files[expected_path(file)] = text
    sample = run_in_process(["check", "--format", "sarif", VALID_PROFILE])
    rules_text = sarif_rules_text(sample["stdout"])
    if rules_text is None:
        raise SystemExit(f"no rule list in a SARIF log: {sample!r}")
    files[SARIF_RULES_PATH] = rules_text + "\n"
    for path, commands in ((FORMATS_PATH, format_commands()), (BATCHES_PATH, batch_commands())):
        outcomes = {name: run_in_process(arguments) for name, arguments in commands.items()}
        files[path] = snapshot_text(outcomes, rules_text)
    for page in documentation_pages():
        files[page] = documentation_page(page)
    return files


def kept_files() -> set[Path]:
    """The snapshot and `.expected` files there are now."""
    examples = REPO_ROOT / "examples"
    expected = {
        path for folder in EXAMPLE_FOLDERS for path in (examples / folder).glob("*.expected")
    }
    return expected | set(SNAPSHOTS.rglob("*.json"))


def differences(wanted: dict[Path, str]) -> str:
    """A unified diff from the files there are to `wanted` ("" when they agree); a file to
    delete diffs to nothing."""
    chunks: list[str] = []
    for path in sorted(kept_files() | set(wanted)):
        name = path.relative_to(REPO_ROOT).as_posix()
        before = path.read_text(encoding="utf-8") if path.exists() else ""
        after = wanted.get(path, "")
        if before != after or not path.exists():
            chunks += difflib.unified_diff(
                before.splitlines(keepends=True),
                after.splitlines(keepends=True),
                f"a/{name}" if path.exists() else "/dev/null",
                f"b/{name}" if path in wanted else "/dev/null",
            )
    return "".join(line if line.endswith("\n") else line + "\n" for line in chunks)


def write(wanted: dict[Path, str]) -> list[Path]:
    """Write `wanted`, delete every other snapshot and `.expected` file; the files changed."""
    changed = []
    for path in sorted(kept_files() - set(wanted)):
        path.unlink()
        changed.append(path)
    for folder in sorted(SNAPSHOTS.rglob("*"), reverse=True):  # deepest first
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    for path, text in wanted.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.snapshots",
        description="Write every CLI snapshot and every example's .expected file.",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 and print a unified diff when a file would change",
    )
    options = parser.parse_args(argv)
    wanted = wanted_files()
    if options.check:
        diff = differences(wanted)
        sys.stdout.write(diff)
        return 1 if diff else 0
    changed = write(wanted)
    print(f"{len(wanted)} files up to date, {len(changed)} written or deleted")
    for path in changed:
        print(f"  {path.relative_to(REPO_ROOT).as_posix()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
