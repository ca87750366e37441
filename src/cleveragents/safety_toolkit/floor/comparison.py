"""The floor compared: each field of a profile looser than a floor, placed in the document
(`below_floor`), and as `check`'s errors (`floor_problems`). Of two versions of one floor file
(`diff --git` holds a file to the old revision's and the new one's), the stricter is reported."""

from __future__ import annotations

from collections.abc import Sequence

from cleveragents.domain.models.core.rendering import below_floor_text
from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple
from cleveragents.reading.problems import Loc, Problem, render_loc
from cleveragents.reading.rules import Rule

if TYPE_CHECKING:
    from cleveragents.domain.models.core.document_values import ProfileValues
    from cleveragents.domain.models.core.strictness import FieldChange
    from cleveragents.reading.nodes import YamlDocument

    from . import Floor

__all__ = ["BelowFloor", "below_floor", "floor_problems"]


class BelowFloor(NamedTuple):
    """One field looser than the floor, placed in the document."""

    change: FieldChange  # old: the floor's value; new: the profile's
    line: int
    column: int
    path: str  # the field, e.g. `safety_profile.require_sandbox` in an action
    message: str


def _stricter_elsewhere(floor: Floor, field: str, floors: Sequence[Floor]) -> bool:
    """Whether another version of the same floor file (`diff --git` holds a file to the floor
    as the old revision and the new one set it) is stricter on `field`: the stricter one is
    the one reported."""
    from cleveragents.domain.models.core.strictness import STRICTNESS_RULES, Change

    own = floor.profile[field]
    same_file = floor.identity.split("\0")[0]
    return any(
        other.identity.split("\0")[0] == same_file
        and other.identity != floor.identity
        and STRICTNESS_RULES[field].compare(own, other.profile[field]) is Change.TIGHTENS
        for other in floors
    )


def below_floor(
    profile: ProfileValues, floors: Sequence[Floor], document: YamlDocument, prefix: Loc
) -> list[BelowFloor]:
    """Each field of `profile` (at `prefix` in `document`) looser than each of the floors,
    placed at the field's value, or where the profile starts when the key is absent. Of two
    versions of one floor file, a field is held to the stricter of them."""
    from cleveragents.domain.models.core.strictness import values_below

    found = []
    for floor in floors:
        for change in values_below(profile.values, floor.profile):
            if len(floors) > 1 and _stricter_elsewhere(floor, change.field, floors):
                continue
            loc = (*prefix, change.field)
            absent = change.field not in profile.given
            line, column = document.position(prefix if absent else loc)
            message = below_floor_text(change, floor.source, absent=absent)
            found.append(BelowFloor(change, line, column, render_loc(loc), message))
    return found


def floor_problems(
    profile: ProfileValues, floors: Sequence[Floor], document: YamlDocument, prefix: Loc, file: str
) -> list[Problem]:
    """`below_floor`, as `check`'s errors."""
    return [
        Problem(file, below.line, below.column, below.path, below.message, Rule.FLOOR_LOOSER)
        for below in below_floor(profile, floors, document, prefix)
    ]
