"""The Safety Profile: constraints on how an agent's plan may run. The documented import:

    from cleveragents.domain.models.core.safety_profile import SafetyProfile

The model and its default are in `profile`, resolution and the mode in `resolution`; this
module gathers them, so the names the specification documents stay where it says.
"""

from __future__ import annotations

from cleveragents.domain.models.core.profile import (
    DEFAULT_SAFETY_PROFILE,
    ProfileFileError,
    SafetyProfile,
)
from cleveragents.domain.models.core.resolution import (
    MODE_ENVIRONMENT_VARIABLE,
    Mode,
    Provenance,
    SafetyProfileRef,
    current_mode,
    resolve_safety_profile,
    resolve_safety_profile_ref,
)

__all__ = [
    "DEFAULT_SAFETY_PROFILE",
    "MODE_ENVIRONMENT_VARIABLE",
    "Mode",
    "ProfileFileError",
    "Provenance",
    "SafetyProfile",
    "SafetyProfileRef",
    "current_mode",
    "resolve_safety_profile",
    "resolve_safety_profile_ref",
]
