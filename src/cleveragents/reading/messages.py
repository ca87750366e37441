"""Turn validation errors into `Problem`s a person can act on.

Two validators give their errors as `FieldError`s, in the models' terms (pydantic's error types
and the rules' own): the one every command runs (`document_check`, from the code generated from
the schema) and the models' (`validation`, from pydantic's errors, for the Python API). The
words, places and rule ids are made here, once, for both; tests/domain/test_command_path_agrees.py
proves the two give the same errors. Each message says what was found and what is expected,
suggests the nearest field name for an unknown key, and `true`/`false` for YAML 1.1 words such
as `yes`. No pydantic here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from .describe import describe_value
from .lean_typing import TYPE_CHECKING, NamedTuple
from .nodes import YamlDocument
from .problems import Loc, Problem, render_loc
from .rules import Rule
from .scalars import YAML11_BOOLEAN_WORDS

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "FieldError",
    "FieldsAt",
    "describe_error",
    "fill_template",
    "problems_from_errors",
    "schema_rule",
]


class FieldError(NamedTuple):
    """One error in a document, as the models name it: its type (pydantic's, such as
    `bool_type` or `missing`, or a rule's, such as `cost_order`), where it is (keys and
    indices), the value found there (for `missing`, the mapping the key is missing from), the
    type's context (`{"ge": 0}`), and the message of a type this module has no words for (a
    rule's own, already filled in)."""

    kind: str
    loc: Loc
    input: Any
    context: Mapping[str, Any] | None = None
    message: str = ""


# The field names of the mapping at a place in the document (none when it is not a document
# of a schema): what an unknown key is compared with.
FieldsAt = Callable[[Loc], Sequence[str]]


def fill_template(template: str, context: Mapping[str, Any] | None) -> str:
    """A rule's message with each `{name}` replaced by its value in `context`, as pydantic
    fills a custom error's message (with `str`)."""
    for name, value in (context or {}).items():
        template = template.replace(f"{{{name}}}", str(value))
    return template


def _unknown_key(error: FieldError, fields_at: FieldsAt) -> str:
    key = str(error.loc[-1])
    if key == "<<":
        return "merge keys ('<<') are not supported (YAML 1.2 has none); write the fields out"
    known = list(fields_at(error.loc[:-1]))
    if not known:
        return f"unknown field {key!r}; remove it"
    from .field_names import closest_field  # only for a key no field has

    close = closest_field(key, known)
    if close is not None:
        return f"unknown field {key!r}; did you mean {close!r}?"
    return f"unknown field {key!r}; expected one of: {', '.join(known)}"


_TRUE_WORDS = frozenset({"true", "yes", "on", "y"})


def _bool_message(value: Any) -> str:
    found = describe_value(value)
    if not isinstance(value, str):
        return f"{found} is not a boolean; expected true or false"
    word = value.strip().lower()
    meant = "true" if word in _TRUE_WORDS else "false"
    if word in ("true", "false"):
        return f"{found} is not a boolean; remove the quotes: {meant}"
    if word in YAML11_BOOLEAN_WORDS:
        return (
            f"{found} is not a boolean; write {meant} "
            "(YAML 1.1 words such as yes/no/on/off are strings in YAML 1.2)"
        )
    return f"{found} is not a boolean; expected true or false"


