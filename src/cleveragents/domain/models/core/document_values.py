"""A valid document's values as the models hold them, without pydantic: a profile's effective
values (what the floor compares) and the whole document as `show` prints it.

For a document `document_check` finds no error in, these are the values the model would hold
and dump (tests/domain/test_command_path_agrees.py proves it): every field the file leaves out at
the schema's default; categories normalised (`document_rules`) and held as a tuple; costs as floats;
a whole float as an integer where the schema's type is integer; a nested document (an action's
`safety_profile`) as its own document, and an optional field without a default (an action's
`description`) left out when absent; keys a schema keeps as written at the end, as written.
"""

from __future__ import annotations

from collections.abc import Mapping

from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple

from .document_check import PROFILE, Schema
from .document_rules import CATEGORIES_FIELD, COST_FIELDS, RETRIES_FIELD, normalised_categories

if TYPE_CHECKING:
    from typing import Any

    from pydantic import BaseModel

__all__ = [
    "ProfileValues",
    "ShownDocument",
    "ShownField",
    "model_profile_values",
    "profile_values",
    "shown_document",
    "shown_model",
]


class ProfileValues(NamedTuple):
    """A safety profile's effective values: every field, in schema order, as the model holds
    it; and the fields the file sets (the others hold their default)."""

    values: Mapping[str, Any]
    given: frozenset[str]


def _held(field: str, value: Any) -> Any:
    """One profile field's value as the model holds it."""
    if field == CATEGORIES_FIELD:
        return normalised_categories(value)
    if field in COST_FIELDS:
        return None if value is None else float(value)
    if field == RETRIES_FIELD:
        return int(value)
    return value


def profile_values(profile: Mapping[str, Any]) -> ProfileValues:
    """The effective values of a valid profile mapping (one `document_check` accepts)."""
    values = {
        field: _held(field, profile[field] if field in profile else PROFILE.defaults[field])
        for field in PROFILE.properties
    }
    return ProfileValues(values, frozenset(profile))


def model_profile_values(profile: BaseModel) -> ProfileValues:
    """The effective values of a `SafetyProfile`."""
    values = {field: getattr(profile, field) for field in type(profile).model_fields}
    return ProfileValues(values, frozenset(profile.model_fields_set))


class ShownField(NamedTuple):
    """One field of a shown document: its key, its value as JSON (a nested document's whole
    dump), whether the file sets it (else it holds its default), and a nested document."""

    key: str
    value: Any
    given: bool
    nested: ShownDocument | None = None


class ShownDocument(NamedTuple):
    """A valid document as `show` prints it: the model's name and every field it dumps."""

    name: str  # `SafetyProfile`, `Action`: the schema's title, which names the model
    fields: tuple[ShownField, ...]

    def dump(self) -> dict[str, Any]:
        """The document as JSON values, as the model dumps it (`model_dump(mode="json")`)."""
        return {field.key: field.value for field in self.fields}


def _json(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def shown_document(schema: Schema, document: Mapping[str, Any]) -> ShownDocument:
    """A valid document of `schema` (one `document_check` accepts), field by field."""
    held = profile_values(document).values if schema.name == PROFILE.name else document
    fields = []
    for field in schema.properties:
        if field in held:
            value = held[field]
        elif field in schema.defaults:
            value = schema.defaults[field]
        else:
            continue  # an optional field without a default is left out, never null
        inner = schema.nested.get(field)
        nested = None if inner is None else shown_document(inner, value)
        shown = _json(value) if nested is None else nested.dump()
        fields.append(ShownField(field, shown, field in document, nested))
    kept = [key for key in document if key not in schema.properties]
    fields += [ShownField(key, document[key], True) for key in kept]
    return ShownDocument(schema.title, tuple(fields))


def shown_model(instance: BaseModel) -> ShownDocument:
    """A model's document as `shown_document` gives a mapping's (for `resolve`, which holds
    models)."""
    from pydantic import BaseModel  # only callers that hold models get here

    fields = []
    for key, value in instance.model_dump(mode="json").items():
        inner = getattr(instance, key, None)
        nested = shown_model(inner) if isinstance(inner, BaseModel) else None
        fields.append(ShownField(key, value, key in instance.model_fields_set, nested))
    return ShownDocument(type(instance).__name__, tuple(fields))
