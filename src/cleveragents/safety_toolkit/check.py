"""`safety-profile check`: every problem of every file, with valid files accepted without
pydantic.

Each file is loaded, and accepted when the loader found nothing and the kind's acceptance (see
`acceptance`) says its model would accept it: importing pydantic and building the model are
most of the start-up, and most files are valid. A file that is not accepted goes through the
model, whose messages the report gives, with a hint when it looks like another kind.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .kinds import KINDS

if TYPE_CHECKING:
    from cleveragents.reading.loaded_file import LoadedFile
    from cleveragents.reading.problems import Problem
    from cleveragents.reading.validation import CheckResult

    # A loaded file checked through the kind's model: its result, and its problems with the hint.
    FileChecker = Callable[[LoadedFile, str], tuple[CheckResult[Any], list[Problem]]]

__all__ = ["check_files", "load_file_checker", "use_kind", "with_gc_paused"]

T = TypeVar("T")


def with_gc_paused(build: Callable[[], T]) -> T:
    """`build()`, importing and building with the garbage collector paused: start-up is most
    of a pre-commit run, and collections during these imports only cost."""
    gc.disable()
    try:
        return build()
    finally:
        gc.freeze()  # what start-up built lives as long as the process
        gc.enable()


def use_kind(kind: str) -> str:
    """What to do about a file that looks like another kind."""
    return f"use --kind {kind}"


def _import_acceptance(
    kind: str,
) -> tuple[Callable[[str], LoadedFile], Callable[[dict[str, Any]], bool]]:
    from cleveragents.reading.loaded_file import load_file

    return load_file, KINDS[kind].acceptance()


def _import_file_checker(kind: str) -> FileChecker:
    from cleveragents.reading.validation import check_loaded

    from .kind_hint import problems_with_hint

    model = KINDS[kind].model()

    def check(loaded: LoadedFile, path: str) -> tuple[CheckResult[Any], list[Problem]]:
        result = check_loaded(loaded, model, path)
        return result, problems_with_hint(path, result, kind, use_kind)

    return check


def load_file_checker(kind: str) -> FileChecker:
    """What checks a loaded file through the kind's model (pydantic, imported and built now):
    its result, and its problems followed by the kind hint."""
    return with_gc_paused(lambda: _import_file_checker(kind))


def check_files(paths: Sequence[str], kind: str) -> list[Problem]:
    """Every problem of every file checked as `kind` (errors and hints, unsorted)."""
    load_file, accepts = with_gc_paused(lambda: _import_acceptance(kind))
    check_with_model: FileChecker | None = None
    problems: list[Problem] = []
    for path in paths:
        loaded = load_file(path)
        if loaded.accepted_by(accepts):
            continue
        if check_with_model is None:  # the first file that is not valid
            check_with_model = load_file_checker(kind)
        problems += check_with_model(loaded, path)[1]
    from .git_objects import checkout_problems  # after the files: most runs need no more

    return problems + checkout_problems(paths)
