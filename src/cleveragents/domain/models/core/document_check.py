"""Every error of a loaded document, without pydantic: the one validator of the command paths.

`document_errors(PROFILE, document)` and `document_errors(ACTION, document)` give exactly the
errors `SafetyProfile.model_validate(document)` and `Action.model_validate(document)` raise, in
the models' terms (`FieldError`: pydantic's error types, places and values, and the rules' own), so
`messages` words them alike (tests/domain/test_command_path_agrees.py proves it over generated
documents); `check_loaded` makes a loaded file's problems of them. `check`, the hooks, `show`,
the floors and the language server call it; pydantic, with building the models most of a
command's start-up, is left to the Python API.

First the code generated from each schema by fastjsonschema (`cleveragents.schema_validators`),
which reports every error with the value, the schema keyword broken and that keyword's schema;
each error's place is found by walking the document itself, key by key. Then the rules JSON
Schema cannot express, from `document_rules`, which the models call too. Where the schema's
errors and the models' differ, the models' are given:

* a type error is named by the field's type in the model (`bool_type`, `int_type`, `float_type`
  for a number or null, `string_type`, `model_type` for a nested document, `sequence_str` or
  `is_instance_of` for a list), and is the only error at its place (JSON Schema also checks
  the bounds of a float that is not a whole number, where the model stops at its type);
* null for an optional field without a default is `null_not_allowed` (`optional_fields`);
* each missing field and each unknown key is an error of its own, taken from the document;
* a whole float is an integer (`3.0` is 3), and a bound error shows the integer;
* a cost that is not finite is `finite_number` and nothing else at its place;
* blank-only categories and the cost order only where the fields they read are valid.

`document` is a mapping the loader built: JSON-like, with string keys. It is not changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType, ModuleType

from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple
from cleveragents.reading.loaded_file import LoadedFile
from cleveragents.reading.messages import FieldError, fill_template, problems_from_errors
from cleveragents.reading.problems import Loc, Problem
from cleveragents.schema_validators import (
    JsonSchemaValueException,
    JsonSchemaValuesException,
    action_schema,
    automation_profile_schema,
    safety_profile_schema,
)

from .document_rules import (
    BLANK_CATEGORIES,
    CATEGORIES_FIELD,
    COST_FIELDS,
    COST_ORDER,
    NOT_FINITE,
    NULL_NOT_ALLOWED,
    TOTAL_FIELD,
    RuleFinding,
    RuleMessage,
    action_key_findings,
    cost_order_holds,
    is_finite_number,
    kept_key_findings,
    normalised_categories,
)

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ACTION",
    "PROFILE",
    "CheckedDocument",
    "Schema",
    "check_loaded",
    "document_errors",
]


class Schema(NamedTuple):
    """What a generated module says of one schema: its validator, its properties (in order),
    the required ones, their defaults, and the properties holding a document of another
    schema."""

    name: str  # the module's: `safety_profile_schema`
    title: str  # the schema's, which names the model: `SafetyProfile`
    validate: Callable[[Any], object]  # raises JsonSchemaValuesException with every error
    properties: tuple[str, ...]
    required: tuple[str, ...]
    defaults: Mapping[str, Any]
    nested: Mapping[str, Schema]

    def at(self, loc: Loc) -> Schema | None:
        """The schema of the document at `loc` (keys of nested documents), if any."""
        schema: Schema | None = self
        for part in loc:
            schema = (
                None if schema is None or not isinstance(part, str) else schema.nested.get(part)
            )
        return schema

    def fields_at(self, loc: Loc) -> tuple[str, ...]:
        """The fields of the document at `loc`; none where no schema's document is."""
        schema = self.at(loc)
        return () if schema is None else schema.properties

    def never_null(self, field: str) -> bool:
        """Whether `field` may be left out but not set to null: optional, without a default
        (a type error then says so: null is not among its types)."""
        return (
            field in self.properties and field not in self.required and field not in self.defaults
        )


def _schema(module: ModuleType) -> Schema:
    return Schema(
        module.__name__.rpartition(".")[2],
        module.TITLE,
        module.validate,
        tuple(module.PROPERTIES),
        tuple(module.REQUIRED),
        MappingProxyType(dict(module.DEFAULTS)),
        MappingProxyType({name: _schema(inner) for name, inner in module.NESTED.items()}),
    )


PROFILE = _schema(safety_profile_schema)
ACTION = _schema(action_schema)
_AUTOMATION = _schema(automation_profile_schema)


