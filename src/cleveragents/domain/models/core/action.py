"""An action template, as far as the Safety Profile is concerned.

`Action` subclasses the model generated from `schema/action.schema.json`. The generated model
types `safety_profile` with the generated SafetyProfile; here it is the hand-written
`SafetyProfile`, so an embedded profile gets every rule a profile file gets (the cost rule,
normalisation, deep immutability), and errors inside it carry their dotted path, such as
`safety_profile.max_retries_per_step`. Top-level keys the schema does not describe belong to
other parts of CleverAgents and are kept as written (`model_extra`), except keys that would pass
for an action field or a profile field (see `document_rules`).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field
from pydantic.fields import FieldInfo
from pydantic_core import InitErrorDetails

from cleveragents.schema_models.action_schema import Action as _SchemaAction

from .always_validated import AlwaysValidated
from .automation_profile import AutomationProfile
from .document_loading import LoadableDocument
from .document_rules import action_key_findings
from .kept_keys import KeptKeysChecked, init_error
from .optional_fields import AbsentIsNotNull
from .safety_profile import SafetyProfile

__all__ = ["Action"]


def _schema_metadata(name: str) -> FieldInfo:
    """The generated field's title and description, for a field retyped in the layer."""
    generated = _SchemaAction.model_fields[name]
    info: FieldInfo = Field(title=generated.title, description=generated.description)
    return info


class Action(_SchemaAction, AlwaysValidated, AbsentIsNotNull, KeptKeysChecked, LoadableDocument):
    """An action template with an optional safety profile and automation profile."""

    document_name = "action"

    safety_profile: Annotated[SafetyProfile | None, _schema_metadata("safety_profile")] = None
    automation_profile: Annotated[
        AutomationProfile | None, _schema_metadata("automation_profile")
    ] = None

    @classmethod
    def kept_key_errors(cls, data: dict[Any, Any]) -> list[InitErrorDetails]:
        """Beyond the rules for every kept key: a top-level key must not pass for an action
        field (or stand where a profile field belongs), or the action silently loses it."""
        fields, profile_fields = tuple(cls.model_fields), tuple(SafetyProfile.model_fields)
        return [init_error(found) for found in action_key_findings(data, fields, profile_fields)]
