"""The strictness table's cases, one row per change of a field's value: what the change does
and what its reverse does. Shared by the strictness tests and `diff --git`'s (one commit per
row)."""

from __future__ import annotations

from typing import Any

from field_lists import ALLOW_FLAGS, COSTS, FLAGS

from cleveragents.domain.models.core.strictness import Change

T, L = Change.TIGHTENS, Change.LOOSENS

# (field, old value, new value, what new does, what old does compared with new).
CHANGES: list[tuple[str, Any, Any, Change, Change]] = [
    *[row for flag in FLAGS for row in ((flag, False, True, T, L), (flag, True, False, L, T))],
    *[
        row
        for flag in ALLOW_FLAGS
        for row in ((flag, True, False, T, L), (flag, False, True, L, T))
    ],
    *[
        row
        for cost in COSTS
        for row in (
            (cost, 100.0, 50.0, T, L),
            (cost, 50.0, 100.0, L, T),
            (cost, 100.0, None, L, T),  # null is no limit: the loosest
            (cost, 0.0, None, L, T),
            (cost, None, 1000000.0, T, L),
            (cost, 0.5, 0.0, T, L),
        )
    ],
    ("max_retries_per_step", 5, 3, T, L),
    ("max_retries_per_step", 3, 5, L, T),
    ("max_retries_per_step", 0, 1, L, T),
    ("allowed_skill_categories", ["deploy"], [], L, T),  # [] allows every category
    ("allowed_skill_categories", [], ["deploy"], T, L),
    ("allowed_skill_categories", ["deploy", "test"], ["deploy"], T, L),
    ("allowed_skill_categories", ["deploy"], ["deploy", "test"], L, T),
    # Adding one and removing another loosens, in both directions.
    ("allowed_skill_categories", ["deploy", "test"], ["deploy", "ops"], L, L),
    ("allowed_skill_categories", ["code"], ["test"], L, L),
]
