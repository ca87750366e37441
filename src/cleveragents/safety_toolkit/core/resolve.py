"""`safety-profile resolve`: which safety profile applies to a plan, from which layer, and why.

The files are read through the one checking path (`check_yaml_file`); the decision is the pure
`resolve_safety_profile_ref` and, for the action's automation profile, `effective_settings`.
The command works in any mode: it shows what server-mode resolution decides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.automation_profile import AutomationProfile
from cleveragents.domain.models.core.document_values import model_profile_values
from cleveragents.domain.models.core.effective_settings import (
    EffectiveSettings,
    effective_settings,
)
from cleveragents.domain.models.core.rendering import change_text
from cleveragents.domain.models.core.safety_profile import (
    DEFAULT_SAFETY_PROFILE,
    Provenance,
    SafetyProfile,
    SafetyProfileRef,
    resolve_safety_profile_ref,
)
from cleveragents.domain.models.core.strictness import FieldChange, compare_profiles, values_below
from cleveragents.reading.problems import Problem
from cleveragents.reading.validation import check_yaml_file

from ..floor import Floor
from .kind_hint import problems_with_hint, with_hints_last

if TYPE_CHECKING:
    import argparse

__all__ = ["FloorCheck", "LooserNote", "Resolution", "resolve_files", "resolve_layers"]


@dataclass(frozen=True, slots=True)
class LooserNote:
    """The layer that applies is looser than a layer it overrides, on one field."""

    layer: Provenance
    overrides: Provenance
    change: FieldChange  # old: the overridden layer's value; new: the applied one

    @property
    def text(self) -> str:
        """`plan loosens project: require_sandbox true → false`."""
        return (
            f"{self.layer.value.lower()} loosens {self.overrides.value.lower()}: "
            f"{self.change.field} {change_text(self.change)}"
        )


class FloorCheck(NamedTuple):
    """A floor the applied profile is held to, and the fields on which it is looser."""

    floor: Floor
    below: tuple[FieldChange, ...]  # old: the floor's value; new: the applied one


@dataclass(frozen=True, slots=True)
class Resolution:
    """The outcome, with what each layer held."""

    ref: SafetyProfileRef
    settings: EffectiveSettings
    files: Mapping[Provenance, str]  # only the layers given a file
    profiles: Mapping[Provenance, SafetyProfile]  # only the layers that set a profile
    notes: tuple[LooserNote, ...] = ()  # where the applied profile is looser than one below
    floors: tuple[FloorCheck, ...] = ()  # each floor that applies (none: no floor)

    @property
    def below_floor(self) -> bool:
        """The applied profile is looser than a floor on some field: the exit status is 1."""
        return any(check.below for check in self.floors)

    @property
    def source(self) -> str | None:
        """The file the applied profile came from; None for the built-in default."""
        return self.files.get(self.ref.provenance)


# What to do about an --action file that looks like a profile, and the reverse.
_AS_PROFILE_LAYER = {"profile": "pass it with --plan, --project or --global"}
_AS_ACTION = {"action": "pass it with --action"}


def resolve_files(
    files: Mapping[Provenance, str], floors: Sequence[Floor] = ()
) -> tuple[Resolution | None, list[Problem]]:
    """Load each layer's file and resolve. The ACTION file is an action (its `safety_profile`
    is the action layer); the others are safety profile files. Problems in any file: no
    resolution, every problem. For each of `floors`, the resolution lists the fields of the
    applied profile below it."""
    profiles: dict[Provenance, SafetyProfile] = {}
    automation: AutomationProfile | None = None
    problems: list[Problem] = []
    for provenance, path in files.items():
        if provenance is Provenance.ACTION:
            action = check_yaml_file(path, Action)
            problems += problems_with_hint(path, action, "action", _AS_PROFILE_LAYER)
            if action.instance is not None:
                automation = action.instance.automation_profile
                if action.instance.safety_profile is not None:
                    profiles[provenance] = action.instance.safety_profile
        else:
            profile = check_yaml_file(path, SafetyProfile)
            problems += problems_with_hint(path, profile, "profile", _AS_ACTION)
            if profile.instance is not None:
                profiles[provenance] = profile.instance
    if problems:
        return None, with_hints_last(problems)
    ref = resolve_safety_profile_ref(
        plan_profile=profiles.get(Provenance.PLAN),
        action_profile=profiles.get(Provenance.ACTION),
        project_profile=profiles.get(Provenance.PROJECT),
        global_profile=profiles.get(Provenance.GLOBAL),
    )
    settings = effective_settings(ref.profile, automation)
    notes = looser_than_overridden(ref, profiles)
    values = model_profile_values(ref.profile).values
    checks = tuple(FloorCheck(floor, values_below(values, floor.profile)) for floor in floors)
    return Resolution(ref, settings, dict(files), profiles, notes, checks), []


def looser_than_overridden(
    ref: SafetyProfileRef, profiles: Mapping[Provenance, SafetyProfile]
) -> tuple[LooserNote, ...]:
    """One note per field on which the applied profile is looser than a layer it overrides
    (the layers below it that set a profile, and the global layer: its file or the built-in
    default), highest layer first."""
    layers = list(Provenance)
    overridden = layers[layers.index(ref.provenance) + 1 :]
    notes = []
    for layer in overridden:
        below = profiles.get(layer)
        if below is None and layer is Provenance.GLOBAL:
            below = DEFAULT_SAFETY_PROFILE
        if below is None:
            continue
        for change in compare_profiles(below, ref.profile):
            if change.loosens:
                notes.append(LooserNote(ref.provenance, layer, change))
    return tuple(notes)


def resolve_layers(args: argparse.Namespace) -> dict[Provenance, str]:
    """The file given for each layer (--plan, --action, --project, --global)."""
    files = {
        Provenance.PLAN: args.plan,
        Provenance.ACTION: args.action,
        Provenance.PROJECT: args.project,
        Provenance.GLOBAL: args.global_profile,
    }
    return {layer: path for layer, path in files.items() if path is not None}
