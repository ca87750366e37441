"""The layers a safety profile comes from and which one applies, without pydantic: the rule the
models' `resolve_safety_profile_ref` and the `resolve` command (which compares plain values)
both follow. Re-exported by `resolution` and `automation_profile`, the documented places."""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Any, Final

from cleveragents.reading.field_facts import automation_profile_yields

__all__ = ["OVERLAPPING_SAFETY_FLAGS", "Provenance", "applied_layer", "automation_settings"]


class Provenance(enum.StrEnum):
    """Which layer a resolved profile came from (`plan > action > project > global`)."""

    PLAN = "PLAN"
    ACTION = "ACTION"
    PROJECT = "PROJECT"
    GLOBAL = "GLOBAL"


# The flags both profiles carry; the SafetyProfile always wins them (spec: "Precedence over
# AutomationProfile"). From the field facts (`automation_profile_yields` in the safety
# profile schema's `x-strictness`).
OVERLAPPING_SAFETY_FLAGS: Final = automation_profile_yields()


def applied_layer(setting: Collection[Provenance]) -> Provenance:
    """The layer whose profile applies, of the layers `setting` a profile: the highest of plan,
    action and project wins whole; when none does, the global layer (its profile, or
    `DEFAULT_SAFETY_PROFILE` when it has none)."""
    for layer in (Provenance.PLAN, Provenance.ACTION, Provenance.PROJECT):
        if layer in setting:
            return layer
    return Provenance.GLOBAL


def automation_settings(
    automation: Mapping[str, Any],
) -> tuple[Mapping[str, Any], Mapping[str, bool]]:
    """A valid automation profile as loaded: its autonomy settings (every key but the
    overlapping flags, as written) and the overlapping flags it states, in their order."""
    autonomy = {
        key: value for key, value in automation.items() if key not in OVERLAPPING_SAFETY_FLAGS
    }
    stated = {
        flag: automation[flag]
        for flag in OVERLAPPING_SAFETY_FLAGS
        if automation.get(flag) is not None
    }
    return MappingProxyType(autonomy), MappingProxyType(stated)
