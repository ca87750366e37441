"""Optional fields that may be left out but are never null.

The action and automation profile schemas describe optional properties that are never null
(`safety_profile`, `description`, the automation flags). The generated models type them as
`X | None = None`, so without this mixin they would accept an explicit null the schema rejects,
and their dumps would hold nulls the schema rejects too. A field that is not required and
defaults to None is therefore None only when the key is absent, and is left out of dumps then.
"""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    field_validator,
    model_serializer,
)
from pydantic_core import PydanticCustomError

from .document_rules import NULL_NOT_ALLOWED


def _absent_means_none(model: type[BaseModel], name: str | None) -> bool:
    field = model.model_fields.get(name) if name is not None else None
    return field is not None and not field.is_required() and field.default is None


class AbsentIsNotNull(BaseModel):
    """Mixin: an optional field defaulting to None may be left out, not set to null."""

    @field_validator("*", mode="before")
    @classmethod
    def _reject_explicit_null(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None and _absent_means_none(cls, info.field_name):
            raise PydanticCustomError(*NULL_NOT_ALLOWED)
        return value

    @model_serializer(mode="wrap")
    def _leave_out_absent(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if not isinstance(data, dict):  # pragma: no cover - models always dump to a dict
            return data
        model = type(self)
        return {
            key: value
            for key, value in data.items()
            if value is not None or not _absent_means_none(model, key)
        }
