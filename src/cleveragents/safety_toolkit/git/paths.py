"""Where git would find a repository, told without running git or importing the git modules
(`git.objects`): the nearest folder holding `.git`; with the limit on each git's time and the
repositories where one did not answer, which every git run reads. The language server finds
a file's repository here, and imports git only for a file in one; `git.objects` re-exports
these names.
"""

from __future__ import annotations

import os

from cleveragents.reading.terminal_text import visible

__all__ = [
    "GIT_TIMEOUT",
    "MAX_QUOTED",
    "GitError",
    "folder_with_git",
    "in_no_work_tree",
    "limit_git_time",
    "nearest_with_git",
    "quoted",
    "stuck_repositories",
]


class GitError(Exception):
    """git cannot answer: not a repository, an unknown revision, git missing. The message says
    what to do; the CLI reports it as a usage error. (Here, not in `git.objects`, so a command
    can catch it without importing git's modules.)"""


MAX_QUOTED = 200  # characters of a name a message quotes (a link's target may be megabytes)


def quoted(name: str) -> str:
    """A name in a message: in quotes, escaped as reports escape names (a byte that is not
    UTF-8 as `\\xe9`, a control character as `\\x1b`), a long one cut short."""
    if len(name) > MAX_QUOTED:
        return f"'{visible(name[:MAX_QUOTED])}...' ({len(name)} characters)"
    return f"'{visible(name)}'"


GIT_TIMEOUT = 120.0  # seconds: a git that has not answered by then is stuck (a FIFO included)
# How long a git may take in this process (`limit_git_time`), and the repositories where one
# did not answer in time: git is not asked there again (each of a command's gits, or each file
# a language server opens, would wait as long again).
_time_limit = [GIT_TIMEOUT]
_stuck: set[str] = set()


def limit_git_time(seconds: float) -> None:
    """Stop each git this process starts after `seconds` (GIT_TIMEOUT unless told): the language
    server waits less than a command in CI, since nothing else is answered meanwhile."""
    _time_limit[0] = seconds


def stuck_repositories() -> frozenset[str]:
    """The repositories where a git did not answer in time (and is not asked again)."""
    return frozenset(_stuck)


def folder_with_git(folder: str | os.PathLike[str]) -> str | None:
    """The nearest folder at or above `folder` (its real path, where git starts looking)
    holding `.git`: where git finds the repository of a git run in `folder`, unless `GIT_DIR`
    names one. None: git finds none there (it says `not a git repository`)."""
    return nearest_with_git(os.path.realpath(folder), {})


def nearest_with_git(folder: str, known: dict[str, str | None]) -> str | None:
    """The nearest folder at or above `folder` holding `.git` (None: none); `known` remembers
    the folders already asked about."""
    walked = []
    current = folder
    while current not in known:
        walked.append(current)
        if os.path.lexists(os.path.join(current, ".git")):
            known[current] = current
            break
        parent = os.path.dirname(current)
        if parent == current:
            known[current] = None
            break
        current = parent
    for step in walked:
        known[step] = known[current]
    return known[folder]


def in_no_work_tree(path: str) -> bool:
    """Whether the file named `path` lies in no git work tree, for certain (`GIT_DIR` unset and
    no `.git` at or above its folder): git has nothing to say of it, and no git need run."""
    return (
        not os.environ.get("GIT_DIR")
        and nearest_with_git(os.path.dirname(os.path.abspath(path)), {}) is None
    )
