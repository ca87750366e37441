"""Numbers kept as written must be finite.

Actions and automation profiles keep keys they do not describe exactly as written. A `.nan` or
`.inf` there could not be written back: JSON has no such numbers (pydantic dumps them as null),
so the stored action would silently differ from the file. Reject them when loading instead.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, model_validator
from pydantic_core import PydanticCustomError

from cleveragents.reading.describe import describe_value
from cleveragents.reading.problems import Loc, render_loc


def first_non_finite(value: Any, loc: Loc = ()) -> tuple[Loc, float] | None:
    """Where the first non-finite float in `value` is, if any."""
    if isinstance(value, float) and not math.isfinite(value):
        return loc, value
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = first_non_finite(item, (*loc, key))
        if found is not None:
            return found
    return None


class FiniteNumbers(BaseModel):
    """Mixin: no `.nan`/`.inf` in the keys a model keeps as written (its declared fields have
    rules of their own)."""

    @model_validator(mode="before")
    @classmethod
    def _reject_non_finite(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        extras = {key: value for key, value in data.items() if key not in cls.model_fields}
        found = first_non_finite(extras)
        if found is not None:
            at, number = found
            # `at` refines the error's location (see safety_toolkit.messages).
            raise PydanticCustomError(
                "non_finite_number",
                "{number} at {path} is not a finite number, which JSON cannot store; "
                "write a finite number",
                {"number": describe_value(number), "path": render_loc(at), "at": at},
            )
        return data
