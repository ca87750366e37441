"""`--format text`, for people: one line per problem or change, then a summary; `resolve`'s
layers and effective profile. Colour only when asked (a terminal)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cleveragents.reading.lean_typing import TYPE_CHECKING, final
from cleveragents.reading.problems import with_rule_id

from .base import CheckedFiles, DiffReporter, Reporter, ResolveReporter, RulesReporter, ShowReporter

if TYPE_CHECKING:
    from typing import Any

    from cleveragents.domain.models.core.document_values import ShownDocument
    from cleveragents.domain.models.core.layers import Provenance
    from cleveragents.reading.problems import Problem
    from cleveragents.reading.rules import Rule

    from ..core.diff import DiffReport, Finding
    from ..core.resolve import Resolution

__all__ = ["TextReporter", "finding_line", "invalid_files", "problem_line"]

RED, GREEN, RESET = "\033[31m", "\033[32m", "\033[0m"
_VERDICT_COLOURS = {"loosens": RED, "tightens": GREEN}


def _painted(text: str, colour_code: str | None, colour: bool) -> str:
    return f"{colour_code}{text}{RESET}" if colour and colour_code else text


def _counted(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def problem_line(problem: Problem, label: str | None = None) -> str:
    """`FILE:LINE:COL: error: FIELD: message [rule.id]`, the line of a problem (`label`: the
    severity unless given, perhaps coloured)."""
    return with_rule_id(problem.render(label), problem.rule)


def finding_line(finding: Finding, label: str) -> str:
    """`NEW:LINE:COL: loosens: FIELD: old → new [loosens.FIELD]`, the line of a change
    (`label`: its verdict, perhaps coloured)."""
    return with_rule_id(finding.render(label), finding.rule)


def invalid_files(problems: Sequence[Problem]) -> set[str]:
    """The files with an error (a warning or a hint alone does not make a file invalid)."""
    return {problem.file for problem in problems if problem.severity.fails}


@final
class TextReporter(Reporter, DiffReporter, ShowReporter, ResolveReporter, RulesReporter):
    name = "text"

    def _problem_lines(self, problems: Sequence[Problem]) -> list[str]:
        """`FILE:LINE:COL: error: FIELD: message [rule.id]` (`FILE: hint: message [rule.id]`
        for a hint)."""
        return [
            problem_line(
                problem,
                _painted(problem.severity, problem.severity.colour, self.colour),
            )
            for problem in problems
        ]

    def check(self, files: CheckedFiles) -> str:
        """`FILE:LINE:COL: error: FIELD: message [rule.id]`, one line each, then a summary."""
        lines = self._problem_lines(files.problems)
        failed = len(invalid_files(files.problems))
        files_checked = len(files.paths)
        plural = "" if files_checked == 1 else "s"
        if failed:
            lines.append(f"{failed} of {files_checked} file{plural} invalid")
        else:
            lines.append(f"ok: {files_checked} file{plural} valid")
        return "\n".join(lines) + "\n"

    def diff(self, report: DiffReport) -> str:
        """`NEW:LINE:COL: loosens: FIELD: old → new [rule.id]`, one line per change, then a
        summary."""
        lines = self._problem_lines(report.problems)
        for finding in report.findings:
            label = finding.verdict.value
            colour_code = _VERDICT_COLOURS.get(label)
            lines.append(finding_line(finding, _painted(label, colour_code, self.colour)))
        lines.append(diff_summary(report))
        return "\n".join(lines) + "\n"

    def show(
        self, document: ShownDocument | None, problems: Sequence[Problem], source: str, kind: str
    ) -> str:
        """A header naming the file, then every field marked `# from file` or `# default`;
        for an invalid file, its problems as `check` reports them."""
        from ..core.show import render_effective

        if document is None:
            return self.check(CheckedFiles((source,), tuple(problems)))
        return render_effective(document, source)

    def resolve(self, resolution: Resolution) -> str:
        """The layers highest first, a note for each field on which the applied profile is
        looser than a layer it overrides, then the applied profile field by field (marked
        `from file`/`default`), then what the action's automation profile adds or is
        overruled on."""
        from cleveragents.domain.models.core.layers import Provenance
        from cleveragents.domain.models.core.rendering import marked_lines, yaml_value

        statuses = [(p, *_layer_status(resolution, p)) for p in Provenance]
        width = max(len(where) for _, where, _ in statuses)
        lines = ["# plan > action > project > global: the highest layer with a profile wins whole"]
        lines += [
            f"#   {p.value.lower():<8} {where:<{width}}  {status}".rstrip()
            for p, where, status in statuses
        ]
        lines += [f"# note: {note.text}" for note in resolution.notes]
        lines += _floor_lines(resolution)
        lines.append(f"provenance: {resolution.ref.provenance.value}")
        lines.append(f"source: {yaml_value(resolution.source)}")
        lines.append("profile:")
        built_in = "built-in default" if resolution.source is None else None
        lines += marked_lines(resolution.ref.shown, "  ", origin=built_in)
        settings = resolution.settings
        lines += _yaml_block(
            "autonomy_settings", settings.autonomy_settings, "from the action's automation_profile"
        )
        ignored = {
            f"{name}: {yaml_value(stated)}": settings.profile[name]
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

    def rules(self, rule: Rule | None) -> str:
        from ..core.rule_docs import rule_text, rules_list

        return rules_list() if rule is None else rule_text(rule)


def diff_summary(report: DiffReport) -> str:
    """`2 changes loosen, 1 tightens (3 files compared)`, or `ok: nothing loosens ...`."""
    parts = []
    for verdict, one, many in (
        ("loosens", "change loosens", "changes loosen"),
        ("tightens", "change tightens", "changes tighten"),
        ("added", "profile added", "profiles added"),
    ):
        count = sum(finding.verdict == verdict for finding in report.findings)
        if count:
            parts.append(_counted(count, one, many))
    invalid = len(invalid_files(report.problems))
    if invalid:
        parts.append(_counted(invalid, "file invalid", "files invalid"))
    compared = f"({_counted(report.files_compared, 'file', 'files')} compared)"
    if report.failed:
        return f"{', '.join(parts)} {compared}"
    found = f"; {', '.join(parts)}" if parts else ""
    return f"ok: nothing loosens{found} {compared}"


def _floor_lines(resolution: Resolution) -> list[str]:
    """For each floor that applies, the fields of the applied profile below it, or that it
    meets it."""
    from cleveragents.domain.models.core.rendering import below_floor_text
    from cleveragents.reading.terminal_text import visible

    lines = []
    for floor, below in resolution.floors:
        if not below:
            lines.append(f"# meets the floor ({visible(floor.source)})")
        lines += [
            f"# below the floor: {change.field}: {below_floor_text(change, floor.source)}"
            for change in below
        ]
    return lines


def _layer_status(resolution: Resolution, provenance: Provenance) -> tuple[str, str]:
    """(where the layer's profile comes from, what became of it)."""
    from cleveragents.domain.models.core.layers import Provenance
    from cleveragents.reading.terminal_text import visible

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
    from cleveragents.domain.models.core.rendering import yaml_key, yaml_value

    if not values:
        return []
    lines = [f"{name}:  # {note}"]
    lines += [f"  {yaml_key(key)}: {yaml_value(value)}" for key, value in values.items()]
    return lines
