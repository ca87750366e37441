"""The public import: everything an application needs to read, compare and resolve profiles.

    from cleveragents.safety_profile import SafetyProfile, DEFAULT_SAFETY_PROFILE

The same objects as under the specification's path
(`cleveragents.domain.models.core.safety_profile`), re-exported, never copied: `isinstance`
and `is` hold across both paths.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.automation_profile import AutomationProfile
from cleveragents.domain.models.core.effective_settings import (
    EffectiveSettings,
    effective_settings,
)
from cleveragents.domain.models.core.safety_profile import (
    DEFAULT_SAFETY_PROFILE,
    MODE_ENVIRONMENT_VARIABLE,
    Mode,
    ProfileFileError,
    Provenance,
    SafetyProfile,
    SafetyProfileRef,
    current_mode,
    resolve_safety_profile,
    resolve_safety_profile_ref,
)
from cleveragents.domain.models.core.strictness import Change, FieldChange, compare_profiles

__all__ = [
    "DEFAULT_SAFETY_PROFILE",
    "MODE_ENVIRONMENT_VARIABLE",
    "Action",
    "AutomationProfile",
    "Change",
    "EffectiveSettings",
    "FieldChange",
    "Mode",
    "ProfileFileError",
    "Provenance",
    "SafetyProfile",
    "SafetyProfileRef",
    "__version__",
    "compare_profiles",
    "current_mode",
    "effective_settings",
    "resolve_safety_profile",
    "resolve_safety_profile_ref",
]

try:
    __version__: str = version("cleveragents-safety-profile")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"
