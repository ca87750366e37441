"""`safety-profile resolve`: which safety profile applies to a plan, from which layer, and why.

The files are read through the one checking path (`check_yaml_file`); the decision is the pure
`resolve_safety_profile_ref` and, for the action's automation profile, `effective_settings`.
The command works in any mode: it shows what server-mode resolution decides.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cleveragents.domain.models.core.action import Action
from cleveragents.domain.models.core.automation_profile import AutomationProfile
from cleveragents.domain.models.core.effective_settings import (
    EffectiveSettings,
    effective_settings,
)
from cleveragents.domain.models.core.safety_profile import (
    DEFAULT_SAFETY_PROFILE,
    Provenance,
    SafetyProfile,
    SafetyProfileRef,
    resolve_safety_profile_ref,
)
from cleveragents.domain.models.core.strictness import FieldChange, compare_profiles
from cleveragents.reading.problems import Problem
from cleveragents.reading.terminal_text import visible
from cleveragents.reading.validation import check_yaml_file

from .kind_hint import problems_with_hint, with_hints_last
from .rendering import change_text, marked_lines, yaml_key, yaml_value

__all__ = ["LooserNote", "Resolution", "render_json", "render_text", "resolve_files"]


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


@dataclass(frozen=True, slots=True)
class Resolution:
    """The outcome, with what each layer held."""

    ref: SafetyProfileRef
    settings: EffectiveSettings
    files: Mapping[Provenance, str]  # only the layers given a file
    profiles: Mapping[Provenance, SafetyProfile]  # only the layers that set a profile
    notes: tuple[LooserNote, ...] = ()  # where the applied profile is looser than one below

    @property
    def source(self) -> str | None:
        """The file the applied profile came from; None for the built-in default."""
        return self.files.get(self.ref.provenance)


def _as_profile_layer(kind: str) -> str:
    return "pass it with --plan, --project or --global"


def _as_action(kind: str) -> str:
    return "pass it with --action"


def resolve_files(files: Mapping[Provenance, str]) -> tuple[Resolution | None, list[Problem]]:
    """Load each layer's file and resolve. The ACTION file is an action (its `safety_profile`
    is the action layer); the others are safety profile files. Problems in any file: no
    resolution, every problem."""
    profiles: dict[Provenance, SafetyProfile] = {}
    automation: AutomationProfile | None = None
    problems: list[Problem] = []
    for provenance, path in files.items():
        if provenance is Provenance.ACTION:
            action = check_yaml_file(path, Action)
            problems += problems_with_hint(path, action, "action", _as_profile_layer)
            if action.instance is not None:
                automation = action.instance.automation_profile
                if action.instance.safety_profile is not None:
                    profiles[provenance] = action.instance.safety_profile
        else:
            profile = check_yaml_file(path, SafetyProfile)
            problems += problems_with_hint(path, profile, "profile", _as_action)
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
    return Resolution(ref, settings, dict(files), profiles, notes), []


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


def _layer_status(resolution: Resolution, provenance: Provenance) -> tuple[str, str]:
    """(where the layer's profile comes from, what became of it)."""
    path = resolution.files.get(provenance)
    if provenance is Provenance.GLOBAL and path is None:
        where = "built-in default (DEFAULT_SAFETY_PROFILE)"
    elif path is None:
        return "not given", ""
    else:
        where = visible(path)
    if provenance is resolution.ref.provenance:
        return where, "<- applies"
    if provenance is Provenance.GLOBAL or provenance in resolution.profiles:
        return where, "overridden"
    return where, "sets no safety_profile"


def _yaml_block(name: str, values: Mapping[str, Any], note: str) -> list[str]:
    if not values:
        return []
    lines = [f"{name}:  # {note}"]
    lines += [f"  {yaml_key(key)}: {yaml_value(value)}" for key, value in values.items()]
    return lines


def render_text(resolution: Resolution) -> str:
    """For people: the layers highest first, a note for each field on which the applied profile
    is looser than a layer it overrides, then the applied profile field by field (marked
    `from file`/`default`), then what the action's automation profile adds or is overruled on."""
    statuses = [(p, *_layer_status(resolution, p)) for p in Provenance]
    width = max(len(where) for _, where, _ in statuses)
    lines = ["# plan > action > project > global: the highest layer with a profile wins whole"]
    lines += [
        f"#   {p.value.lower():<8} {where:<{width}}  {status}".rstrip()
        for p, where, status in statuses
    ]
    lines += [f"# note: {note.text}" for note in resolution.notes]
    lines.append(f"provenance: {resolution.ref.provenance.value}")
    lines.append(f"source: {yaml_value(resolution.source)}")
    lines.append("profile:")
    built_in = "built-in default" if resolution.source is None else None
    lines += marked_lines(resolution.ref.profile, "  ", origin=built_in)
    settings = resolution.settings
    lines += _yaml_block(
        "autonomy_settings", settings.autonomy_settings, "from the action's automation_profile"
    )
    ignored = {
        f"{name}: {yaml_value(stated)}": getattr(settings, name)
        for name, stated in settings.ignored_automation_flags.items()
    }
    if ignored:
        lines.append("ignored_automation_flags:  # the safety profile decides these")
        key_width = max(len(text) for text in ignored)
        lines += [
            f"  {text:<{key_width}}  # the safety profile says {yaml_value(applied)}"
            for text, applied in ignored.items()
        ]
    return "\n".join(lines) + "\n"


def render_json(resolution: Resolution) -> str:
    """For scripts: provenance, source, profile, each layer, autonomy settings, ignored flags
    and the notes where the applied profile is looser than a layer it overrides."""
    document = {
        "provenance": resolution.ref.provenance.value,
        "source": resolution.source,
        "profile": resolution.ref.profile.model_dump(mode="json"),
        "layers": [
            {
                "layer": provenance.value,
                "file": resolution.files.get(provenance),
                "sets_profile": provenance in resolution.profiles,
                "applies": provenance is resolution.ref.provenance,
            }
            for provenance in Provenance
        ],
        "autonomy_settings": dict(resolution.settings.autonomy_settings),
        "ignored_automation_flags": dict(resolution.settings.ignored_automation_flags),
        "notes": [
            {
                "layer": note.layer.value,
                "overrides": note.overrides.value,
                "field": note.change.field,
                "overridden_value": note.change.old,
                "value": note.change.new,
                "note": note.text,
            }
            for note in resolution.notes
        ],
    }
    # ASCII only, as `check --format json`: exact, and safe on any terminal.
    return json.dumps(document, indent=2, ensure_ascii=True) + "\n"
