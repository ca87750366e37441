"""An action template, as far as the Safety Profile is concerned.

`Action` subclasses the model generated from `schema/action.schema.json`. The generated model
types `safety_profile` with the generated SafetyProfile; here it is the hand-written
`SafetyProfile`, so an embedded profile gets every rule a profile file gets (the cost rule,
normalisation, deep immutability), and errors inside it carry their dotted path, such as
`safety_profile.max_retries_per_step`. Top-level keys the schema does not describe belong to
other parts of CleverAgents and are kept as written (`model_extra`).
"""

from __future__ import annotations

import difflib
from typing import Annotated, Any

from pydantic import Field, model_validator
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError

from cleveragents.schema_models.action_schema import Action as _SchemaAction

from .always_validated import AlwaysValidated
from .automation_profile import AutomationProfile
from .document_loading import LoadableDocument
from .finite_numbers import FiniteNumbers
from .optional_fields import AbsentIsNotNull
from .safety_profile import SafetyProfile

__all__ = ["Action"]


def _schema_metadata(name: str) -> FieldInfo:
    """The generated field's title and description, for a field retyped in the layer."""
    generated = _SchemaAction.model_fields[name]
    info: FieldInfo = Field(title=generated.title, description=generated.description)
    return info


class Action(_SchemaAction, AlwaysValidated, AbsentIsNotNull, FiniteNumbers, LoadableDocument):
    """An action template with an optional safety profile and automation profile."""

    document_name = "action"

    safety_profile: Annotated[SafetyProfile | None, _schema_metadata("safety_profile")] = None
    automation_profile: Annotated[
        AutomationProfile | None, _schema_metadata("automation_profile")
    ] = None

    @model_validator(mode="before")
    @classmethod
    def _reject_misspelt_fields(cls, data: Any) -> Any:
        # Other top-level keys are allowed, but one a letter or two away from a field is a
        # typo: `safety_profle:` would silently leave the action without its safety profile.
        if isinstance(data, dict):
            for key in data:
                if not isinstance(key, str) or key in cls.model_fields:
                    continue
                close = difflib.get_close_matches(key.lower(), cls.model_fields, cutoff=0.85)
                if close:
                    raise PydanticCustomError(
                        "misspelt_field",
                        "misspelt field '{key}'; did you mean '{field}'? (other top-level keys "
                        "are kept, near misses of action fields are not)",
                        {"key": key, "field": close[0], "at": (key,)},
                    )
        return data
