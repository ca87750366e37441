"""The AutomationProfile, as far as the Safety Profile is concerned.

`AutomationProfile` subclasses the model generated from `schema/automation_profile.schema.json`.
It knows the three flags it shares with the Safety Profile, which the safety profile always
decides (see `effective_settings`), and keeps every other key, the autonomy settings owned by
the automation layer, exactly as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from cleveragents.schema_models.automation_profile_schema import (
    AutomationProfile as _SchemaAutomationProfile,
)

from .always_validated import AlwaysValidated
from .document_loading import LoadableDocument
from .kept_keys import KeptKeysChecked
from .layers import OVERLAPPING_SAFETY_FLAGS
from .optional_fields import AbsentIsNotNull

__all__ = ["OVERLAPPING_SAFETY_FLAGS", "AutomationProfile"]


class AutomationProfile(
    _SchemaAutomationProfile, AlwaysValidated, AbsentIsNotNull, KeptKeysChecked, LoadableDocument
):
    """Autonomy settings of an action; the three overlapping flags are optional booleans."""

    document_name = "automation profile"

    @property
    def autonomy_settings(self) -> Mapping[str, Any]:
        """Every key other than the overlapping flags, as written (read-only view)."""
        return MappingProxyType(dict(self.model_extra or {}))

    @property
    def stated_safety_flags(self) -> Mapping[str, bool]:
        """The overlapping flags this profile states, in schema order."""
        stated = {name: getattr(self, name) for name in OVERLAPPING_SAFETY_FLAGS}
        return MappingProxyType(
            {name: value for name, value in stated.items() if value is not None}
        )
