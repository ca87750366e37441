"""The two versions of each changed file, from the real `git`: a revision against the working
tree, the index (what is staged) or another revision.

Every git command runs at the top of the repository, so paths are repository paths whatever
folder the user is in; reports name files relative to the user's folder, as `git status` does.
Files are read by object id (`git_objects`), links followed inside the repository on each side,
and a file that a git attribute transforms on checkout is refused: what is compared is what a
checkout holds.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from cleveragents.reading.files import file_problem
from cleveragents.reading.problems import Problem
from cleveragents.reading.rules import Rule
from cleveragents.reading.terminal_text import visible

from .diff import Baseline, DiffReport, Finding, Version, build_report, compare_versions
from .floor import Floor, Floors
from .git_objects import (
    GITLINK,
    LINK,
    GitError,
    LinkError,
    Tree,
    WorkTree,
    attribute_message,
    folder_aliases,
    git,
    quoted,
    transformed_paths,
)
from .kinds import YAML_NAME, DocumentKind

__all__ = [
    "ChangedFile",
    "GitComparison",
    "GitError",
    "Repository",
    "diff_against_git",
    "pre_commit_comparison",
]


EMPTY_TREE = ""  # as `old_rev`: the empty tree, against which every file is added


@dataclass(frozen=True, slots=True)
class GitComparison:
    """`old_rev` against the working tree (default), the index (`staged`) or `new_rev`."""

    old_rev: str
    new_rev: str | None = None
    staged: bool = False


def pre_commit_comparison(environ: Mapping[str, str]) -> GitComparison:
    """What the pre-commit hook compares: `PRE_COMMIT_FROM_REF` with `PRE_COMMIT_TO_REF` when
    pre-commit sets them (pre-push, `pre-commit run --from-ref … --to-ref …`), else HEAD with
    what is staged."""
    from_ref, to_ref = environ.get("PRE_COMMIT_FROM_REF"), environ.get("PRE_COMMIT_TO_REF")
    if from_ref and to_ref:
        return GitComparison(from_ref, new_rev=to_ref)
    pushed = environ.get("PRE_COMMIT_LOCAL_BRANCH")
    if pushed:
        # A pre-push of a history the remote holds none of (its root commit included):
        # pre-commit gives no range, so everything pushed is new.
        return GitComparison(EMPTY_TREE, new_rev=pushed)
    return GitComparison("HEAD", staged=True)


@dataclass(frozen=True, slots=True)
class ChangedFile:
    """A file that differs between the two sides; paths are repository paths."""

    old_path: str | None  # None: added
    new_path: str | None  # None: deleted


Side = Tree | WorkTree


class Repository:
    """The git repository around a folder."""

    def __init__(self, folder: str | os.PathLike[str] = ".") -> None:
        try:
            # `--show-cdup` is only `../` steps; the prefix, which may hold any byte (a
            # newline too), is the rest of the output less git's one closing newline.
            cdup, prefix = git(folder, "rev-parse", "--show-cdup", "--show-prefix").split(b"\n", 1)
        except (GitError, ValueError):
            raise GitError(
                f"{visible(os.fsdecode(os.path.abspath(folder)))} is not inside a git "
                "repository; run this in a folder of your repository (or compare two files: "
                "safety-profile diff OLD NEW)"
            ) from None
        self.root = Path(os.path.realpath(os.path.join(folder, os.fsdecode(cdup))))
        self.prefix = os.fsdecode(prefix[:-1]).rstrip("/")  # the user's folder, as a repo path

    def git(self, *args: str) -> str:
        return os.fsdecode(git(self.root, *args))

    def verify(self, revision: str) -> None:
        """Raise GitError unless `revision` names a commit (or tree) here."""
        if revision.startswith("-"):
            raise GitError(f"{revision!r} is not a revision; name a commit, branch or tag")
        try:
            self.git("rev-parse", "--verify", "--quiet", f"{revision}^{{tree}}")
        except GitError:
            raise GitError(
                f"unknown revision {revision!r}; name a commit, branch or tag that exists in "
                "this repository (in CI, fetch it first, e.g. actions/checkout with "
                "fetch-depth: 0)"
            ) from None

    def has_commits(self) -> bool:
        try:
            self.git("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
        except GitError:
            return False
        return True

    def empty_tree(self) -> str:
        """The id of the empty tree (the old side of a repository's first commit)."""
        return git(self.root, "hash-object", "-t", "tree", "--stdin", input=b"").decode().strip()

    # -- paths ---------------------------------------------------------------------------------
    def repository_path(self, user_path: str) -> str:
        """A path as the user wrote it (relative to their folder, or absolute) as a repository
        path; GitError when it is outside the repository."""
        if os.path.isabs(user_path):
            parent, name = os.path.split(os.path.normpath(user_path))
            relative = os.path.relpath(os.path.join(os.path.realpath(parent), name), self.root)
        else:
            relative = posixpath.normpath(posixpath.join(self.prefix, user_path))
        relative = relative.replace(os.sep, "/")
        if relative == ".." or relative.startswith("../"):
            raise GitError(
                f"{visible(user_path)} is outside the repository {visible(str(self.root))}"
            )
        return "" if relative == "." else relative

    def display_path(self, path: str) -> str:
        """A repository path as reports name it: relative to the user's folder."""
        return posixpath.relpath(path, self.prefix or ".")

    # -- the two sides -------------------------------------------------------------------------
    def sides(self, comparison: GitComparison) -> tuple[Tree, Side]:
        old = Tree.of_revision(self.root, comparison.old_rev)
        if comparison.new_rev is not None:
            return old, Tree.of_revision(self.root, comparison.new_rev)
        return old, Tree.of_index(self.root) if comparison.staged else WorkTree(self.root)

    def changed_files(self, comparison: GitComparison) -> tuple[list[ChangedFile], list[str]]:
        """Every file that differs between the two sides, and, against the working tree, files
        git does not track yet (and does not ignore); and the submodules that changed.

        A rename is a deletion of the old path and an addition of the new one (`--no-renames`):
        whoever opens the old path finds nothing, and the new path overrides the layer below
        it. No submodule whose commit changed is hidden (`--ignore-submodules=dirty` on the
        command line: neither `.gitmodules` nor the configuration can say `ignore = all`); what
        is not committed in a submodule's work tree is that repository's own, and git would run
        its configured commands (its `clean` filters) to find out."""
        args = ["diff", "--raw", "-z", "--no-renames", "--ignore-submodules=dirty"]
        args += ["--no-color", "--no-ext-diff", "--no-textconv"]
        args += ["--cached"] if comparison.staged else []
        args += [comparison.old_rev]
        args += [comparison.new_rev] if comparison.new_rev else []
        changed, submodules = [], []
        for modes, change in _parse_raw(self.git(*args)):
            if GITLINK in modes:
                submodules.append(change.new_path or change.old_path or "")
            else:
                changed.append(change)
        if not comparison.staged and comparison.new_rev is None:
            untracked = self.git("ls-files", "-z", "--full-name", "--others", "--exclude-standard")
            changed += [ChangedFile(None, path) for path in untracked.split("\0") if path]
        return changed, submodules


def _parse_raw(output: str) -> Iterator[tuple[tuple[str, str], ChangedFile]]:
    """`git diff --raw -z`: `:OLDMODE NEWMODE OLDID NEWID STATUS` NUL PATH (NUL NEW for a
    rename), each with the two modes."""
    fields = output.split("\0")
    index = 0
    while index < len(fields) and fields[index]:
        old_mode, new_mode, _, _, status = fields[index].lstrip(":").split(" ")
        if status[0] in "RC":
            # A copy (diff.renames=copies) leaves its source in place: the copy is new.
            source = fields[index + 1] if status[0] == "R" else None
            yield (old_mode, new_mode), ChangedFile(source, fields[index + 2])
            index += 3
            continue
        path = fields[index + 1]
        old = None if status[0] == "A" else path
        yield (old_mode, new_mode), ChangedFile(old, None if status[0] == "D" else path)
        index += 2


def _in_scope(path: str, pathspecs: Sequence[str]) -> bool:
    return not pathspecs or any(
        spec == "" or path == spec or path.startswith(f"{spec}/") for spec in pathspecs
    )


def select(
    changed: Sequence[ChangedFile],
    kind: DocumentKind,
    explicit: frozenset[str],
    any_yaml: bool,
) -> list[ChangedFile]:
    """The changed files of `kind`: named like one (the pre-commit hook's pattern), or, when
    the user named paths, any YAML file under them (`any_yaml`, any case, as the hooks match
    names); a file named exactly is always taken. A rename between a name of the kind and
    another is a deletion or an addition."""

    def wanted(path: str | None) -> bool:
        if path is None or not _in_scope(path, sorted(explicit)):
            return False
        if path in explicit:
            return True
        if any_yaml:
            return bool(YAML_NAME.search(path)) and not kind.excluded(path)
        return kind.matches(path)

    selected = []
    for change in changed:
        old = change.old_path if wanted(change.old_path) else None
        new = change.new_path if wanted(change.new_path) else None
        if old is not None or new is not None:
            selected.append(ChangedFile(old, new))
    return selected


SUBMODULE_CHANGED = (
    "a submodule changed; the profiles in it are not compared here: run safety-profile diff "
    "--git in the submodule"
)


def _problem(name: str, message: str, rule: Rule) -> Problem:
    return Problem(name, 0, 0, "", message, rule)


def _a_mapping(text: str) -> bool:
    from cleveragents.reading.loaded_file import load_bytes

    return load_bytes(os.fsencode(text), text).mapping is not None


class _Reader:
    """Reads the files of one side as a checkout holds them: through links, refusing what an
    attribute transforms, with a problem (named by the path) for what cannot be read."""

    def __init__(self, side: Side, repository: Repository, paths: Sequence[str]) -> None:
        self.side = side
        self.repository = repository
        self.resolved: dict[str, str | Problem] = {}
        for path in paths:
            shown = quoted(path)
            try:
                if side.kind_of(path) == LINK and _a_mapping(side.read_link(path)):
                    message = (
                        "is a link whose target's name is itself a YAML mapping: a checkout "
                        "without links (core.symlinks=false, Windows' default) writes it as a "
                        "file holding that name, which reads as a profile; rename the target"
                    )
                else:
                    self.resolved[path] = side.resolve(path)
                    continue
            except LinkError as error:
                message = str(error)
                if message.startswith(("leads", "has")):  # a link was followed
                    message += (
                        "; a profile that is a link must lead to a file committed in the repository"
                    )
            self.resolved[path] = _problem(
                repository.display_path(path), f"{side.label}: {shown} {message}", Rule.GIT_LINK
            )
        targets = {t for t in self.resolved.values() if isinstance(t, str)}
        tree = side if isinstance(side, Tree) else None
        self.attributes = transformed_paths(
            repository.root,
            sorted(targets),
            None if tree is None else tree.revision,
            cached=tree is not None,
        )
        for path, target in self.resolved.items():
            if isinstance(target, str) and target in self.attributes:
                through = "" if target == path else f" (through the link to {quoted(target)})"
                self.resolved[path] = _problem(
                    repository.display_path(path),
                    f"{side.label}{through}: {attribute_message(self.attributes[target])}",
                    Rule.GIT_ATTRIBUTE,
                )

    def problems(self) -> list[Problem]:
        return [p for p in self.resolved.values() if isinstance(p, Problem)]

    def read(self) -> dict[str, bytes | OSError]:
        targets = sorted({t for t in self.resolved.values() if isinstance(t, str)})
        contents: dict[str, bytes | OSError] = {}
        if isinstance(self.side, Tree):
            contents.update(self.side.read(targets))
        else:
            for target in targets:
                try:
                    contents.update(self.side.read([target]))
                except OSError as error:  # a working-tree file that cannot be read
                    contents[target] = error
        return {
            path: contents[target]
            for path, target in self.resolved.items()
            if isinstance(target, str)
        }


def _verified(repository: Repository, comparison: GitComparison) -> GitComparison:
    """`comparison` with its revisions verified (GitError otherwise), and the empty tree for
    an old side that has no commit."""
    to_verify = [comparison.old_rev, comparison.new_rev]
    if comparison.old_rev == EMPTY_TREE:
        to_verify = [comparison.new_rev]
        comparison = replace(comparison, old_rev=repository.empty_tree())
    elif comparison.old_rev == "HEAD":
        # HEAD is then either a commit (has_commits says so) or, before the first commit, the
        # empty tree, against which everything is new: neither needs verifying again.
        to_verify = [comparison.new_rev]
        if not repository.has_commits():
            comparison = replace(comparison, old_rev=repository.empty_tree())
    for revision in to_verify:
        if revision is not None:
            repository.verify(revision)
    return comparison


@dataclass(frozen=True, slots=True)
class _Plan:
    """What to read on each side: the changes to compare, those compared only when the two
    sides read differently (through links), and every file of the kind on the new side."""

    changed: list[ChangedFile]
    linked: list[ChangedFile]
    everything_new: list[str]


def _plan(
    changed: list[ChangedFile],
    old_side: Side,
    new_side: Side,
    selected: Callable[[list[ChangedFile]], list[ChangedFile]],
) -> _Plan:
    changed = selected(changed)
    # A link's target can change while the link does not: every file of the kind that is a
    # link on either side, or is named so only through a link to a folder, is compared too
    # (and left out when both read the same).
    old_aliases, new_aliases = folder_aliases(old_side), folder_aliases(new_side)
    aliases = old_aliases | new_aliases
    old_paths, new_paths = set(old_side.paths()) | old_aliases, set(new_side.paths()) | new_aliases
    listed = {c.new_path for c in changed} | {c.old_path for c in changed}
    linked = [
        change
        for change in selected([ChangedFile(p, p) for p in sorted(old_paths & new_paths)])
        if change.old_path is not None
        and change.old_path == change.new_path
        and change.old_path not in listed
        and (
            change.old_path in aliases
            or LINK in (old_side.kind_of(change.old_path), new_side.kind_of(change.old_path))
        )
    ]
    # Added and deleted behind a folder link: named so only through it on one side.
    changed += selected(
        [ChangedFile(p, None) for p in sorted(old_paths - new_paths) if p in aliases]
        + [ChangedFile(None, p) for p in sorted(new_paths - old_paths) if p in aliases]
    )
    # Every file of the kind on the new side is read, so a commit that only adds an attribute
    # (or moves a link's target) is still seen.
    everything_new = [
        c.new_path
        for c in selected([ChangedFile(None, p) for p in sorted(new_paths)])
        if c.new_path is not None
    ]
    return _Plan(changed, linked, everything_new)


def diff_against_git(
    kind: DocumentKind,
    comparison: GitComparison,
    user_paths: Sequence[str] = (),
    folder: str | os.PathLike[str] = ".",
    baseline: Baseline | None = None,
    floors: Floors | None = None,
    *,
    defer_invalid: bool = False,
) -> DiffReport:
    """`safety-profile diff --git REV [PATH...]`: each changed file of `kind` at both sides, as
    a checkout of each side holds it; an added profile is compared with `baseline`, else with
    the floor `floors` finds for its file in the working tree, else with the built-in default;
    `defer_invalid` as `compare_versions` takes it.

    Raises GitError when git cannot answer (not a repository, an unknown revision), FloorError
    for a floor that cannot be used."""
    repository = Repository(folder)
    if floors is not None:  # a floor that cannot be used stops the command, changes or not
        floors.for_folder(repository.root)
    comparison = _verified(repository, comparison)
    pathspecs = [repository.repository_path(path) for path in user_paths]
    old_side, new_side = repository.sides(comparison)
    changed, submodules = repository.changed_files(comparison)
    if isinstance(new_side, WorkTree):  # files `git diff` is told not to look at
        listed = {c.new_path for c in changed}
        changed += [
            ChangedFile(path if path in old_side.entries else None, path)
            for path in sorted(new_side.unwatched - listed)
        ]
    plan = _plan(
        changed,
        old_side,
        new_side,
        lambda changes: select(changes, kind, frozenset(pathspecs), any_yaml=bool(pathspecs)),
    )
    compared = [*plan.changed, *plan.linked]
    old_reader = _Reader(old_side, repository, sorted({c.old_path for c in compared if c.old_path}))
    new_reader = _Reader(
        new_side,
        repository,
        sorted({*plan.everything_new, *(c.new_path for c in plan.changed if c.new_path)}),
    )
    results: list[tuple[list[Finding], list[Problem]]] = [([], [p]) for p in new_reader.problems()]
    refused = {p.file for p in new_reader.problems()}
    old_data, new_data = old_reader.read(), new_reader.read()
    for change in compared:
        name = repository.display_path(change.new_path or change.old_path or "")
        if name in refused:
            continue
        old_problem = old_reader.resolved.get(change.old_path or "")
        if isinstance(old_problem, Problem):
            results.append(([], [old_problem]))
            continue
        old_bytes = old_data.get(change.old_path or "")
        new_bytes = new_data.get(change.new_path or "")
        if isinstance(new_bytes, OSError):
            results.append(([], [file_problem(new_bytes, name)]))
            continue
        assert not isinstance(old_bytes, OSError)
        if old_bytes is not None and old_bytes == new_bytes:
            continue  # a checkout holds the same file (a link now, a mode changed)
        old_name = repository.display_path(change.old_path) if change.old_path else ""
        file_baseline: Baseline | Sequence[Floor] | None = baseline
        if baseline is None and floors is not None and change.new_path is not None:
            file_baseline = floors.for_file(str(repository.root / change.new_path)) or None
        results.append(
            compare_versions(
                kind,
                Version(old_name, old_bytes, origin=old_side.revision or ""),
                Version(name, new_bytes),
                name,
                file_baseline,
                defer_invalid=defer_invalid,
            )
        )
    results += [
        ([], [_problem(repository.display_path(path), SUBMODULE_CHANGED, Rule.GIT_SUBMODULE)])
        for path in submodules
        if _in_scope(path, pathspecs)
    ]
    return build_report(results)