# --- the schema's errors, in the models' terms ------------------------------------------------


def _located(name: str, document: Any, root: Schema) -> Loc:
    """The place fastjsonschema names `data.field[index]`, as keys and indices of `document`.

    The name is made of the schemas' property names and of indices: at each step, the field of
    the schema there that the document holds and the name goes on with (a key the document
    keeps as written may hold a dot, a field never does), or the index into the list there."""
    rest = name.removeprefix("data")
    loc: list[str | int] = []
    value: Any = document
    schema: Schema | None = root
    while rest:
        if isinstance(value, list) and rest.startswith("["):
            index_text, _, rest = rest[1:].partition("]")
            loc.append(int(index_text))
            value, schema = value[int(index_text)], None
            continue
        found = [
            field
            for field in (schema.properties if schema and isinstance(value, dict) else ())
            if field in value and rest.startswith(f".{field}")
            if rest[len(field) + 1 : len(field) + 2] in ("", ".", "[")
        ]
        if schema is None or len(found) != 1:
            raise LookupError(f"the schema's error names {name!r}, which the document lacks")
        loc.append(found[0])
        value, schema = value[found[0]], schema.nested.get(found[0])
        rest = rest[len(found[0]) + 1 :]
    return tuple(loc)


# The model's error for a value whose JSON Schema type is wrong, by that type.
_TYPE_ERRORS = {
    "boolean": "bool_type",
    "integer": "int_type",
    "number": "float_type",
    "string": "string_type",
    "object": "model_type",
    "array": "is_instance_of",  # pydantic's check that a value is a Sequence
}


def _type_error(error: JsonSchemaValueException, loc: Loc, root: Schema) -> FieldError:
    expected = error.definition["type"]
    kind = _TYPE_ERRORS[expected[0] if isinstance(expected, list) else expected]
    parent = root.at(loc[:-1]) if loc else None
    if error.value is None and parent is not None and parent.never_null(str(loc[-1])):
        return _rule_error(NULL_NOT_ALLOWED, loc, None)
    if kind == "is_instance_of" and isinstance(error.value, str):
        return FieldError("sequence_str", loc, error.value, {"type_name": "str"})
    return FieldError(kind, loc, error.value)


def _as_held(value: Any, definition: Mapping[str, Any]) -> Any:
    """A value as the model holds it: JSON Schema's integer takes a whole float, which the
    model makes an int."""
    if definition.get("type") == "integer" and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# The model's error for a limit of JSON Schema, and the name of the limit in its context.
_LIMITS = {
    "minimum": ("greater_than_equal", "ge"),
    "maximum": ("less_than_equal", "le"),
    "minLength": ("string_too_short", "min_length"),
}


def _schema_errors(
    error: JsonSchemaValueException, document: Any, root: Schema
) -> list[FieldError]:
    """One error of the generated code, as the model's errors for the same place."""
    loc = _located(str(error.name), document, root)
    definition, value = error.definition, error.value
    if error.rule == "type":
        return [_type_error(error, loc, root)]
    if error.rule == "required":
        return [
            FieldError("missing", (*loc, key), value)
            for key in definition["required"]
            if key not in value
        ]
    if error.rule == "additionalProperties":
        known = definition.get("properties", {})
        return [
            FieldError("extra_forbidden", (*loc, key), item)
            for key, item in value.items()
            if key not in known
        ]
    if error.rule in _LIMITS:
        kind, name = _LIMITS[error.rule]
        return [FieldError(kind, loc, _as_held(value, definition), {name: definition[error.rule]})]
    raise LookupError(f"no model error for the schema keyword {error.rule!r} (at {error.name})")


_TYPE_ERROR_KINDS = frozenset({*_TYPE_ERRORS.values(), "sequence_str", NULL_NOT_ALLOWED.kind})


def _one_type_error_per_place(errors: list[FieldError]) -> list[FieldError]:
    """Where a value has the wrong type, that is its only error, as in the model."""
    mistyped = {error.loc for error in errors if error.kind in _TYPE_ERROR_KINDS}
    return [
        error for error in errors if error.kind in _TYPE_ERROR_KINDS or error.loc not in mistyped
    ]


# --- the rules beyond the schema, for each schema ----------------------------------------------


def _from_rule(finding: RuleFinding, prefix: Loc) -> FieldError:
    message = fill_template(finding.message, finding.context)
    return FieldError(
        finding.kind, (*prefix, *finding.loc), finding.input, finding.context, message
    )


