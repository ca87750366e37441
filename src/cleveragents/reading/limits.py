"""Resource bounds for reading one document (documented in docs/one-file-one-meaning.md)."""

from __future__ import annotations

from .lean_typing import NamedTuple


class LoadLimits(NamedTuple):
    """Resource bounds for one document, each checked before the work it bounds is done."""

    max_bytes: int = 1024 * 1024
    max_depth: int = 64
    max_nodes: int = 100_000
    # Characters of scalar text once aliases are expanded. Without aliases a document holds no
    # more text than its file, so this only ever refuses documents that expand through aliases.
    max_expanded_text: int = 1024 * 1024
    # Digits of an integer literal: enough for any 128-bit number, and far below the length at
    # which Python refuses to convert an integer to text (4,300 digits).
    max_integer_digits: int = 40


DEFAULT_LIMITS = LoadLimits()
