"""`safety-profile check`: every problem of every file, without pydantic.

Each file is loaded and checked by the commands' one validator (`document_check`: the code
generated from the schema, then the rules JSON Schema cannot express), which finds every error
the models would and words it as they would; importing pydantic and building the models would
be most of the start-up. A file that fails gets a hint when it looks like another kind. A valid
file gets the warnings of the advice rules (`advice`). Where a floor applies (see `floor`), each
field of a valid file's profile looser than the floor is an error too.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence

from cleveragents.reading.lean_typing import TYPE_CHECKING

from .kinds import KINDS

if TYPE_CHECKING:
    from typing import TypeVar

    from cleveragents.domain.models.core.document_check import CheckedDocument
    from cleveragents.reading.loaded_file import LoadedFile
    from cleveragents.reading.problems import Problem

    from ..floor import Floors

    T = TypeVar("T")

__all__ = ["USE_KIND", "Checker", "check_files", "with_gc_paused"]


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


def _import_checking() -> tuple[
    Callable[[str], LoadedFile], Callable[..., CheckedDocument], Callable[..., list[Problem]]
]:
    from cleveragents.domain.models.core.document_check import check_loaded
    from cleveragents.reading.loaded_file import load_file

    from .kind_hint import problems_with_hint

    return load_file, check_loaded, problems_with_hint


class Checker:
    """Checks documents as one kind, the way `check` does; `check` checks files on disk,
    `show` one file, the language server an editor's buffer.

    `floors` finds the floor of each document by its name (see `floor`); None: no floor. A
    floor that cannot be used raises FloorError."""

    def __init__(self, kind: str, floors: Floors | None = None) -> None:
        self.kind = kind
        self.floors = floors
        self._load_file, self._check_loaded, self._with_hint = with_gc_paused(_import_checking)

    def check(
        self, loaded: LoadedFile, name: str, floors: Floors | None = None
    ) -> tuple[CheckedDocument, list[Problem]]:
        """A loaded document named `name`, checked (the document itself when it is valid),
        and every problem to report: its errors, then the kind hint; for a valid document, the
        warnings of `advice`, then the fields below its floor (`floors`, when given, instead of
        the checker's)."""
        floors = self.floors if floors is None else floors
        applied = () if floors is None else floors.for_file(name)
        checked = self._check_loaded(loaded, KINDS[self.kind].schema(), name)
        problems = self._with_hint(name, checked, self.kind, USE_KIND, by_name=True)
        if checked.valid is not None and loaded.document is not None:
            from .advice import advice_problems

            problems += advice_problems(checked.valid, loaded.document, name)
        if applied and checked.valid is not None and loaded.document is not None:
            from cleveragents.domain.models.core.document_values import profile_values

            from ..floor.comparison import floor_problems

            profile, prefix = KINDS[self.kind].profile_mapping_in(checked.valid)
            if profile is not None:
                values = profile_values(profile)
                problems += floor_problems(values, applied, loaded.document, prefix, name)
        return checked, problems

    def problems(
        self, loaded: LoadedFile, name: str, floors: Floors | None = None
    ) -> list[Problem]:
        """Every problem of a loaded document named `name`, as `check` gives them."""
        return self.check(loaded, name, floors)[1]

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
    repository (or, outside one, out of the folder checked), or to a file there git does not
    hold, is not read (`file.outside`), nor is a file a git attribute transforms on checkout
    (`git.attribute`). Raises FloorError for a floor that cannot be used, GitError when git
    refuses to say what a checkout of a file's repository holds."""
    from ..git.located import collision_problems, locate, outside_problems

    located = locate(paths)
    refused = outside_problems(paths, located)
    inside = [path for path in paths if path not in refused]
    # A file a checkout transforms is not read either, as `diff --git` does not read it: a
    # smudge filter may write what no commit holds (a secret git-crypt decrypts). Files in no
    # work tree have no attributes: then git's modules are not even imported.
    transformed = []
    if any(located[path].top is not None for path in inside):
        from ..git.objects import checkout_problems

        transformed = checkout_problems(inside, located)
    unread = {problem.file for problem in transformed}
    checker = Checker(kind, floors)
    problems = [
        problem for path in inside if path not in unread for problem in checker.check_file(path)
    ]
    return [*refused.values(), *problems, *transformed, *collision_problems(inside, located)]
