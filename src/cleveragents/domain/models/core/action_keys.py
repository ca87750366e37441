"""Top-level keys of an action that pass for something they are not.

An action keeps top-level keys it does not describe (they belong to other parts of CleverAgents).
A key that only looks like an action field, or a profile field written one level too far out,
would be kept silently and the action would run without the setting its author wrote, so each
of these is an error:

* a key that is an action field once invisible characters (U+200B, ...) are removed;
* a key that is an action field once confusable characters are folded to the ASCII characters
  they look like (`safety_profile` spelt with Cyrillic letters), by Unicode's confusables data
  (UTS #39) as the `confusable_homoglyphs` package ships it;
* a key that is a Safety Profile field (`require_human_approval: true` indented one level too
  little under `safety_profile:`);
* a near miss of an action field (`safety_profle`, `Name`).
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Sequence
from typing import Any

from pydantic_core import InitErrorDetails

from cleveragents.reading.characters import invisible_characters, name_characters

from .kept_keys import key_error
from .safety_profile import SafetyProfile

__all__ = ["confusable_skeleton", "top_level_key_error"]


def confusable_skeleton(text: str) -> str:
    """`text` folded as UTS #39 folds confusables, toward ASCII: compatibility forms
    normalised (NFKC: fullwidth letters), invisible characters removed, and each remaining
    non-ASCII character replaced by the ASCII character Unicode lists it as confusable with."""
    normalised = unicodedata.normalize("NFKC", text)
    hidden = set(invisible_characters(normalised))
    visible = "".join(character for character in normalised if character not in hidden)
    if visible.isascii():
        return visible
    # Imported only for a non-ASCII key: its data takes a moment to load.
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(visible, greedy=True, preferred_aliases=["latin"]) or []
    ascii_for = {}
    for entry in found:
        ascii_glyphs = [glyph["c"] for glyph in entry["homoglyphs"] if glyph["c"].isascii()]
        if ascii_glyphs:
            ascii_for[entry["character"]] = ascii_glyphs[0]
    return "".join(ascii_for.get(character, character) for character in visible)


def top_level_key_error(key: str, fields: Sequence[str], data: Any) -> InitErrorDetails | None:
    """The error for a kept top-level `key` of an action, if it passes for something else."""
    loc = (key,)
    hidden = invisible_characters(key)
    visible = "".join(character for character in key if character not in hidden)
    if hidden and visible in fields:
        return key_error(
            "invisible_characters",
            f"the key {key!r} is {visible!r} with invisible characters "
            f"({name_characters(hidden)}), so the action would not have its {visible}; "
            f"write {visible} without them",
            loc,
            data,
        )
    skeleton = confusable_skeleton(key)
    if skeleton != key and skeleton in fields:
        others = [character for character in key if not character.isascii()]
        return key_error(
            "confusable_field",
            f"the key {key!r} looks like {skeleton!r} but is written with other characters "
            f"({name_characters(others)}), so the action would not have its {skeleton}; "
            f"write {skeleton} in plain letters",
            loc,
            data,
        )
    if key in SafetyProfile.model_fields:
        return key_error(
            "profile_field_at_top_level",
            f"{key!r} is a safety profile field, not an action field; indent it under "
            "safety_profile",
            loc,
            data,
        )
    close = difflib.get_close_matches(key.lower(), fields, cutoff=0.85)
    if close:
        return key_error(
            "misspelt_field",
            f"misspelt field {key!r}; did you mean {close[0]!r}? (other top-level keys are "
            "kept, near misses of action fields are not)",
            loc,
            data,
        )
    return None
