"""An action template, as far as the Safety Profile is concerned.

`Action` subclasses the model generated from `schema/action.schema.json`. The generated model
types `safety_profile` with the generated SafetyProfile; here it is the hand-written
`SafetyProfile`, so an embedded profile gets every rule a profile file gets (the cost rule,
normalisation, deep immutability), and errors inside it carry their dotted path, such as
`safety_profile.max_retries_per_step`. Top-level keys the schema does not describe belong to
other parts of CleverAgents and are kept as written (`model_extra`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Annotated, Any, Self

from pydantic import Field
from pydantic.fields import FieldInfo

from cleveragents.safety_toolkit.validation import load_yaml_file
from cleveragents.schema_models.action_schema import Action as _SchemaAction

from .automation_profile import AutomationProfile
from .finite_numbers import FiniteNumbers
from .optional_fields import AbsentIsNotNull
from .safety_profile import SafetyProfile

__all__ = ["Action"]


def _schema_metadata(name: str) -> FieldInfo:
    """The generated field's title and description, for a field retyped in the layer."""
    generated = _SchemaAction.model_fields[name]
    info: FieldInfo = Field(title=generated.title, description=generated.description)
    return info


class Action(_SchemaAction, AbsentIsNotNull, FiniteNumbers):
    """An action template with an optional safety profile and automation profile."""

    safety_profile: Annotated[SafetyProfile | None, _schema_metadata("safety_profile")] = None
    automation_profile: Annotated[
        AutomationProfile | None, _schema_metadata("automation_profile")
    ] = None

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Self:
        """Build an action from a mapping such as one loaded from YAML or JSON.

        Raises pydantic's ValidationError (a ValueError) when the mapping is not a valid action."""
        if not isinstance(config, Mapping):
            raise ValueError(f"an action config must be a mapping, not {type(config).__name__}")
        return cls.model_validate(dict(config))

    @classmethod
    def from_yaml(cls, path: str | os.PathLike[str]) -> Self:
        """Load an action from a YAML file.

        Raises FileNotFoundError when the file is missing, and ProfileFileError (a ValueError)
        listing every problem with file, line, column and field (for instance
        `safety_profile.max_retries_per_step`) when it is not a valid action."""
        return load_yaml_file(path, cls)
