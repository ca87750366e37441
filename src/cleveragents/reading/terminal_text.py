"""Text from files, and file names, as a terminal may safely show them.

A key, a value or a file name can hold characters a terminal acts on instead of showing: escape
sequences that clear the screen or set the window title, a carriage return or backspace that
overwrite a line, bidi controls that reorder it, invisible format characters. Printed raw, a
hostile file could hide its own report and print a fake one. `visible` writes each such
character as an escape a person can read, in Python's notation:

* tab, newline and carriage return: `\\t`, `\\n`, `\\r`;
* the other C0 controls and DEL: `\\x1b`, `\\x7f`;
* C1 controls, bidi controls and every other format character (Unicode category Cf, such as
  U+200B and U+FEFF), U+2028 and U+2029: `\\u0085`, `\\u202e`, `\\U000e0001`;
* a byte of a file name that is not UTF-8 (Python holds it as a lone surrogate): `\\xff`.
  C1 controls are written `\\u0080`-`\\u009f`, so `\\x80`-`\\xff` always means such a byte.

A backslash that would read as the start of one of these escapes is doubled, so the output reads
back one way only. Text that already writes what it quotes with backslash escapes (a message
quoting a value with Python's repr, a JSON string) keeps its backslashes as they are:
`escape_backslashes=False`.
"""

from __future__ import annotations

import unicodedata

__all__ = ["visible"]

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
# Letters that, after a backslash, start an escape in the notation above.
_ESCAPE_LETTERS = frozenset("\\xuUtnr")
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_SURROGATE_ESCAPED_BYTES = range(0xDC80, 0xDD00)  # os.fsdecode's `surrogateescape`


def _needs_escape(character: str) -> bool:
    # isprintable() is False for every hidden category, and for a few harmless ones (Zs, Co, Cn).
    return not character.isprintable() and (unicodedata.category(character) in _HIDDEN_CATEGORIES)


def _escape(character: str) -> str:
    code = ord(character)
    if character in _NAMED:
        return _NAMED[character]
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    if code in _SURROGATE_ESCAPED_BYTES:
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible(text: str, *, escape_backslashes: bool = True) -> str:
    """`text` with every character a terminal would act on or hide written as an escape."""
    if text.isprintable() and (not escape_backslashes or "\\" not in text):
        return text  # the usual case, at C speed
    parts = []
    for index, character in enumerate(text):
        if _needs_escape(character):
            parts.append(_escape(character))
        elif character == "\\" and escape_backslashes and _starts_escape(text, index + 1):
            parts.append("\\\\")
        else:
            parts.append(character)
    return "".join(parts)


def _starts_escape(text: str, index: int) -> bool:
    """Whether a backslash before `text[index]` would read as the start of an escape."""
    if index >= len(text):
        return False
    following = text[index]
    return following in _ESCAPE_LETTERS or _needs_escape(following)
