"""Rules for the keys a model keeps as written (an action's or automation profile's own keys).

JSON Schema lets these keys through (`additionalProperties` is open), so nothing checks them but
these rules, which JSON Schema cannot express:

* numbers kept as written must be finite: JSON cannot store `.nan`/`.inf` (pydantic dumps them
  as null), so the stored document would silently differ from the file;
* no key may hold invisible characters (Unicode category Cf: U+200B, U+2060, U+FEFF, ...): a key
  that looks like another one is not it.

Models with more rules (`Action`) add them in `kept_key_errors`. Every finding is reported
together with the model's own field errors, so one rule never hides the others.
"""

from __future__ import annotations

import math
import typing
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ModelWrapValidatorHandler, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError
from pydantic_core.core_schema import ErrorType

from cleveragents.reading.characters import invisible_characters, name_characters
from cleveragents.reading.describe import describe_value
from cleveragents.reading.problems import Loc

__all__ = ["KeptKeysChecked", "key_error"]

_BUILT_IN_ERROR_TYPES = frozenset(typing.get_args(ErrorType))


def key_error(kind: str, message: str, loc: Loc, data: Any) -> InitErrorDetails:
    """One error about the key at `loc` (its own text is the whole message)."""
    return {"type": PydanticCustomError(kind, message), "loc": loc, "input": data}


def _walk(value: Any, loc: Loc) -> Iterator[tuple[Loc, Any]]:
    """(loc, value) for `value` and everything inside it, keys included (as their own locs)."""
    yield loc, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, (*loc, key))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _walk(item, (*loc, index))


def _kept_value_errors(key: str, value: Any, data: Any) -> list[InitErrorDetails]:
    errors: list[InitErrorDetails] = []
    for loc, item in _walk(value, (key,)):
        name = loc[-1]
        hidden = invisible_characters(name) if isinstance(name, str) else []
        if hidden:
            errors.append(
                key_error(
                    "invisible_characters",
                    f"the key {name!r} holds invisible characters ({name_characters(hidden)}), "
                    "so it is not the key it looks like; remove them",
                    loc,
                    data,
                )
            )
        if isinstance(item, float) and not math.isfinite(item):
            errors.append(
                {
                    "type": PydanticCustomError(
                        "non_finite_number",
                        "{number} is not a finite number, which JSON cannot store; "
                        "write a finite number",
                        {"number": describe_value(item)},
                    ),
                    "loc": loc,
                    "input": item,
                }
            )
    return errors


def _as_init_error(detail: Any) -> InitErrorDetails:
    """A reported error as it can be raised again, message and context unchanged."""
    kind = detail["type"]
    context = detail.get("ctx")
    if kind in _BUILT_IN_ERROR_TYPES:
        again: InitErrorDetails = {"type": kind, "loc": detail["loc"], "input": detail["input"]}
        if context is not None:
            again["ctx"] = context
        return again
    # The message is already formatted: pass it as the last context value, which pydantic
    # substitutes last, so braces inside it stay as written.
    return {
        "type": PydanticCustomError(
            kind, "{message}", {**(context or {}), "message": detail["msg"]}
        ),
        "loc": detail["loc"],
        "input": detail["input"],
    }


class KeptKeysChecked(BaseModel):
    """Mixin: the kept-key rules, reported together with the model's own errors."""

    @classmethod
    def kept_key_errors(cls, data: dict[Any, Any]) -> list[InitErrorDetails]:
        """Every problem with the keys `data` holds beyond the model's fields."""
        errors: list[InitErrorDetails] = []
        for key, value in data.items():
            if isinstance(key, str) and key not in cls.model_fields:
                errors.extend(_kept_value_errors(key, value, data))
        return errors

    @model_validator(mode="wrap")
    @classmethod
    def _check_kept_keys(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        own = cls.kept_key_errors(data) if isinstance(data, dict) else []
        try:
            validated = handler(data)
        except ValidationError as error:
            if not own:
                raise
            others = [_as_init_error(detail) for detail in error.errors(include_url=False)]
            raise ValidationError.from_exception_data(cls.__name__, [*own, *others]) from None
        if own:
            raise ValidationError.from_exception_data(cls.__name__, own)
        return validated