def _rule_error(
    rule: RuleMessage, loc: Loc, value: Any, context: dict[str, Any] | None = None
) -> FieldError:
    return FieldError(rule.kind, loc, value, context, fill_template(rule.template, context))


def _profile_rules(
    profile: dict[str, Any], prefix: Loc, errors: list[FieldError]
) -> list[FieldError]:
    """The profile's rules beyond its schema, each only where the fields it reads are valid
    (`errors`: the schema's errors of the whole document)."""
    wrong = {error.loc[: len(prefix) + 1] for error in errors}
    found = [
        _rule_error(NOT_FINITE, (*prefix, field), profile[field])
        for field in COST_FIELDS
        if field in profile and not is_finite_number(profile[field])
    ]
    wrong |= {error.loc for error in found}
    categories = profile.get(CATEGORIES_FIELD, [])
    if (*prefix, CATEGORIES_FIELD) not in wrong and normalised_categories(categories) is None:
        found.append(_rule_error(BLANK_CATEGORIES, (*prefix, CATEGORIES_FIELD), categories))
    per_plan, total = (
        None if (*prefix, field) in wrong or profile.get(field) is None else float(profile[field])
        for field in COST_FIELDS
    )
    if not cost_order_holds(per_plan, total):
        context = {"per_plan": per_plan, "total": total}
        found.append(_rule_error(COST_ORDER, (*prefix, TOTAL_FIELD), profile[TOTAL_FIELD], context))
    return found


def _automation_rules(
    automation: dict[str, Any], prefix: Loc, errors: list[FieldError]
) -> list[FieldError]:
    return [
        _from_rule(found, prefix) for found in kept_key_findings(automation, _AUTOMATION.properties)
    ]


def _action_rules(
    action: dict[str, Any], prefix: Loc, errors: list[FieldError]
) -> list[FieldError]:
    findings = action_key_findings(action, ACTION.properties, PROFILE.properties)
    return [_from_rule(found, prefix) for found in findings]


_RULES: dict[str, Callable[[dict[str, Any], Loc, list[FieldError]], list[FieldError]]] = {
    PROFILE.name: _profile_rules,
    ACTION.name: _action_rules,
    _AUTOMATION.name: _automation_rules,
}


def _documents(
    schema: Schema, value: Any, loc: Loc
) -> Iterator[tuple[Schema, dict[str, Any], Loc]]:
    """Each document of a schema in `value` (itself, then the nested ones) that is a mapping."""
    if isinstance(value, dict):
        yield schema, value, loc
        for field, inner in schema.nested.items():
            if field in value:
                yield from _documents(inner, value[field], (*loc, field))


def document_errors(schema: Schema, document: dict[str, Any]) -> list[FieldError]:
    """Every error the model of `schema` raises for `document`, in no particular order."""
    try:
        schema.validate(document)
        errors: list[FieldError] = []
    except JsonSchemaValuesException as raised:
        errors = [
            found for error in raised.errors for found in _schema_errors(error, document, schema)
        ]
    errors = _one_type_error_per_place(errors)
    for inner, value, loc in list(_documents(schema, document, ())):
        rules = _RULES[inner.name](value, loc, errors)
        # A cost that is not finite has that error alone (not also the schema's bound).
        replaced = {error.loc for error in rules if error.kind == NOT_FINITE.kind}
        errors = [error for error in errors if error.loc not in replaced] + rules
    return errors


class CheckedDocument(NamedTuple):
    """A loaded document checked against a schema: every problem (loading's and the
    schema's, sorted), the top-level keys as written (to tell what kind it resembles), and the
    document when it is valid (None when it has a problem)."""

    problems: tuple[Problem, ...]
    top_level_keys: tuple[str, ...]
    valid: dict[str, Any] | None


def check_loaded(loaded: LoadedFile, schema: Schema, filename: str) -> CheckedDocument:
    """Every problem of what `load_file` or `load_bytes` loaded, checked as a document of
    `schema`, the loader's included: a duplicate key fails the file even when the rest is
    valid."""
    problems = list(loaded.problems)
    if loaded.mapping is not None and loaded.document is not None:
        errors = document_errors(schema, loaded.mapping)
        problems += problems_from_errors(errors, loaded.document, schema.fields_at, filename)
    if problems or loaded.mapping is None:
        return CheckedDocument(tuple(sorted(problems)), loaded.top_level_keys, None)
    return CheckedDocument((), loaded.top_level_keys, loaded.mapping)
