"""From bytes to a validated model, through pydantic: the Python API's path (`from_yaml`), and
the path of `diff` and `resolve`, which compare models.

The models' errors become `FieldError`s and are worded by `messages`, as the errors of the
command paths' validator (`document_check`) are: tests/domain/test_command_path_agrees.py proves
that both give the same problems for the same document.
"""

from __future__ import annotations

import os
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from .document import YamlDocument
from .files import read_regular_file
from .limits import DEFAULT_LIMITS, LoadLimits
from .loaded_file import LoadedFile, load_bytes, load_file
from .messages import FieldError, problems_from_errors
from .problems import Loc, Problem, ProfileFileError

ModelT = TypeVar("ModelT", bound=BaseModel)


def field_error(detail: ErrorDetails) -> FieldError:
    """One pydantic error, as `messages` words it."""
    return FieldError(
        detail["type"], tuple(detail["loc"]), detail["input"], detail.get("ctx"), detail["msg"]
    )


def _nested_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType, typing.Annotated):
        for argument in typing.get_args(annotation):
            found = _nested_model(argument)
            if found is not None:
                return found
    return None


def _model_at(model: type[BaseModel], loc: Loc) -> type[BaseModel] | None:
    """The model class that validates the mapping at `loc`, if any."""
    current: type[BaseModel] = model
    for part in loc:
        if not isinstance(part, str) or part not in current.model_fields:
            return None
        nested = _nested_model(current.model_fields[part].annotation)
        if nested is None:
            return None
        current = nested
    return current


def model_fields_at(model: type[BaseModel]) -> Callable[[Loc], Sequence[str]]:
    """The fields of the model that validates the mapping at a place (none: no model)."""

    def fields_at(loc: Loc) -> Sequence[str]:
        found = _model_at(model, loc)
        return () if found is None else tuple(found.model_fields)

    return fields_at


def problems_from_validation_error(
    error: ValidationError, document: YamlDocument, model: type[BaseModel], filename: str
) -> list[Problem]:
    """One `Problem` per pydantic error, placed where the offending value (or key) starts."""
    errors = map(field_error, error.errors(include_url=False))
    return problems_from_errors(errors, document, model_fields_at(model), filename)


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
