"""Scalars: how YAML 1.2, YAML 1.1 and lenient readers read each one, and whether they agree.

We read YAML 1.2 core scalars, as editors do. Applications that load the same file with PyYAML
read YAML 1.1, and ruamel (check-jsonschema) allows `_` and signs in numbers that YAML 1.2 reads
as text. A scalar that two of them read as different values (`010` is 10 to one and 8 to the
other, `yes` is a string to one and true to the other, `1e3` a number to one and a string to the
other, `0o1_7` text to one and 15 to another) is refused, with both readings and the unambiguous
spelling.
"""

from __future__ import annotations

import datetime
import functools
import math
import re

import yaml

from .lean_typing import TYPE_CHECKING, NamedTuple
from .rules import Rule

if TYPE_CHECKING:
    from typing import Any, Final

CORE = "tag:yaml.org,2002:"
STR_TAG, INT_TAG, FLOAT_TAG, BOOL_TAG, NULL_TAG = (
    CORE + name for name in ("str", "int", "float", "bool", "null")
)
MAP_TAG, SEQ_TAG = CORE + "map", CORE + "seq"
SCALAR_TAGS = (STR_TAG, INT_TAG, FLOAT_TAG, BOOL_TAG, NULL_TAG)
CORE_TAGS = (*SCALAR_TAGS, MAP_TAG, SEQ_TAG)
# What the composing loader gives a plain scalar without a tag: resolved later, both ways.
IMPLICIT_TAG: Final = "!implicit-plain-scalar"

# The YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution): its null and
# boolean words, whole, and its numbers. `\Z`, not `$`: a tagged quoted scalar can end in a
# newline (`!!int "3\n"`), which `$` would let through.
_NULL_WORDS = frozenset({"~", "null", "Null", "NULL", ""})
_BOOL_WORDS = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
_INT_RE = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z")
_FLOAT_RE = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"
)

# YAML 1.1 words for booleans; plain, they are refused (YAML 1.2 reads them as strings).
YAML11_BOOLEAN_WORDS = frozenset({"yes", "no", "on", "off", "y", "n"})


def resolve_plain(value: str) -> str:
    """The YAML 1.2 core tag of a plain scalar."""
    if value in _NULL_WORDS:
        return NULL_TAG
    if value in _BOOL_WORDS:
        return BOOL_TAG
    if _INT_RE.match(value):
        return INT_TAG
    if _FLOAT_RE.match(value):
        return FLOAT_TAG
    return STR_TAG


def construct_scalar(tag: str, text: str) -> Any:
    """Build a YAML 1.2 core-schema scalar; ValueError when `text` is not a valid `tag`."""
    if tag == STR_TAG:
        return text
    if tag == NULL_TAG:
        if text not in _NULL_WORDS:
            raise ValueError(f"{text!r} is not a valid null")
        return None
    if tag == BOOL_TAG:
        if text not in _BOOL_WORDS:
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


