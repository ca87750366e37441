"""Shell completion scripts for bash, zsh and fish, written by shtab from the command's own
argument parser, so the commands, options and choices they complete are always the current ones.
Imported only by `safety-profile completion`: no other command pays for shtab."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import shtab

__all__ = ["completion_script"]

# Arguments that name files or folders: the shell completes them with file names.
_PATH_METAVARS = frozenset({"FILE", "PATH"})
# `rules ID`: the shell completes the ids of the catalogue (the parser takes any text, so that
# a former id finds its rule and a wrong one gets a suggestion; only the script offers these).
_RULE_METAVAR = "ID"


def _actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """Every argument of the parser and of its subcommands."""
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                yield from _actions(subparser)


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of `parser` for `shell` (bash, zsh or fish)."""
    from cleveragents.reading.rules import Rule

    for action in _actions(parser):
        if action.metavar in _PATH_METAVARS:
            action.complete = shtab.FILE  # type: ignore[attr-defined]  # shtab reads it
        elif action.metavar == _RULE_METAVAR:
            # This parser only writes the script: the choices never check an argument.
            action.choices = [rule.value for rule in Rule]
    script: str = shtab.complete(parser, shell=shell)
    return script if script.endswith("\n") else script + "\n"
