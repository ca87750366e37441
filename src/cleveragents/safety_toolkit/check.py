"""`safety-profile check`: every problem of every file, with valid files accepted without
pydantic.

Each file is loaded, and accepted when the loader found nothing and the kind's acceptance (see
`acceptance`) says its model would accept it: importing pydantic and building the model are
most of the start-up, and most files are valid. A file that is not accepted goes through the
model, whose messages the report gives, with a hint when it looks like another kind. Where a
floor applies (see `floor`), every file goes through the model, and each field of its profile
looser than the floor is an error.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .kinds import KINDS

if TYPE_CHECKING:
    from cleveragents.reading.loaded_file import LoadedFile
    from cleveragents.reading.problems import Problem
    from cleveragents.reading.validation import CheckResult

    from .floor import Floor, Floors

__all__ = ["USE_KIND", "Checker", "check_files", "load_file_checker", "with_gc_paused"]

T = TypeVar("T")


class FileChecker(Protocol):
    """A loaded file checked through the kind's model: its result, and its problems with the
    hint, then each field below each of `floors`."""

    def __call__(
        self, loaded: LoadedFile, path: str, floors: Sequence[Floor] = ()
    ) -> tuple[CheckResult[Any], list[Problem]]: ...


def with_gc_paused(build: Callable[[], T]) -> T:
    """`build()`, importing and building with the garbage collector paused: start-up is most
    of a pre-commit run, and collections during these imports only cost."""
    gc.disable()
    try:
        return build()
    finally:
        gc.freeze()  # what start-up built lives as long as the process
        gc.enable()


# What to do about a file that looks like another kind, for each kind it may look like.
USE_KIND = {kind: f"use --kind {kind}" for kind in KINDS}


def _import_acceptance(
    kind: str,
) -> tuple[Callable[[str], LoadedFile], Callable[[dict[str, Any]], bool]]:
    from cleveragents.reading.loaded_file import load_file

    return load_file, KINDS[kind].acceptance()


def _import_file_checker(kind: str) -> FileChecker:
    from cleveragents.reading.validation import check_loaded

    from .floor import floor_problems
    from .kind_hint import problems_with_hint

    document_kind = KINDS[kind]
    model = document_kind.model()

    def check(
        loaded: LoadedFile, path: str, floors: Sequence[Floor] = ()
    ) -> tuple[CheckResult[Any], list[Problem]]:
        result = check_loaded(loaded, model, path)
        problems = problems_with_hint(path, result, kind, USE_KIND)
        if floors and result.instance is not None and loaded.document is not None:
            profile, prefix = document_kind.profile_in(result.instance)
            if profile is not None:
                problems += floor_problems(profile, floors, loaded.document, prefix, path)
        return result, problems

    return check


def load_file_checker(kind: str) -> FileChecker:
    """What checks a loaded file through the kind's model (pydantic, imported and built now):
    its result, and its problems followed by the kind hint, then the fields below the floor
    it is given."""
    return with_gc_paused(lambda: _import_file_checker(kind))


class Checker:
    """Checks documents as one kind, the way `check` does: a document is accepted without the
    model when it can be, and the model (pydantic) is imported only for the first one that is
    not, or that a floor applies to. `check` checks files on disk; the language server checks
    an editor's buffer.

    `floors` finds the floor of each document by its name (see `floor`); None: no floor. A
    floor that cannot be used raises FloorError."""

    def __init__(self, kind: str, floors: Floors | None = None) -> None:
        self.kind = kind
        self.floors = floors
        self._load_file, self._accepts = with_gc_paused(lambda: _import_acceptance(kind))
        self._check_with_model: FileChecker | None = None

    def problems(
        self, loaded: LoadedFile, name: str, floors: Floors | None = None
    ) -> list[Problem]:
        """Every problem of a loaded document named `name` (errors, then the kind hint, then
        the fields below its floor; `floors`, when given, instead of the checker's)."""
        floors = self.floors if floors is None else floors
        applied = () if floors is None else floors.for_file(name)
        if not applied and loaded.accepted_by(self._accepts):
            return []
        if self._check_with_model is None:  # the first document that is not valid
            self._check_with_model = load_file_checker(self.kind)
        return self._check_with_model(loaded, name, applied)[1]

    def check_file(self, path: str) -> list[Problem]:
        """Every problem of the file at `path`; one that cannot be read is a problem too."""
        return self.problems(self._load_file(path), path)

    def check_bytes(self, data: bytes, name: str, floors: Floors | None = None) -> list[Problem]:
        """Every problem of `data`, reported as `check` reports the file `name` holding it."""
        from cleveragents.reading.loaded_file import load_bytes

        return self.problems(load_bytes(data, name), name, floors)


def check_files(paths: Sequence[str], kind: str, floors: Floors | None = None) -> list[Problem]:
    """Every problem of every file checked as `kind` (errors and hints, unsorted), with the
    fields below the floor `floors` finds for each file. A file whose links lead out of its
    repository (or, outside one, out of the folder checked) is not read (`file.outside`).
    Raises FloorError for a floor that cannot be used, GitError when git refuses to say what
    a checkout of a file's repository holds."""
    from .git_objects import checkout_problems, collision_problems, locate, outside_problems

    located = locate(paths)
    refused = outside_problems(paths, located)
    readable = [path for path in paths if path not in refused]
    checker = Checker(kind, floors)
    problems = [problem for path in readable for problem in checker.check_file(path)]
    return [
        *refused.values(),
        *problems,
        *checkout_problems(readable, located),
        *collision_problems(readable, located),
    ]
