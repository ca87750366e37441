"""`safety-profile diff`: whether a change makes a safety profile less strict, field by field.

Both versions of a file are read through the commands' one validator (`document_check`), so an
invalid file is reported exactly as `check` reports it, and compared as plain values (the
profile's effective values, `document_values`) with the layer's `compare_values`: no model is
built and pydantic is not imported. The versions come from files or from git (`core.git_diff`);
this module only compares.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from functools import total_ordering

from cleveragents.domain.models.core.document_check import PROFILE, check_loaded
from cleveragents.domain.models.core.document_values import (
    ProfileValues,
    profile_values,
    shown_document,
)
from cleveragents.domain.models.core.rendering import change_text, yaml_value
from cleveragents.domain.models.core.strictness import Change, FieldChange, compare_values
from cleveragents.reading.field_facts import FIELD_FACTS, Stricter
from cleveragents.reading.files import file_problem, read_regular_file
from cleveragents.reading.lean_typing import TYPE_CHECKING, NamedTuple
from cleveragents.reading.loaded_file import load_bytes
from cleveragents.reading.nodes import YamlDocument
from cleveragents.reading.problems import Loc, Problem, render_line, render_loc
from cleveragents.reading.rules import Rule
from cleveragents.reading.terminal_text import visible

from ..floor import Floor, FloorSetting
from .floor_setting import floor_setting
from .kinds import KINDS, DocumentKind
from .usage import UsageError

if TYPE_CHECKING:
    import argparse
    from typing import Any

__all__ = [
    "AddedBaseline",
    "Baseline",
    "DiffReport",
    "Finding",
    "FloorsBaseline",
    "Verdict",
    "Version",
    "build_report",
    "compare_versions",
    "diff_files",
    "diff_options",
]

REMOVED = "removed: the next layer applies"
ADDED = "it overrides the next layer; review it whole"


class Verdict(enum.StrEnum):
    """What a change to a file does to the constraints a plan runs under. A field's
    `Change` (the strictness table's word) becomes one through `of`, never by its value."""

    LOOSENS = "loosens"
    TIGHTENS = "tightens"
    ADDED = "added"  # a new profile: nothing to compare it with

    @classmethod
    def of(cls, change: Change) -> Verdict:
        return _VERDICT_OF_CHANGE[change]

    def rule(self, field: str) -> Rule:
        """The field's rule for this verdict (`loosens.max_total_cost`), one per pair."""
        return Rule(f"{self.value}.{field}")


_VERDICT_OF_CHANGE = {Change.LOOSENS: Verdict.LOOSENS, Change.TIGHTENS: Verdict.TIGHTENS}


# A finding's fields, in the order it takes them.
_FINDING_FIELDS = ("file", "line", "column", "path", "verdict", "detail", "rule", "old", "new")


@total_ordering
class Finding:
    """One change, placed in the new version of the file (the old one when it was deleted).

    Immutable; compared, ordered and hashed by everything but `old` and `new` (the JSON values
    the rest words). A plain class, not a dataclass: importing dataclasses (with inspect) was
    a tenth of `diff --git`'s start-up."""

    __slots__ = _FINDING_FIELDS

    file: str
    line: int  # 1-based; 0 for the whole file
    column: int
    path: str  # the field, e.g. `safety_profile.max_total_cost` in an action; "" for the file
    verdict: Verdict
    detail: str  # `100.0 → null (no limit)`, or what became of the whole profile
    rule: Rule  # `loosens.max_total_cost`, `loosens.removed`, `diff.added`, ...
    old: Any  # JSON values, for scripts
    new: Any

    def __init__(
        self,
        file: str,
        line: int,
        column: int,
        path: str,
        verdict: Verdict,
        detail: str,
        rule: Rule,
        old: Any = None,
        new: Any = None,
    ) -> None:
        values = (file, line, column, path, verdict, detail, rule, old, new)
        for name, value in zip(_FINDING_FIELDS, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Finding is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a Finding is immutable")

    def _key(self) -> tuple[str, int, int, str, Verdict, str, Rule]:
        return (self.file, self.line, self.column, self.path, self.verdict, self.detail, self.rule)

    def __eq__(self, other: object) -> bool:
        return self._key() == other._key() if isinstance(other, Finding) else NotImplemented

    def __lt__(self, other: Finding) -> bool:
        return self._key() < other._key() if isinstance(other, Finding) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in _FINDING_FIELDS)
        return f"Finding({fields})"

    def replace(self, **changes: Any) -> Finding:
        """This finding with the fields `changes` names set to other values."""
        values = {name: getattr(self, name) for name in _FINDING_FIELDS}
        return Finding(**{**values, **changes})

    def render(self, label: str) -> str:
        """`FILE:LINE:COL: loosens: FIELD: old → new`, in the shape of `check`'s lines;
        `label` is the verdict, perhaps coloured."""
        return render_line(self.file, self.line, self.column, self.path, label, self.detail)


class DiffReport(NamedTuple):
    """Everything one `diff` run found: the changes, and the problems of invalid files."""

    findings: tuple[Finding, ...]
    problems: tuple[Problem, ...]
    files_compared: int

    def count(self, verdict: Verdict) -> int:
        return sum(finding.verdict is verdict for finding in self.findings)

    @property
    def loosens_itself(self) -> bool:
        """A file loosens what it was, not only the floor: a loosening one may intend (the
        floor is never skipped)."""
        return any(
            finding.verdict is Verdict.LOOSENS and finding.rule != Rule.FLOOR_LOOSER
            for finding in self.findings
        )

    @property
    def failed(self) -> bool:
        """Anything loosens, or a file is invalid: the exit status is 1."""
        return bool(self.problems) or self.count(Verdict.LOOSENS) > 0


class Version(NamedTuple):
    """One version of a file: its name in reports and its bytes (None: it does not exist)."""

    name: str
    data: bytes | None
    origin: str = ""  # where an old version comes from (a revision), said in its problems


# DEFAULT_SAFETY_PROFILE's effective values: every field at its schema default.
DEFAULT_VALUES = profile_values({})


class Baseline(NamedTuple):
    """What applied before a profile was added: an added profile (or an action that gains one)
    is compared with it, and each field it makes looser is a loosening. Its effective values
    (`document_values`); by default DEFAULT_SAFETY_PROFILE's, every field at its default."""

    profile: ProfileValues = DEFAULT_VALUES
    name: str = "DEFAULT_SAFETY_PROFILE"


DEFAULT_BASELINE = Baseline()  # DEFAULT_SAFETY_PROFILE


class FloorsBaseline(NamedTuple):
    """The floors as an added profile's baseline, in place of one profile: each field looser
    than one of them is a `floor.looser` finding, in the floor's words."""

    floors: tuple[Floor, ...]


# What an added profile is compared with: one profile (--baseline, else the built-in
# default), or the floors that apply to it.
AddedBaseline = Baseline | FloorsBaseline


class _Loaded:
    """A valid version, loaded. A plain class, not a tuple: `_load` returns this or a tuple
    of problems, told apart by `isinstance(..., tuple)`."""

    __slots__ = ("document", "mapping", "prefix", "profile")

    def __init__(
        self,
        profile: ProfileValues | None,
        mapping: dict[str, Any] | None,
        document: YamlDocument,
        prefix: Loc,
    ) -> None:
        self.profile = profile  # the profile the file sets (None: an action without one)
        self.mapping = mapping  # that profile as loaded
        self.document = document
        self.prefix = prefix  # where the profile sits in the document


def _load(kind: DocumentKind, version: Version) -> _Loaded | tuple[Problem, ...]:
    assert version.data is not None
    loaded = load_bytes(version.data, version.name)
    checked = check_loaded(loaded, kind.schema(), version.name)
    if checked.valid is None or loaded.document is None:
        if version.origin:
            return tuple(
                p._replace(message=f"{p.message} (the version in {version.origin})")
                for p in checked.problems
            )
        return checked.problems
    mapping, prefix = kind.profile_mapping_in(checked.valid)
    profile = None if mapping is None else profile_values(mapping)
    return _Loaded(profile, mapping, loaded.document, prefix)


def _notes(change: FieldChange, new_profile: ProfileValues, new_file: bool = False) -> list[str]:
    """What a reviewer might not see in `old → new`: the meaning of null and [], which
    categories came and went, and a value that is now a default because its key is gone."""
    facts = FIELD_FACTS[change.field]
    meaning = facts.meaning(change.new)  # null and [] (the field facts)
    notes = [meaning] if meaning else []
    if facts.stricter is Stricter.SUBSET and change.new and change.old:
        added = [c for c in change.new if c not in change.old]
        removed = [c for c in change.old if c not in change.new]
        notes += [f"adds {', '.join(map(yaml_value, added))}"] if added else []
        notes += [f"removes {', '.join(map(yaml_value, removed))}"] if removed else []
    if change.field not in new_profile.given:
        notes.append(f"the key {'is not set' if new_file else 'was removed'}: its default applies")
    return notes


def _field_findings(
    old: ProfileValues, new: _Loaded, file: str, baseline: Baseline | None = None
) -> list[Finding]:
    """Each field `new` changes from `old`; against a `baseline` (`old` is then its
    profile), only the loosenings, each saying what it was compared with."""
    assert new.profile is not None
    findings = []
    for change in compare_values(old.values, new.profile.values):
        if baseline is not None and change.change is not Change.LOOSENS:
            continue
        loc = (*new.prefix, change.field)
        line, column = new.document.position(loc)
        notes = _notes(change, new.profile, new_file=baseline is not None)
        if baseline is not None:
            notes.insert(0, f"added: looser than {visible(baseline.name)}")
        detail = change_text(change) + (f" ({'; '.join(notes)})" if notes else "")
        verdict = Verdict.of(change.change)
        findings.append(
            Finding(
                file,
                line,
                column,
                render_loc(loc),
                verdict,
                detail,
                verdict.rule(change.field),
                change.old,
                change.new,
            )
        )
    return findings


def _below_floor_findings(floors: Sequence[Floor], new: _Loaded, file: str) -> list[Finding]:
    """A new profile compared with the floors, its baseline: each field looser than one of
    them loosens."""
    from ..floor.comparison import below_floor  # only where a floor applies

    assert new.profile is not None
    return [
        Finding(
            file,
            below.line,
            below.column,
            below.path,
            Verdict.LOOSENS,
            below.message,
            Rule.FLOOR_LOOSER,
            below.change.old,
            below.change.new,
        )
        for below in below_floor(new.profile, floors, new.document, new.prefix)
    ]


def _dump(loaded: _Loaded | None) -> Any:
    """The profile a version sets as JSON values, as the model dumps it."""
    if loaded is None or loaded.mapping is None:
        return None
    return shown_document(PROFILE, loaded.mapping).dump()


def _whole_profile(
    verdict: Verdict, file: str, loaded: _Loaded | None, old: Any = None, new: Any = None
) -> Finding:
    """A profile that appeared or went away: placed at its key in an action, else the file."""
    if loaded is None or not loaded.prefix:
        line = column = 0
        path = ""
    else:
        line, column = loaded.document.position(loaded.prefix, of_key=True)
        path = render_loc(loaded.prefix)
    detail, rule = (
        (REMOVED, Rule.LOOSENS_REMOVED) if verdict is Verdict.LOOSENS else (ADDED, Rule.DIFF_ADDED)
    )
    return Finding(file, line, column, path, verdict, detail, rule, old, new)


def _deleted(kind: DocumentKind, old: Version, file: str) -> list[Finding]:
    loaded = _load(kind, old)
    if not isinstance(loaded, _Loaded):
        # Invalid before it was deleted: it may have applied somewhere; say so, conservatively.
        return [_whole_profile(Verdict.LOOSENS, file, None)]
    if loaded.profile is None:
        return []  # an action without a profile constrained nothing
    return [_whole_profile(Verdict.LOOSENS, file, None, _dump(loaded))]


# The hook that checks each kind's files (.pre-commit-hooks.yaml; a test keeps them equal).
CHECK_HOOKS = {"profile": "safety-profile", "action": "safety-profile-action"}


def _check_command(kind: DocumentKind, file: str) -> str:
    """The `safety-profile check` command line that reports `file` as the check hook does."""
    import shlex  # only for a version that cannot be compared

    kind_option = [] if kind.name == "profile" else ["--kind", kind.name]
    options_end = ["--"] if file.startswith("-") else []
    return shlex.join(["safety-profile", "check", *kind_option, *options_end, file])


def deferred_problem(kind: DocumentKind, file: str) -> Problem:
    """An invalid new version in one line, for the loosening hook: the check hook beside it
    reports the same bytes' problems, and they are not repeated; the command shows them to a
    user who runs the loosening hook alone. An error all the same: an invalid file never passes
    by not being comparable."""
    return Problem(
        file,
        0,
        0,
        "",
        f"invalid, so it cannot be compared; the {CHECK_HOOKS[kind.name]} hook reports why "
        f"(or run: {_check_command(kind, file)})",
        Rule.DIFF_INVALID,
    )


def _deferred_below_floor(kind: DocumentKind, file: str, below: Sequence[Finding]) -> Finding:
    """An added profile's fields below the floor in one line, for the loosening hook: the check
    hook beside it reports each of them (the same floor, the same words). A loosening all the
    same: the commit fails."""
    count = len(below)
    fields = "field is" if count == 1 else "fields are"
    return Finding(
        file,
        0,
        0,
        "",
        Verdict.LOOSENS,
        f"{count} {fields} below the floor; the {CHECK_HOOKS[kind.name]} hook reports "
        f"each (or run: {_check_command(kind, file)})",
        Rule.FLOOR_LOOSER,
    )


def compare_versions(
    kind: DocumentKind,
    old: Version,
    new: Version,
    file: str,
    baseline: AddedBaseline = DEFAULT_BASELINE,
    *,
    floors: Sequence[Floor] = (),
    defer_invalid: bool = False,
) -> tuple[list[Finding], list[Problem]]:
    """Compare two versions of one file; `file` is how findings name it. A version whose data
    is None does not exist: the file was added or deleted. A profile that is new here is
    compared with `baseline` (default: DEFAULT_SAFETY_PROFILE); floors as the baseline say so
    in their findings (`floor.looser`). A changed profile is held to `floors` too: each field
    below one loosens. `defer_invalid`: an invalid new version named like the kind's files (so
    the check hook checks it too) is reported in one line (`deferred_problem`), not problem by
    problem, and so are a profile's fields below the floor, which the check hook reports too."""
    if old.data is None and new.data is None:
        return [], []
    if new.data is None:
        return _deleted(kind, old, file), []
    loaded_new = _load(kind, new)
    if defer_invalid and isinstance(loaded_new, tuple) and kind.matches(file):
        loaded_new = (deferred_problem(kind, new.name),)
    loaded_old: _Loaded | tuple[Problem, ...] | None = None
    if old.data is not None:
        loaded_old = _load(kind, old)
    problems = [
        problem
        for loaded in (loaded_old, loaded_new)
        if isinstance(loaded, tuple)
        for problem in loaded
    ]
    if problems:
        return [], problems
    assert isinstance(loaded_new, _Loaded)
    assert loaded_old is None or isinstance(loaded_old, _Loaded)
    old_profile = None if loaded_old is None else loaded_old.profile
    if loaded_new.profile is None:
        if old_profile is None:
            return [], []
        finding = _whole_profile(Verdict.LOOSENS, file, loaded_new, _dump(loaded_old))
        return [finding], []
    if old_profile is None:  # a new file, or an action that gained a profile
        added = _whole_profile(Verdict.ADDED, file, loaded_new, new=_dump(loaded_new))
        if isinstance(baseline, FloorsBaseline):
            return [added, *_held_to(kind, baseline.floors, loaded_new, file, defer_invalid)], []
        return [added, *_field_findings(baseline.profile, loaded_new, file, baseline)], []
    below = _held_to(kind, floors, loaded_new, file, defer_invalid) if floors else []
    return [*_field_findings(old_profile, loaded_new, file), *below], []


def _held_to(
    kind: DocumentKind, floors: Sequence[Floor], new: _Loaded, file: str, defer: bool
) -> list[Finding]:
    """The fields of `new` below `floors`; with `defer`, in one line for a file the check hook
    checks too."""
    below = _below_floor_findings(floors, new, file)
    if defer and below and kind.matches(file):
        return [_deferred_below_floor(kind, file, below)]
    return below


def build_report(
    results: Sequence[tuple[list[Finding], list[Problem]]],
) -> DiffReport:
    """One report from the comparisons of several files, sorted by file and line."""
    findings = sorted(finding for found, _ in results for finding in found)
    problems = sorted(problem for _, found in results for problem in found)
    return DiffReport(tuple(findings), tuple(problems), len(results))


def load_baseline(path: str) -> Baseline | DiffReport:
    """The baseline in the profile file `path` (--baseline), or a report of why it cannot be
    one, its problems as `check` gives them. Without --baseline there is none to load: an added
    profile is compared with its floors, else with the built-in default."""
    try:
        loaded = _load(KINDS["profile"], Version(path, read_regular_file(path).data))
    except OSError as error:
        return DiffReport((), (file_problem(error, path),), 1)
    if not isinstance(loaded, _Loaded):
        return DiffReport((), tuple(sorted(loaded)), 1)
    assert loaded.profile is not None
    return Baseline(loaded.profile, path)


def diff_files(kind: DocumentKind, old_path: str, new_path: str) -> DiffReport:
    """`safety-profile diff OLD NEW`: two files on disk; findings name NEW."""
    versions, problems = [], []
    for path in (old_path, new_path):
        try:
            versions.append(Version(path, read_regular_file(path).data))
        except OSError as error:
            problems.append(file_problem(error, path))
    if problems:
        return DiffReport((), tuple(sorted(problems)), 1)
    old, new = versions
    return build_report([compare_versions(kind, old, new, new_path)])


class DiffOptions(NamedTuple):
    kind: str
    output_format: str
    colour: bool
    paths: tuple[str, ...]  # OLD NEW, or the PATHs to limit --git to
    git: str | None  # --git REV; None: compare two files (or --pre-commit)
    to: str | None  # --to REV2
    staged: bool
    pre_commit: bool
    baseline: str | None = None  # the profile file added profiles are compared with
    floor: FloorSetting = FloorSetting()


def diff_options(args: argparse.Namespace, colour: bool) -> DiffOptions:
    """The command's options, checked; UsageError for combinations that make no sense."""
    if args.git is not None and args.pre_commit:
        raise UsageError("--git and --pre-commit do not go together; choose one")
    if args.git is None and (args.staged or args.to is not None):
        raise UsageError("--staged and --to go with --git REV")
    if args.staged and args.to is not None:
        raise UsageError("--staged and --to do not go together; choose one")
    if args.baseline is not None and args.git is None and not args.pre_commit:
        raise UsageError("--baseline goes with --git REV or --pre-commit")
    if args.git is None and not args.pre_commit and len(args.paths) != 2:
        raise UsageError("give two files, OLD NEW (or --git REV to compare with git)")
    if args.git is None and not args.pre_commit and (args.floor is not None or args.no_floor):
        # Two files have no added profile to hold to a floor (`check` holds a file to it).
        raise UsageError("--floor and --no-floor go with --git REV or --pre-commit")
    return DiffOptions(
        kind=args.kind,
        output_format=args.output_format,
        colour=colour,
        paths=tuple(args.paths),
        git=args.git,
        to=args.to,
        staged=args.staged,
        pre_commit=args.pre_commit,
        baseline=args.baseline,
        floor=floor_setting(args),
    )