def composing_loader(base: type[Any]) -> type[Any]:
    """`base` (a PyYAML loader class) composing nodes without resolving them: a plain scalar
    without a tag gets IMPLICIT_TAG, so the walk can read it both ways."""

    def resolve(self: Any, kind: type[Any], value: Any, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode:
            return IMPLICIT_TAG if implicit[0] else STR_TAG
        return SEQ_TAG if kind is yaml.SequenceNode else MAP_TAG

    # The composer calls these around every node for path resolvers (`add_path_resolver`),
    # which this loader never has: they have nothing to do, and do it with the fewest steps.
    def descend_resolver(self: Any, current_node: Any, current_index: Any) -> None:
        pass

    def ascend_resolver(self: Any) -> None:
        pass

    methods = {
        "resolve": resolve,
        "descend_resolver": descend_resolver,
        "ascend_resolver": ascend_resolver,
    }
    return type(f"Composing{base.__name__}", (base,), methods)


# --- YAML 1.1, as PyYAML reads it -------------------------------------------------------------

# PyYAML's own resolver and constructor: exactly what `yaml.safe_load` applies.
_YAML11_RESOLVER = yaml.resolver.Resolver()
_YAML11_CONSTRUCTOR = yaml.constructor.SafeConstructor()
# The YAML 1.1 boolean type also lists y/Y/n/N (https://yaml.org/type/bool.html), which PyYAML
# leaves out but other YAML 1.1 readers (Go's yaml.v2) read as booleans.
_YAML11_SHORT_BOOLEANS = {"y": True, "Y": True, "n": False, "N": False}


class _Unreadable:
    """A YAML 1.1 reader raises an error for this scalar."""

    def __repr__(self) -> str:
        return "UNREADABLE"


UNREADABLE: Final = _Unreadable()


def yaml11_plain_tag(text: str) -> str:
    """The tag YAML 1.1 resolves a plain scalar to: PyYAML's resolver, plus y/Y/n/N."""
    if text in _YAML11_SHORT_BOOLEANS:
        return BOOL_TAG
    tag: str = _YAML11_RESOLVER.resolve(  # type: ignore[no-untyped-call]
        yaml.ScalarNode, text, (True, False)
    )
    return tag


def read_yaml11(text: str, tag: str) -> Any:
    """What PyYAML's `safe_load` makes of a scalar of `tag` (explicit, or as
    `yaml11_plain_tag` resolves it); UNREADABLE when it raises."""
    if tag == BOOL_TAG and text in _YAML11_SHORT_BOOLEANS:
        return _YAML11_SHORT_BOOLEANS[text]
    construct = _YAML11_CONSTRUCTOR.yaml_constructors.get(tag)
    if construct is None:  # merge keys and `=` values: no scalar constructor
        return UNREADABLE
    try:
        return construct(_YAML11_CONSTRUCTOR, yaml.ScalarNode(tag, text))
    except Exception:  # a reader crash is a reading too: it disagrees with ours
        return UNREADABLE


def same_reading(ours: Any, theirs: Any) -> bool:
    """Whether two readings are the same value of the same type (NaN equals NaN here)."""
    if type(ours) is not type(theirs):
        return False
    if isinstance(ours, float) and math.isnan(ours):
        return math.isnan(theirs)
    return bool(ours == theirs)


def _reading_in_words(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {canonical_spelling(value)}"
    if isinstance(value, datetime.date):
        return f"the {'date and time' if isinstance(value, datetime.datetime) else 'date'} {value}"
    if isinstance(value, str):
        return f"the text {_quoted(value)}"
    return type(value).__name__


def _quoted(text: str) -> str:
    """`text` in double quotes, escaped as JSON (and YAML) escape it."""
    import json  # only a message needs it; loading a valid file starts without it

    return json.dumps(text, ensure_ascii=False)


def canonical_spelling(value: Any) -> str | None:
    """How a value is written unambiguously, as a plain YAML scalar; None for text and dates."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        spelled = repr(value)
        # YAML 1.1 needs a dot in every number with an exponent: 1e+308 is text to PyYAML.
        if "e" in spelled and "." not in spelled:
            mantissa, exponent = spelled.split("e")
            spelled = f"{mantissa}.0e{exponent}"
        return spelled
    return None


class OtherReader(NamedTuple):
    """How a message names a reader: when it reads a value, and when it cannot."""

    reads: str
    fails: str


YAML11_READER = OtherReader(
    "in YAML 1.1 (as PyYAML's safe_load reads it)", "YAML 1.1 (PyYAML's safe_load)"
)
LENIENT_READER = OtherReader(
    "to readers that allow '_' in numbers and a sign before 0o and 0x (ruamel, as "
    "check-jsonschema reads it)",
    "ruamel (check-jsonschema)",
)

# The numbers of readers lenient about YAML 1.2's (ruamel's YAML 1.2 resolver, which
# check-jsonschema uses): `_` anywhere among the digits, a sign before 0b, 0o and 0x.
_LENIENT_NUMBER = re.compile(
    r"^[-+]?(?:0b[01_]+|0o?[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+"
    r"|[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[0-9][0-9_]*[eE][-+]?[0-9]+"
    r"|\.[0-9_]+(?:[eE][-+][0-9]+)?)\Z"
)
_SIGNED_PREFIXED = re.compile(r"^([-+]?)0([box])([0-9a-fA-F]+)\Z")


def read_leniently(text: str) -> Any:
    """What readers lenient about YAML 1.2 numbers make of a plain scalar that YAML 1.2 reads
    as text (`0o1_7` is 15, `-0o17` is -15, `-_` makes them fail): a number, UNREADABLE, or
    None when they read text too."""
    if text[:1] not in tuple("-+.0123456789") or not _LENIENT_NUMBER.match(text):
        return None  # ruamel, like PyYAML, looks for numbers only from these first characters
    compact = text.replace("_", "")
    prefixed = _SIGNED_PREFIXED.match(compact)
    try:
        if prefixed:
            sign, base, digits = prefixed.groups()
            number = int(digits, {"b": 2, "o": 8, "x": 16}[base])
            return -number if sign == "-" else number
        tag = resolve_plain(compact)
        if tag in (INT_TAG, FLOAT_TAG):
            return construct_scalar(tag, compact)
    except ValueError:
        pass
    return UNREADABLE


def _meant(yaml12: Any, theirs: Any) -> str | None:
    """The value meant, spelt so that every reader agrees (None: only quoting helps)."""
    meant = canonical_spelling(yaml12)
    if meant is None and theirs is not UNREADABLE:
        meant = canonical_spelling(theirs)
    return meant


def ambiguity_message(text: str, yaml12: Any, reader: OtherReader, theirs: Any) -> str:
    """Two readings of a scalar, and how to write what was meant so that every reader agrees."""
    quoted = _quoted(text)
    ours = f"{text} means {_reading_in_words(yaml12)} in YAML 1.2 (as editors read it)"
    if theirs is UNREADABLE:
        readings = f"{ours}, and {reader.fails} cannot load it at all"
    else:
        readings = f"{ours} and {_reading_in_words(theirs)} {reader.reads}"
    meant = _meant(yaml12, theirs)
    if meant is None:
        return f"{readings}; quote it ({quoted})"
    return f"{readings}; write {meant}, or quote it ({quoted}) if it is text"


# --- bounds -----------------------------------------------------------------------------------

_INTEGER_DIGITS = re.compile(r"[0-9a-fA-F]")


def integer_digits(text: str) -> int:
    """How many digits an integer literal holds, in any base (signs, prefixes and separators
    aside): the length a reader must convert."""
    body = text.lstrip("+-")
    if body[:2] in ("0x", "0o", "0b", "0X", "0O", "0B"):
        body = body[2:]
    return len(_INTEGER_DIGITS.findall(body))


# --- one scalar, read every way ---------------------------------------------------------------


class ScalarReading(NamedTuple):
    """A scalar's YAML 1.2 value (None when it is refused outright) and the (message, rule) of
    its problem, if it has one."""

    value: Any
    problem: tuple[str, Rule] | None = None


# Plain decimals such as `12.5` or `-0.25`, the commonest scalars no cache helps with (costs):
# YAML 1.2 and YAML 1.1 both read float(text), so the full reading finds nothing to report.
_PLAIN_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+")


def _read_scalar(tag: str, text: str, max_integer_digits: int) -> ScalarReading:
    if tag == IMPLICIT_TAG and _PLAIN_DECIMAL.fullmatch(text):
        return ScalarReading(float(text))
    return read_scalar_fully(tag, text, max_integer_digits)


def read_scalar_fully(tag: str, text: str, max_integer_digits: int) -> ScalarReading:
    """`read_scalar`, every reader asked, whatever the text."""
    if tag == IMPLICIT_TAG:
        ours_tag, theirs_tag = resolve_plain(text), yaml11_plain_tag(text)
    else:
        ours_tag = theirs_tag = tag
    if INT_TAG in (ours_tag, theirs_tag) and integer_digits(text) > max_integer_digits:
        message = (
            f"an integer of {integer_digits(text)} digits is longer than the limit of "
            f"{max_integer_digits} digits; write a shorter number"
        )
        return ScalarReading(None, (message, Rule.YAML_INTEGER_TOO_LONG))
    try:
        value = construct_scalar(ours_tag, text)
    except ValueError as error:
        return ScalarReading(None, (str(error), Rule.YAML_SCALAR))
    other = _other_reading(tag, text, value, ours_tag, theirs_tag)
    if other is not None:
        message = ambiguity_message(text, value, *other)
        return ScalarReading(value, (message, Rule.YAML_AMBIGUOUS_SCALAR))
    return ScalarReading(value)


def _other_reading(
    tag: str, text: str, value: Any, ours_tag: str, theirs_tag: str
) -> tuple[OtherReader, Any] | None:
    """The reader that reads the scalar otherwise than YAML 1.2 does, and its reading."""
    if ours_tag != STR_TAG or theirs_tag != STR_TAG:
        theirs = read_yaml11(text, theirs_tag)
        return None if same_reading(value, theirs) else (YAML11_READER, theirs)
    if tag == IMPLICIT_TAG:
        theirs = read_leniently(text)
        return None if theirs is None else (LENIENT_READER, theirs)
    return None


def unambiguous_spellings(text: str) -> list[str]:
    """For a plain scalar that readers read differently, each reading written so that every
    reader agrees: the value its `yaml.ambiguous-scalar` message says to write (when it has a
    plain spelling), the other reader's value (when that differs: `010` is 10 and 8), then the
    text quoted. Empty when the scalar is not ambiguous."""
    ours_tag, theirs_tag = resolve_plain(text), yaml11_plain_tag(text)
    try:
        value = construct_scalar(ours_tag, text)
    except ValueError:
        return []
    other = _other_reading(IMPLICIT_TAG, text, value, ours_tag, theirs_tag)
    if other is None:
        return []
    theirs = None if other[1] is UNREADABLE else canonical_spelling(other[1])
    spellings = (_meant(value, other[1]), theirs, _quoted(text))
    return list(dict.fromkeys(spelling for spelling in spellings if spelling is not None))


# Files repeat their keys and short values (`true`, `3`, field names): each is read once. Only
# short texts are kept, so the cache stays small whatever the files hold.
_CACHED_TEXT_LENGTH = 64
_read_short_scalar = functools.lru_cache(maxsize=4096)(_read_scalar)


def read_scalar(tag: str, text: str, max_integer_digits: int) -> ScalarReading:
    """How a scalar with `tag` (a core scalar tag, or IMPLICIT_TAG for a plain scalar) reads:
    its YAML 1.2 value, and a problem when it is not a valid value of its tag, when it is an
    integer longer than `max_integer_digits`, or when another reader reads it otherwise
    (YAML 1.1 as PyYAML reads it; for plain text, readers lenient about numbers)."""
    if len(text) <= _CACHED_TEXT_LENGTH:
        return _read_short_scalar(tag, text, max_integer_digits)
    return _read_scalar(tag, text, max_integer_digits)
