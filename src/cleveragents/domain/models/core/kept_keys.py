"""Rules for the keys a model keeps as written (an action's or automation profile's own keys),
reported as pydantic errors.

JSON Schema lets these keys through (`additionalProperties` is open), so nothing checks them but
rules JSON Schema cannot express, written once in `document_rules` (no number kept may be
non-finite, no key may hold invisible characters). Models with more rules (`Action`) add them
in `kept_key_errors`. Every finding is reported together with the model's own field errors, so
one rule never hides the others.
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel, ModelWrapValidatorHandler, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError
from pydantic_core.core_schema import ErrorType

from .document_rules import RuleFinding, kept_key_findings

__all__ = ["KeptKeysChecked", "init_error"]

_BUILT_IN_ERROR_TYPES = frozenset(typing.get_args(ErrorType))


def init_error(finding: RuleFinding) -> InitErrorDetails:
    """A rule's finding as a pydantic error, to raise with the model's own."""
    error = PydanticCustomError(finding.kind, finding.message, finding.context)
    return {"type": error, "loc": finding.loc, "input": finding.input}


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
        return [init_error(finding) for finding in kept_key_findings(data, tuple(cls.model_fields))]

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
