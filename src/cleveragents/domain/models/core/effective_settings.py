"""What applies when an action carries both a SafetyProfile and an AutomationProfile.

Specification, "Precedence over AutomationProfile": `require_sandbox`, `require_checkpoints` and
`allow_unsafe_tools` always come from the SafetyProfile, whatever the AutomationProfile says;
every other field of each profile applies independently (the safety profile's hard limits, the
automation profile's autonomy settings).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .automation_profile import AutomationProfile
from .safety_profile import SafetyProfile

__all__ = ["EffectiveSettings", "effective_settings"]


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class EffectiveSettings:
    """The settings in force for one action."""

    safety_profile: SafetyProfile
    """Every hard constraint, the three overlapping flags included."""
    autonomy_settings: Mapping[str, Any] = field(default_factory=_empty)
    """The automation profile's own settings, as written."""
    ignored_automation_flags: Mapping[str, bool] = field(default_factory=_empty)
    """Overlapping flags the automation profile states; the safety profile decides them."""

    @property
    def require_sandbox(self) -> bool:
        return self.safety_profile.require_sandbox

    @property
    def require_checkpoints(self) -> bool:
        return self.safety_profile.require_checkpoints

    @property
    def allow_unsafe_tools(self) -> bool:
        return self.safety_profile.allow_unsafe_tools


def effective_settings(
    safety_profile: SafetyProfile, automation_profile: AutomationProfile | None = None
) -> EffectiveSettings:
    """Combine the safety profile that applies with an action's automation profile.

    Pass the action's own `safety_profile`, or, when the profile is resolved across layers, the
    resolved one (`resolve_safety_profile_ref(...).profile`): the overlapping flags always come
    from it, even where the automation profile says the opposite."""
    if automation_profile is None:
        return EffectiveSettings(safety_profile)
    return EffectiveSettings(
        safety_profile,
        automation_profile.autonomy_settings,
        automation_profile.stated_safety_flags,
    )
