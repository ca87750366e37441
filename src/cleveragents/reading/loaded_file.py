"""A file read and loaded, up to where it is checked against its schema (no pydantic here).

The commands check what this loads with `document_check`, without pydantic; the Python API
validates it against a model (`validation`)."""

from __future__ import annotations

from .describe import describe_value
from .document import YamlDocument, load_yaml_document
from .files import file_problem, read_regular_file
from .lean_typing import TYPE_CHECKING, NamedTuple
from .limits import DEFAULT_LIMITS, LoadLimits
from .problems import Problem, ProfileFileError
from .rules import Rule

if TYPE_CHECKING:
    from typing import Any


class LoadedFile(NamedTuple):
    """What loading found: every problem so far, and the top-level mapping for a model to
    validate (None when the file could not be read or loaded, or its top level is refused or
    is not a mapping). `document` says where each value is (None when loading stopped early)."""

    problems: tuple[Problem, ...]
    mapping: dict[str, Any] | None = None
    document: YamlDocument | None = None

    @property
    def top_level_keys(self) -> tuple[str, ...]:
        """The keys of the top-level mapping, as written (none when there is no mapping)."""
        return () if self.mapping is None else tuple(str(key) for key in self.mapping)


def load_bytes(
    data: bytes,
    filename: str,
    limits: LoadLimits = DEFAULT_LIMITS,
    *,
    file_size: int | None = None,
) -> LoadedFile:
    """Load `data` as one YAML document whose top level must be a mapping.

    `file_size`: the size of the file `data` was read from, when only its start was read."""
    try:
        document = load_yaml_document(data, filename, limits, file_size=file_size)
    except ProfileFileError as error:
        return LoadedFile(error.problems)
    problems = tuple(document.problems)
    if not document.built or document.already_reported(()):
        # Loading stopped, or the root itself is refused; the problems say why.
        return LoadedFile(problems, document=document)
    if not isinstance(document.value, dict):
        found = "an empty document" if document.empty else describe_value(document.value)
        line, column = document.position(())
        not_a_mapping = Problem(
            filename,
            line,
            column,
            "$",
            f"the top level is {found}; expected a mapping of field names to values",
            Rule.DOCUMENT_ROOT_TYPE,
        )
        return LoadedFile((*problems, not_a_mapping), document=document)
    return LoadedFile(problems, document.value, document)


def load_file(path: str, limits: LoadLimits = DEFAULT_LIMITS) -> LoadedFile:
    """Like `load_bytes`, reading the file; a file that cannot be read is a problem too."""
    try:
        file = read_regular_file(path, limits)
    except OSError as error:
        return LoadedFile((file_problem(error, path),))
    return load_bytes(file.data, path, limits, file_size=file.size)
