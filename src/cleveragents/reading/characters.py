"""Characters that are not what they look like: finding them and naming them in messages."""

from __future__ import annotations

import unicodedata


def invisible_characters(text: str) -> list[str]:
    """The invisible format characters (Unicode category Cf: U+200B, U+2060, U+FEFF, ...) in
    `text`, which make a key differ from the key it looks like."""
    if text.isascii():
        return []
    return [character for character in text if unicodedata.category(character) == "Cf"]


def name_characters(characters: list[str]) -> str:
    """`U+200B ZERO WIDTH SPACE, U+0430 CYRILLIC SMALL LETTER A`: each distinct character once."""
    named = dict.fromkeys(
        f"U+{ord(character):04X} {unicodedata.name(character, '')}".rstrip()
        for character in characters
    )
    return ", ".join(named)
