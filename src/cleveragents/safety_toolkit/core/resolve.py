"""`safety-profile resolve`: which safety profile applies to a plan, from which layer, and why.

The files are read through the commands' one validator (`document_check`, as `check` reads
them) and compared as plain values (`document_values`): no model is built and pydantic is not
imported. Which layer applies is the layers' rule (`applied_layer`, which the models'
`resolve_safety_profile_ref` follows too); the action's automation profile gives its autonomy
settings and the flags the safety profile decides (`automation_settings`). The command works in
any mode: it shows what server-mode resolution decides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from cleveragents.domain.models.core.document_check import ACTION, PROFILE, check_loaded
from cleveragents.domain.models.core.document_values import (
    ProfileValues,
    ShownDocument,
    profile_values,
    shown_document,
)
from cleveragents.domain.models.core.layers import (
    Provenance,
    applied_layer,
    automation_settings,
)
from cleveragents.domain.models.core.rendering import change_text
from cleveragents.domain.models.core.strictness import FieldChange, compare_values, values_below
from cleveragents.reading.loaded_file import load_file
from cleveragents.reading.problems import Problem

from ..floor import Floor
from .kind_hint import problems_with_hint, with_hints_last

if TYPE_CHECKING:
    import argparse

__all__ = [
    "AppliedProfile",
    "AppliedSettings",
    "FloorCheck",
    "LooserNote",
    "Resolution",
    "resolve_files",
    "resolve_layers",
]


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


class AppliedProfile(NamedTuple):
    """The profile that applies and the layer it came from (`SafetyProfileRef`, as values)."""

    provenance: Provenance
    values: ProfileValues  # its effective values
    shown: ShownDocument  # field by field, as `show` prints a profile


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class AppliedSettings:
    """The settings in force for the action (`EffectiveSettings`, as values): the applied
    profile's, the automation profile's own settings, and the overlapping flags it states,
    which the safety profile decides."""

    profile: Mapping[str, Any]  # the applied profile's effective values
    autonomy_settings: Mapping[str, Any] = field(default_factory=_empty)
    ignored_automation_flags: Mapping[str, bool] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class Resolution:
    """The outcome, with what each layer held."""

    ref: AppliedProfile
    settings: AppliedSettings
    files: Mapping[Provenance, str]  # only the layers given a file
    profiles: Mapping[Provenance, ProfileValues]  # only the layers that set a profile
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
    profiles: dict[Provenance, dict[str, Any]] = {}
    automation: dict[str, Any] | None = None
    problems: list[Problem] = []
    for provenance, path in files.items():
        is_action = provenance is Provenance.ACTION
        schema = ACTION if is_action else PROFILE
        checked = check_loaded(load_file(path), schema, path)
        kind, advice = ("action", _AS_PROFILE_LAYER) if is_action else ("profile", _AS_ACTION)
        problems += problems_with_hint(path, checked, kind, advice)
        document = checked.valid
        if document is None:
            continue
        profile = document.get("safety_profile") if is_action else document
        if is_action:
            automation = document.get("automation_profile")
        if profile is not None:
            profiles[provenance] = profile
    if problems:
        return None, with_hints_last(problems)
    values = {layer: profile_values(profile) for layer, profile in profiles.items()}
    provenance = applied_layer(values)
    applied = profiles.get(provenance, {})  # none: DEFAULT_SAFETY_PROFILE, every default
    ref = AppliedProfile(provenance, profile_values(applied), shown_document(PROFILE, applied))
    settings = AppliedSettings(ref.values.values)
    if automation is not None:
        settings = AppliedSettings(ref.values.values, *automation_settings(automation))
    notes = looser_than_overridden(ref, values)
    checks = tuple(
        FloorCheck(floor, values_below(ref.values.values, floor.profile)) for floor in floors
    )
    return Resolution(ref, settings, dict(files), values, notes, checks), []


def looser_than_overridden(
    ref: AppliedProfile, profiles: Mapping[Provenance, ProfileValues]
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
            below = profile_values({})  # DEFAULT_SAFETY_PROFILE
        if below is None:
            continue
        for change in compare_values(below.values, ref.values.values):
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
