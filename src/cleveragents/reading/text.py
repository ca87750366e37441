"""Reading bytes: size, encoding and the characters YAML readers disagree on."""

from __future__ import annotations

import re

import yaml

from .problems import Problem, ProfileFileError

# Line breaks in YAML 1.1 (and to libyaml) but ordinary characters in YAML 1.2 (and to editors
# and check-jsonschema): two readers would see different documents, so they are refused.
AMBIGUOUS_BREAK = re.compile("[\u0085\u2028\u2029]")


def _problem_at(text: str, offset: int, filename: str, message: str, rule: str) -> Problem:
    """A problem at character `offset` of `text` (lines counted by LF, as editors do)."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Problem(filename, line, column, "$", message, rule)


def ambiguous_break_problem(found: re.Match[str], text: str, filename: str) -> Problem:
    return _problem_at(
        text,
        found.start(),
        filename,
        f"the character U+{ord(found.group()):04X} is a line break to some YAML readers and "
        "not to others; remove it",
        "yaml.ambiguous-line-break",
    )


def character_problem(error: yaml.reader.ReaderError, text: str, filename: str) -> Problem:
    """A character YAML forbids (control characters and the like), located in `text`.

    The parsers report its offset in different units, so it is looked up by value."""
    return _problem_at(
        text,
        max(text.find(chr(error.character)), 0),
        filename,
        f"the character U+{error.character:04X} is not allowed in YAML ({error.reason}); remove it",
        "yaml.character",
    )


def decode_utf8(data: bytes, filename: str) -> str:
    """The text of `data`, or ProfileFileError naming where the first non-UTF-8 byte is."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ProfileFileError(
            [
                Problem(
                    filename,
                    1,
                    1,
                    "$",
                    "the file is UTF-16 text; save it as UTF-8",
                    "yaml.encoding",
                )
            ]
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1
        column = error.start - (before.rfind(b"\n") + 1) + 1
        raise ProfileFileError(
            [
                Problem(
                    filename,
                    line,
                    column,
                    "$",
                    f"the file is not UTF-8 text (byte 0x{data[error.start]:02x}); "
                    "save it as UTF-8",
                    "yaml.encoding",
                )
            ]
        ) from None
