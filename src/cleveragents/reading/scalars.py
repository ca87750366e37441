"""Scalars: YAML 1.2 core-schema resolution and construction."""

from __future__ import annotations

import math
import re
from typing import Any

CORE = "tag:yaml.org,2002:"
STR_TAG, INT_TAG, FLOAT_TAG, BOOL_TAG, NULL_TAG = (
    CORE + name for name in ("str", "int", "float", "bool", "null")
)
MAP_TAG, SEQ_TAG = CORE + "map", CORE + "seq"
SCALAR_TAGS = (STR_TAG, INT_TAG, FLOAT_TAG, BOOL_TAG, NULL_TAG)
CORE_TAGS = (*SCALAR_TAGS, MAP_TAG, SEQ_TAG)

# The YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution).
_NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL_RE = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT_RE = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT_RE = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)

# YAML 1.1 read these as booleans; YAML 1.2 (and we) read them as strings.
YAML11_BOOLEAN_WORDS = frozenset({"yes", "no", "on", "off", "y", "n"})


def resolve_plain(value: str) -> str:
    if _NULL_RE.match(value):
        return NULL_TAG
    if _BOOL_RE.match(value):
        return BOOL_TAG
    if _INT_RE.match(value):
        return INT_TAG
    if _FLOAT_RE.match(value):
        return FLOAT_TAG
    return STR_TAG


def construct_scalar(tag: str, text: str) -> Any:
    """Build a core-schema scalar; ValueError when `text` is not a valid `tag`."""
    if tag == STR_TAG:
        return text
    if tag == NULL_TAG:
        if not _NULL_RE.match(text):
            raise ValueError(f"{text!r} is not a valid null")
        return None
    if tag == BOOL_TAG:
        if not _BOOL_RE.match(text):
            raise ValueError(f"{text!r} is not a valid boolean")
        return text.lower() == "true"
    if tag == INT_TAG:
        if not _INT_RE.match(text):
            raise ValueError(f"{text!r} is not a valid integer")
        if text.startswith("0o"):
            return int(text[2:], 8)
        if text.startswith("0x"):
            return int(text[2:], 16)
        return int(text)
    if tag == FLOAT_TAG:
        if not _FLOAT_RE.match(text):
            raise ValueError(f"{text!r} is not a valid number")
        lowered = text.lower()
        if lowered.endswith(".nan"):
            return math.nan
        if lowered.endswith(".inf"):
            return -math.inf if lowered.startswith("-") else math.inf
        return float(text)
    raise ValueError(f"the tag {tag!r} is not allowed; only plain YAML values are")


def short_tag(tag: str) -> str:
    return "!!" + tag[len(CORE) :] if tag.startswith(CORE) else tag


def yaml12_loader(base: type[Any]) -> type[Any]:
    """`base` (a PyYAML loader class) with YAML 1.2 core tag resolution instead of YAML 1.1's."""
    loader = type(f"Yaml12{base.__name__}", (base,), {})
    # Start from no implicit resolvers (PyYAML's include YAML 1.1 booleans and timestamps).
    loader.yaml_implicit_resolvers = {}  # type: ignore[attr-defined]
    for tag, pattern, first in (
        (NULL_TAG, _NULL_RE, ["~", "n", "N", ""]),
        (BOOL_TAG, _BOOL_RE, list("tTfF")),
        (INT_TAG, _INT_RE, list("-+0123456789")),
        (FLOAT_TAG, _FLOAT_RE, list("-+0123456789.")),
    ):
        loader.add_implicit_resolver(tag, pattern, first)  # type: ignore[attr-defined]
    return loader
