"""Every subcommand and option of `safety-profile` explains itself in `--help`: a description,
help for each option with its default and each of its choices, and examples that work.

The examples are run for real, in a folder holding the files they name."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import EXAMPLES
from git_repos import git
from programs import BIN, run_program

from cleveragents.safety_toolkit.cli.parser import EPILOG, build_parser


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (choices,) = [
        action.choices
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
    ]
    return dict(choices)


def documented_options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Every argument but -h and the --traceback every subcommand repeats (hidden there: the
    top level documents it)."""
    return [
        action
        for action in parser._actions
        if not isinstance(action, argparse._HelpAction) and action.help != argparse.SUPPRESS
    ]


def expanded_help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    return parser._get_formatter()._expand_help(action)


COMMANDS = sorted(subcommands())


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_has_help_with_its_default_and_choices(name: str) -> None:
    parser = subcommands()[name]
    assert parser.description, f"{name} has no description"
    options = documented_options(parser)
    assert options, name
    for action in options:
        text = expanded_help(parser, action)
        where = f"{name} {'/'.join(action.option_strings) or action.metavar}"
        assert len(text) > 15, f"{where}: no help"
        if action.option_strings or action.nargs == "?":  # optional: say what happens without
            assert "(default: " in text, f"{where}: no default in {text!r}"
        if action.default not in (None, False):
            assert f"(default: {action.default})" in text, f"{where}: {text!r}"
        for choice in action.choices or ():
            assert re.search(rf"\b{choice}\b", text), f"{where}: choice {choice} not explained"


@pytest.mark.parametrize("name", COMMANDS)
def test_help_ends_with_examples_of_the_command_and_its_exit_status(name: str) -> None:
    result = run_program("safety-profile", name, "--help")
    assert result.returncode == 0
    description = subcommands()[name].description or ""
    assert description.split("\n")[0] in result.stdout
    examples = command_examples(result.stdout)
    assert examples, f"{name} --help shows no examples"
    assert all(example.startswith(f"safety-profile {name}") for example in examples)
    assert re.search(r"\n\nexit status: 0.*\n\Z", result.stdout)


def command_examples(help_text: str) -> list[str]:
    """The commands of the `examples:` block of a help text, without their notes."""
    block = re.split(r"(?:^|\n)examples:\n", help_text, maxsplit=1)[1].split("\n\n", 1)[0]
    return [re.split(r"\s{2,}\(", line.strip())[0] for line in block.splitlines()]


def test_top_level_help_lists_every_command_and_points_to_their_help() -> None:
    result = run_program("safety-profile", "--help")
    assert result.returncode == 0
    for name in COMMANDS:
        assert re.search(rf"^    {name} +\S", result.stdout, re.MULTILINE), name
    assert "Run `safety-profile COMMAND --help`" in result.stdout


def every_example() -> list[str]:
    examples = command_examples(EPILOG)
    for name in COMMANDS:
        examples += command_examples(subcommands()[name].epilog or "")
    return sorted(set(examples))


@pytest.fixture
def user_folder(tmp_path: Path) -> Path:
    """A user's folder holding the files the examples name."""
    profile = EXAMPLES / "valid" / "spec_example.safety_profile.yaml"
    action = EXAMPLES / "actions" / "valid" / "spec_secure_deploy.action.yaml"
    for name in ("profiles/a.yaml", "profiles/b.safety_profile.yaml", "safety_profile.yaml",
                 "project.safety_profile.yaml", "plan.safety_profile.yaml"):  # fmt: skip
        (tmp_path / name).parent.mkdir(exist_ok=True)
        shutil.copy(profile, tmp_path / name)
    (tmp_path / "actions").mkdir()
    shutil.copy(action, tmp_path / "actions" / "deploy.yaml")
    # `diff` compares two files, or the files with git revisions: a repository where nothing
    # loosens between old and new, with the revisions the examples name.
    shutil.copy(profile, tmp_path / "old.safety_profile.yaml")
    shutil.copy(profile, tmp_path / "new.safety_profile.yaml")
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "profiles")
    for tag in ("v1.0", "v1.1"):
        git(tmp_path, "tag", tag)
    git(tmp_path, "update-ref", "refs/remotes/origin/main", "HEAD")
    return tmp_path


@pytest.mark.parametrize("example", every_example())
def test_every_example_in_the_help_works(example: str, user_folder: Path) -> None:
    if example.startswith("safety-profile init"):
        (user_folder / "safety_profile.yaml").unlink()  # init never overwrites
    result = subprocess.run(
        ["bash", "-c", example],
        cwd=user_folder,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, ""), example


@pytest.mark.parametrize(
    ("arguments", "refused", "meant"),
    [
        (["chek", "a.yaml"], "argument COMMAND: invalid choice: 'chek'", "check"),
        (["resolv"], "argument COMMAND: invalid choice: 'resolv'", "resolve"),
        (["check", "--format", "jsno", "a.yaml"], "argument --format: invalid choice", "json"),
        (["show", "--kind", "actoin", "a.yaml"], "argument --kind: invalid choice", "action"),
    ],
)
def test_a_mistyped_command_or_choice_is_told_what_it_most_likely_means(
    arguments: list[str], refused: str, meant: str
) -> None:
    result = run_program("safety-profile", *arguments)
    assert (result.returncode, result.stdout) == (2, "")
    last = result.stderr.splitlines()[-1]
    assert refused in last
    assert last.endswith(f"; did you mean {meant!r}?")


def test_a_command_like_none_gets_no_suggestion() -> None:
    result = run_program("safety-profile", "xyz")
    assert result.returncode == 2
    assert "invalid choice: 'xyz'" in result.stderr
    assert "did you mean" not in result.stderr


@pytest.mark.parametrize("name", COMMANDS)
def test_the_parser_built_for_one_command_is_that_command_of_the_whole_one(name: str) -> None:
    """A run builds only the command it runs (`build_parser(name)`), not the others' parsers:
    the command's parser is the same as in the whole one (its help, so its options), and so is
    the top-level usage a run's error prints. A mistyped command names no command, so the whole
    parser is built and tells the choices (above)."""
    whole = subcommands()
    built = build_parser(name)
    action = next(a for a in built._actions if isinstance(a, argparse._SubParsersAction))
    assert list(action.choices) == [name]
    assert action.choices[name].format_help() == whole[name].format_help()
    assert built.format_usage() == build_parser().format_usage()
