"""The field-by-field lines `show` and `resolve` print for a profile, built from the schema.

A test names the values its file gives; every other field of the schema is shown at its default,
so a new field in the schema needs no edit of a test's expected text.
"""

from __future__ import annotations

import json

from field_lists import SCHEMA_DEFAULTS


def shown_profile_lines(
    from_file: dict[str, str], *, indent: str = "", width: int | None = None
) -> list[str]:
    """`FIELD: VALUE  # from file|default` for every schema field, padded to `width` columns.

    `from_file` maps a field to the text shown for its value; the others show the schema's
    default. Without `width`, the longest `FIELD: VALUE` sets it.
    """
    unknown = set(from_file) - set(SCHEMA_DEFAULTS)
    assert not unknown, f"not fields of the schema: {sorted(unknown)}"
    rows = [
        (
            f"{indent}{name}: {from_file[name] if name in from_file else json.dumps(default)}",
            "from file" if name in from_file else "default",
        )
        for name, default in SCHEMA_DEFAULTS.items()
    ]
    pad = max(len(text) for text, _ in rows) if width is None else width
    return [f"{text:<{pad}}  # {mark}" for text, mark in rows]
