"""The one code path from bytes to a validated model: used by `from_yaml` and by the CLI."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from .document import YamlDocument
from .files import read_regular_file
from .limits import DEFAULT_LIMITS, LoadLimits
from .loaded_file import LoadedFile, load_bytes, load_file
from .messages import problems_from_validation_error
from .problems import Problem, ProfileFileError

ModelT = TypeVar("ModelT", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class CheckResult(Generic[ModelT]):
    """The validated model when the file is valid, else every problem found (sorted).

    `top_level_keys`: the keys of the document's top-level mapping, as written (empty when the
    top level is not a mapping), so a caller can tell what kind of document it resembles."""

    instance: ModelT | None
    problems: tuple[Problem, ...]
    top_level_keys: tuple[str, ...] = ()


def check_loaded(loaded: LoadedFile, model: type[ModelT], filename: str) -> CheckResult[ModelT]:
    """Validate what `load_file` or `load_bytes` loaded against `model`, adding the model's
    problems to the loader's."""
    problems = list(loaded.problems)
    instance = None
    if loaded.mapping is not None and loaded.document is not None:
        try:
            instance = model.model_validate(loaded.mapping)
        except ValidationError as error:
            problems.extend(problems_from_validation_error(error, loaded.document, model, filename))
    if problems:  # a duplicate key, say, fails the file even when the rest validates
        return CheckResult(None, tuple(sorted(problems)), loaded.top_level_keys)
    return CheckResult(instance, (), loaded.top_level_keys)


def check_yaml_bytes(
    data: bytes,
    filename: str,
    model: type[ModelT],
    limits: LoadLimits = DEFAULT_LIMITS,
    *,
    file_size: int | None = None,
) -> CheckResult[ModelT]:
    """Load `data` as YAML and validate it against `model`, collecting every problem.

    `file_size`: the size of the file `data` was read from, when only its start was read."""
    return check_yaml_bytes_with_document(data, filename, model, limits, file_size=file_size)[0]


def check_yaml_bytes_with_document(
    data: bytes,
    filename: str,
    model: type[ModelT],
    limits: LoadLimits = DEFAULT_LIMITS,
    *,
    file_size: int | None = None,
) -> tuple[CheckResult[ModelT], YamlDocument | None]:
    """`check_yaml_bytes`, plus the loaded document (where each value starts) when loading got
    that far: for reports that point into a valid file, such as `safety-profile diff`."""
    loaded = load_bytes(data, filename, limits, file_size=file_size)
    return check_loaded(loaded, model, filename), loaded.document


def check_yaml_file(
    path: str, model: type[ModelT], limits: LoadLimits = DEFAULT_LIMITS
) -> CheckResult[ModelT]:
    """Like `check_yaml_bytes`, reading the file; a file that cannot be read is a problem too."""
    return check_loaded(load_file(path, limits), model, path)


def load_yaml_file(
    path: str | os.PathLike[str], model: type[ModelT], limits: LoadLimits = DEFAULT_LIMITS
) -> ModelT:
    """Read, load and validate one file.

    Raises FileNotFoundError when it is missing, ProfileFileError (a ValueError) with every
    problem, each with file, line, column and field path, when it is not valid."""
    filename = os.fspath(path)
    file = read_regular_file(filename, limits)
    result = check_yaml_bytes(file.data, filename, model, limits, file_size=file.size)
    if result.instance is None:
        raise ProfileFileError(result.problems)
    return result.instance
