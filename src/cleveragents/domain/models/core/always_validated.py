"""Every public way to make a model checks its rules, whatever the caller asks of pydantic.

The generated models type the schema's booleans, integers, numbers and strings as pydantic's
`StrictBool`, `StrictInt`, `StrictFloat` and `StrictStr`. pydantic lets a caller turn that off:
`model_validate(data, strict=False)` (also `model_validate_json`, `TypeAdapter.validate_python`,
or any model that holds one of ours, validated with `strict=False`) overrides a field's own
strictness, so `{"require_sandbox": "false"}` became `False`; `model_validate_strings` reads
every value from a string the same way. And `model_copy(update=...)` does not validate at all,
so `allow_unsafe_tools="no"` (a truthy string) or a retry count of 500 went straight in.

`AlwaysValidated` closes both:

* its core schema puts an exact type check in front of each strict scalar, one that the
  runtime `strict` flag does not reach; it raises pydantic's own error (`bool_type`, ...), so
  messages are unchanged;
* `model_copy(update=...)` builds the copy through validation, keeping which fields were set.

`model_construct` stays pydantic's documented escape hatch: it validates nothing, by design.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, Self

from pydantic import BaseModel, GetCoreSchemaHandler
from pydantic_core import CoreSchema, PydanticKnownError, core_schema

__all__ = ["AlwaysValidated"]


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# The inputs a strict scalar accepts in any mode (a JSON Schema number takes an integer too),
# and pydantic's error when one does not fit.
_EXACT_TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "bool": (lambda value: isinstance(value, bool), "bool_type"),
    "int": (_is_integer, "int_type"),
    "float": (lambda value: _is_integer(value) or isinstance(value, float), "float_type"),
    "str": (lambda value: isinstance(value, str), "string_type"),
}


def _exact_type_check(kind: str) -> Callable[[Any], Any]:
    accepts, error_type = _EXACT_TYPES[kind]

    def check(value: Any) -> Any:
        if not accepts(value):
            raise PydanticKnownError(error_type)  # type: ignore[arg-type]
        return value

    return check


_CHECKS = {kind: _exact_type_check(kind) for kind in _EXACT_TYPES}
_CHECK_FUNCTIONS = frozenset(_CHECKS.values())


def _is_exact_type_check(schema: Mapping[str, Any]) -> bool:
    function = schema.get("function")
    return (
        schema.get("type") == "function-before"
        and isinstance(function, Mapping)
        and function.get("function") in _CHECK_FUNCTIONS
    )


def _with_exact_types(schema: Any) -> Any:
    """A copy of `schema` with an exact type check before each strict scalar."""
    if isinstance(schema, list):
        return [_with_exact_types(item) for item in schema]
    if not isinstance(schema, dict) or _is_exact_type_check(schema):
        return schema  # a nested model of ours is already done
    kind = schema.get("type")
    if schema.get("strict") is True and kind in _CHECKS:
        return core_schema.no_info_before_validator_function(_CHECKS[kind], schema)
    # Serialisation schemas and metadata validate nothing.
    return {
        key: value if key in ("serialization", "metadata") else _with_exact_types(value)
        for key, value in schema.items()
    }


class AlwaysValidated(BaseModel):
    """Mixin: no public pydantic call makes an instance that breaks the model's rules
    (`model_construct` excepted, as pydantic documents)."""

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[BaseModel], handler: GetCoreSchemaHandler, /
    ) -> CoreSchema:
        schema: CoreSchema = _with_exact_types(handler(source))
        return schema

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy, with `update` applied and validated like any other input: a value the
        model would refuse raises pydantic's ValidationError, as the constructor does."""
        if not update:
            return super().model_copy(deep=deep)
        given = {name: getattr(self, name) for name in self.model_fields_set}
        data = {**given, **(self.model_extra or {}), **update}
        return self.model_validate(copy.deepcopy(data) if deep else data)