def _bound(value: Any) -> str:
    """`0.0` -> `0`: bounds read as the schema writes them."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _too_short_message(value: Any, min_length: Any) -> str:
    if min_length == 1:
        return f"{describe_value(value)} is empty; expected a non-empty string"
    return f"{describe_value(value)} is too short; expected at least {min_length} characters"


# Wrong-type errors: what was expected, in words ("'3' (a string) is not an integer; ...").
_WRONG_TYPE: dict[str, tuple[str, str]] = {
    "int_type": ("an integer", "a whole number"),
    "float_type": ("a number", "a number >= 0 or null"),
    "finite_number": ("a finite number", "a number >= 0 or null"),
    "string_type": ("a string", "a string"),
    **dict.fromkeys(
        ("sequence_str", "is_instance_of", "list_type", "tuple_type"), ("a list", "a list")
    ),
    **dict.fromkeys(
        ("model_type", "dict_type", "model_attributes_type"), ("a mapping", "a mapping")
    ),
}


def _wrong_type(kind: str) -> Callable[[FieldError], str]:
    what, expected = _WRONG_TYPE[kind]
    return lambda e: f"{describe_value(e.input)} is not {what}; expected {expected}"


def _context(error: FieldError, name: str) -> Any:
    return (error.context or {}).get(name)


_MESSAGES: dict[str, Callable[[FieldError], str]] = {
    **{kind: _wrong_type(kind) for kind in _WRONG_TYPE},
    "bool_type": lambda e: _bool_message(e.input),
    "greater_than_equal": lambda e: (
        f"{describe_value(e.input)} is below the minimum {_bound(_context(e, 'ge'))}"
    ),
    "less_than_equal": lambda e: (
        f"{describe_value(e.input)} is above the maximum {_bound(_context(e, 'le'))}"
    ),
    "missing": lambda e: f"required field {e.loc[-1]!r} is missing; add it",
    "string_too_short": lambda e: _too_short_message(e.input, _context(e, "min_length")),
}


# Errors about a key rather than its value point at the key.
_ABOUT_A_KEY = frozenset(
    {
        "extra_forbidden",
        "misspelt_field",
        "invisible_characters",
        "confusable_field",
        "profile_field_at_top_level",
    }
)


def describe_error(error: FieldError, fields_at: FieldsAt) -> str:
    """What one error found and what is expected, in words a person can act on; `fields_at`
    names the fields an unknown key may have been meant as."""
    if error.kind == "extra_forbidden":
        return _unknown_key(error, fields_at)
    describe = _MESSAGES.get(error.kind)
    return describe(error) if describe else error.message


# The rule of each validation error's type: pydantic's own types and the ones the models raise
# (`PydanticCustomError`). A type not named here is `schema.other`.
_RULE_OF_ERROR_TYPE: dict[str, Rule] = {
    "extra_forbidden": Rule.SCHEMA_EXTRA_FORBIDDEN,
    "missing": Rule.SCHEMA_MISSING,
    "bool_type": Rule.SCHEMA_BOOL_TYPE,
    "int_type": Rule.SCHEMA_INT_TYPE,
    "float_type": Rule.SCHEMA_FLOAT_TYPE,
    "finite_number": Rule.SCHEMA_FINITE_NUMBER,
    "non_finite_number": Rule.SCHEMA_NON_FINITE_NUMBER,
    "greater_than_equal": Rule.SCHEMA_GREATER_THAN_EQUAL,
    "less_than_equal": Rule.SCHEMA_LESS_THAN_EQUAL,
    "string_type": Rule.SCHEMA_STRING_TYPE,
    "string_too_short": Rule.SCHEMA_STRING_TOO_SHORT,
    "is_instance_of": Rule.SCHEMA_IS_INSTANCE_OF,
    "sequence_str": Rule.SCHEMA_SEQUENCE_STR,
    "model_type": Rule.SCHEMA_MODEL_TYPE,
    "null_not_allowed": Rule.SCHEMA_NULL_NOT_ALLOWED,
    "cost_order": Rule.SCHEMA_COST_ORDER,
    "blank_categories": Rule.SCHEMA_BLANK_CATEGORIES,
    "misspelt_field": Rule.SCHEMA_MISSPELT_FIELD,
    "confusable_field": Rule.SCHEMA_CONFUSABLE_FIELD,
    "profile_field_at_top_level": Rule.SCHEMA_PROFILE_FIELD_AT_TOP_LEVEL,
    "invisible_characters": Rule.SCHEMA_INVISIBLE_CHARACTERS,
}


def schema_rule(error_type: str) -> Rule:
    """The rule of a validation error's type (`less_than_equal` -> `schema.less-than-equal`);
    `schema.other` for a type the catalogue does not name."""
    return _RULE_OF_ERROR_TYPE.get(error_type, Rule.SCHEMA_OTHER)


def problems_from_errors(
    errors: Iterable[FieldError], document: YamlDocument, fields_at: FieldsAt, filename: str
) -> list[Problem]:
    """One `Problem` per error, placed where the offending value (or key) starts; none where
    the loader already said what is wrong there, in YAML's terms."""
    problems = []
    for error in errors:
        loc = error.loc
        if document.already_reported(loc):
            continue
        if error.kind in _ABOUT_A_KEY:
            line, column = document.position(loc, of_key=True)
        else:
            line, column = document.position(loc[:-1] if error.kind == "missing" else loc)
        message = describe_error(error, fields_at)
        problems.append(
            Problem(filename, line, column, render_loc(loc), message, schema_rule(error.kind))
        )
    return problems
