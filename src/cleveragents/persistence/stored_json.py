"""A Safety Profile as stored in a database column, and back.

Two stored forms: JSON text (`model_dump_json()`, every database but PostgreSQL) and, on
PostgreSQL, a JSONB value, which the driver hands over as a dict (`model_dump(mode="json")`
going in). Reading parses text strictly and validates either form with
`SafetyProfile.model_validate()`. The model's validator is built once, when the class is
defined, so reading many rows never rebuilds a schema. No SQLAlchemy here.
"""

from __future__ import annotations

import json
import re
from typing import Any, NoReturn

from pydantic import ValidationError

from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.reading.messages import describe_error
from cleveragents.reading.problems import field_prefix, render_loc
from cleveragents.reading.validation import field_error, model_fields_at

__all__ = [
    "UnreadableProfileJSON",
    "UnwritableProfile",
    "parse_strict_json",
    "profile_from_stored",
    "profile_to_json",
    "profile_to_mapping",
]


class UnreadableProfileJSON(ValueError):
    """Stored text that is not a valid Safety Profile; the message says why."""


class UnwritableProfile(ValueError):
    """A profile whose JSON text would not read back as the same profile; the message says why."""


def profile_to_mapping(profile: SafetyProfile) -> dict[str, Any]:
    """The JSON object stored for `profile` in a JSONB column: the same fields and values as
    `profile_to_json`, checked the same way (UnwritableProfile)."""
    return _checked_dump(profile)[1]


def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads would keep the last of two equal keys without a word.
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def _reject_non_json_constant(name: str) -> NoReturn:
    # json.loads accepts NaN and Infinity, which are not JSON.
    raise ValueError(f"{name} is not a JSON value")


# Built once: json.loads(text, **hooks) would build a decoder for every row.
_STRICT_JSON = json.JSONDecoder(
    object_pairs_hook=_reject_duplicate_keys, parse_constant=_reject_non_json_constant
)


# A stored profile nests two levels (an object holding a list); anything far deeper is not one,
# and the JSON decoder would recurse once per level.
MAX_STORED_DEPTH = 64
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _nests_deeper_than(text: str, limit: int) -> bool:
    depth = 0
    for bracket in _BRACKET.findall(_JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > limit:
            return True
    return False


def parse_strict_json(text: str) -> object:
    """`text` as JSON, strictly: no duplicate keys, no NaN or Infinity, no deeper nesting than
    MAX_STORED_DEPTH.

    Raises UnreadableProfileJSON saying why it is not valid JSON."""
    if _nests_deeper_than(text, MAX_STORED_DEPTH):
        raise UnreadableProfileJSON(
            f"the stored value nests deeper than {MAX_STORED_DEPTH} levels, which no Safety "
            "Profile does"
        )
    try:
        return _STRICT_JSON.decode(text)
    except ValueError as error:
        raise UnreadableProfileJSON(f"the stored value is not valid JSON ({error})") from None


def profile_from_stored(stored: object) -> SafetyProfile:
    """The profile stored as `stored`: JSON text, or the dict a JSONB column reads as.

    Raises UnreadableProfileJSON when it is neither, is not valid JSON, or is not valid
    against the Safety Profile schema (every problem is listed, with its field)."""
    if isinstance(stored, str):
        data = parse_strict_json(stored)
    elif isinstance(stored, dict):
        data = stored  # a JSONB value, already parsed by the server and the driver
    else:
        raise UnreadableProfileJSON(f"the stored value is {type(stored).__name__}, not JSON text")
    try:
        return SafetyProfile.model_validate(data)
    except ValidationError as error:
        raise UnreadableProfileJSON(
            "the stored value no longer matches the Safety Profile schema "
            f"({_schema_problems(error)})"
        ) from None


def _schema_problems(error: ValidationError) -> str:
    fields_at = model_fields_at(SafetyProfile)
    return "; ".join(
        field_prefix(render_loc(tuple(detail["loc"])))
        + describe_error(field_error(detail), fields_at)
        for detail in error.errors(include_url=False)
    )


def profile_to_json(profile: SafetyProfile) -> str:
    """The JSON text stored for `profile` in a text column.

    Raises UnwritableProfile when the text would not read back as the same profile: only a
    profile built with `model_construct`, which validates nothing, can break the rules, and a
    row that cannot be read back must never be written."""
    return _checked_dump(profile)[0]


def _checked_dump(profile: SafetyProfile) -> tuple[str, dict[str, Any]]:
    """`profile`'s JSON text and the object it reads back as, once that is known to be the
    same profile (else UnwritableProfile)."""
    text = profile.model_dump_json(warnings=False)  # a bad profile is reported below
    mapping: dict[str, Any] = _STRICT_JSON.decode(text)
    try:
        same = SafetyProfile.model_validate(mapping) == profile
    except ValidationError as error:
        reason = f"breaks the rules ({_schema_problems(error)})"
    else:
        if same:
            return text, mapping
        reason = "would read back as a different profile (JSON has no .nan or .inf)"
    raise UnwritableProfile(
        f"this SafetyProfile {reason}; build profiles with SafetyProfile(...) or "
        "from_config(...), which validate, not model_construct(...)"
    )
