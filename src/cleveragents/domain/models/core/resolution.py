"""Which safety profile applies to a plan (`plan > action > project > global`), and the mode
CleverAgents runs in, which decides whether resolution is available at all (server mode only).

Re-exported by `safety_profile`, the documented import."""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping

from pydantic import ConfigDict

from cleveragents.domain.models.core.always_validated import AlwaysValidated
from cleveragents.domain.models.core.layers import Provenance, applied_layer
from cleveragents.domain.models.core.profile import DEFAULT_SAFETY_PROFILE, SafetyProfile

__all__ = [
    "MODE_ENVIRONMENT_VARIABLE",
    "Mode",
    "Provenance",
    "SafetyProfileRef",
    "current_mode",
    "resolve_safety_profile",
    "resolve_safety_profile_ref",
]


class SafetyProfileRef(AlwaysValidated):
    """A resolved profile and the layer it came from."""

    # Built on first use: checking files never needs it, and start-up matters for the hook.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    profile: SafetyProfile
    provenance: Provenance


def resolve_safety_profile_ref(
    *,
    plan_profile: SafetyProfile | None = None,
    action_profile: SafetyProfile | None = None,
    project_profile: SafetyProfile | None = None,
    global_profile: SafetyProfile | None = None,
) -> SafetyProfileRef:
    """The profile that applies to a plan, and the layer it came from.

    `plan > action > project > global`: the highest layer that sets a profile wins whole (no
    field-by-field merging); when none does, the global profile, or `DEFAULT_SAFETY_PROFILE`
    when no global profile is given either (provenance `GLOBAL` in both cases). Pure: it reads
    no files, no environment and no mode."""
    profiles = {
        Provenance.PLAN: plan_profile,
        Provenance.ACTION: action_profile,
        Provenance.PROJECT: project_profile,
        Provenance.GLOBAL: global_profile,
    }
    setting = {layer: profile for layer, profile in profiles.items() if profile is not None}
    provenance = applied_layer(setting)
    return SafetyProfileRef(
        profile=setting.get(provenance, DEFAULT_SAFETY_PROFILE), provenance=provenance
    )


class Mode(enum.StrEnum):
    """Where CleverAgents runs: enforcement (and so resolution) exists in server mode only."""

    LOCAL = "local"
    SERVER = "server"


MODE_ENVIRONMENT_VARIABLE = "CLEVERAGENTS_MODE"


def current_mode(environ: Mapping[str, str] | None = None) -> Mode:
    """The mode named by `CLEVERAGENTS_MODE` (`local` or `server`, any case); local when unset.

    Raises ValueError for any other value, so a typo never silently changes the mode."""
    value = (os.environ if environ is None else environ).get(MODE_ENVIRONMENT_VARIABLE, "")
    return _parse_mode(value.strip() or Mode.LOCAL, f"{MODE_ENVIRONMENT_VARIABLE}={value!r}")


def _parse_mode(value: str, where: str) -> Mode:
    try:
        return Mode(value.lower())
    except ValueError:
        choices = " or ".join(repr(mode.value) for mode in Mode)
        raise ValueError(f"unknown mode in {where}; expected {choices}") from None


def resolve_safety_profile(
    *,
    plan_profile: SafetyProfile | None = None,
    action_profile: SafetyProfile | None = None,
    project_profile: SafetyProfile | None = None,
    global_profile: SafetyProfile | None = None,
    mode: Mode | str | None = None,
) -> tuple[SafetyProfile, Provenance]:
    """Resolve the profile that applies to a plan: `(profile, provenance)`.

    In local mode, enforcement is deferred to a future server-mode release, so this raises
    NotImplementedError, as the specification requires. In server mode it returns what
    `resolve_safety_profile_ref` decides. `mode` (`"local"`/`"server"`) wins over the
    `CLEVERAGENTS_MODE` environment variable; local is the default."""
    chosen = current_mode() if mode is None else _parse_mode(str(mode), f"mode={mode!r}")
    if chosen is Mode.LOCAL:
        raise NotImplementedError(
            "safety profile resolution is not available in local mode; "
            "enforcement is deferred to server mode "
            f"(set {MODE_ENVIRONMENT_VARIABLE}=server or pass mode='server'; "
            "resolve_safety_profile_ref gives the precedence logic in any mode)"
        )
    ref = resolve_safety_profile_ref(
        plan_profile=plan_profile,
        action_profile=action_profile,
        project_profile=project_profile,
        global_profile=global_profile,
    )
    return ref.profile, ref.provenance
