"""The two versions of each changed file, from the real `git`: a revision against the working
tree, the index (what is staged) or another revision.

Every git command runs at the top of the repository, so paths are repository paths whatever
folder the user is in; reports name files relative to the user's folder, as `git status` does.
"""

from __future__ import annotations

import os
import posixpath
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from cleveragents.reading.files import file_problem, read_regular_file
from cleveragents.reading.limits import DEFAULT_LIMITS
from cleveragents.reading.problems import Problem

from .diff import DiffReport, Finding, Version, build_report, compare_versions
from .kinds import DocumentKind

__all__ = [
    "ChangedFile",
    "GitComparison",
    "GitError",
    "Repository",
    "diff_against_git",
    "pre_commit_comparison",
]


class GitError(Exception):
    """git cannot answer: not a repository, an unknown revision, git missing. The message says
    what to do; the CLI reports it as a usage error."""


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
    return GitComparison("HEAD", staged=True)


@dataclass(frozen=True, slots=True)
class ChangedFile:
    """A file that differs between the two sides; paths are repository paths."""

    old_path: str | None  # None: added
    new_path: str | None  # None: deleted


class Repository:
    """The git repository around a folder."""

    def __init__(self, folder: str | os.PathLike[str] = ".") -> None:
        try:
            top, prefix = self._run(
                "rev-parse", "--show-toplevel", "--show-prefix", cwd=folder
            ).split("\n")[:2]
        except GitError:
            raise GitError(
                f"{os.fspath(folder)} is not inside a git repository; run this in a folder of "
                "your repository (or compare two files: safety-profile diff OLD NEW)"
            ) from None
        self.root = Path(top)
        self.prefix = prefix.rstrip("/")  # the user's folder, as a repository path

    @staticmethod
    def _run(*args: str, cwd: str | os.PathLike[str]) -> str:
        try:
            result = subprocess.run(
                ["git", *args], cwd=cwd, capture_output=True, check=False, text=True
            )
        except FileNotFoundError:
            raise GitError("git is not installed or not on PATH; install git") from None
        if result.returncode != 0:
            raise GitError(result.stderr.strip() or f"git {args[0]} failed")
        return result.stdout

    def git(self, *args: str) -> str:
        return self._run(*args, cwd=self.root)

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
        return (
            subprocess.run(
                ["git", "hash-object", "-t", "tree", "--stdin"],
                cwd=self.root,
                input=b"",
                capture_output=True,
                check=True,
            )
            .stdout.decode()
            .strip()
        )

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
            raise GitError(f"{user_path} is outside the repository {self.root}")
        return relative

    def display_path(self, path: str) -> str:
        """A repository path as reports name it: relative to the user's folder."""
        return posixpath.relpath(path, self.prefix or ".")

    # -- what changed --------------------------------------------------------------------------
    def changed_files(
        self, comparison: GitComparison, pathspecs: Sequence[str]
    ) -> list[ChangedFile]:
        """Every file that differs between the two sides, renames paired (git's `-M`), and,
        against the working tree, files git does not track yet (and does not ignore)."""
        args = ["diff", "--name-status", "-z", "-M", "--no-ext-diff", "--ignore-submodules"]
        args += ["--cached"] if comparison.staged else []
        args += [comparison.old_rev]
        args += [comparison.new_rev] if comparison.new_rev else []
        changed = list(_parse_name_status(self.git(*args, "--", *pathspecs)))
        if not comparison.staged and comparison.new_rev is None:
            untracked = self.git(
                "ls-files", "-z", "--others", "--exclude-standard", "--", *pathspecs
            )
            changed += [ChangedFile(None, path) for path in untracked.split("\0") if path]
        return changed

    # -- contents ------------------------------------------------------------------------------
    def blob(self, spec: str) -> bytes:
        """`git cat-file blob SPEC` (`REV:path`, `:path` for the index), read no further than
        the loader's size limit allows (one byte more, so it sees the file is too large)."""
        limit = DEFAULT_LIMITS.max_bytes + 1
        with subprocess.Popen(
            ["git", "cat-file", "blob", spec],
            cwd=self.root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ) as process:
            assert process.stdout is not None
            assert process.stderr is not None
            data = process.stdout.read(limit)
            if len(data) == limit:
                process.kill()  # the rest is never needed
            errors = process.stderr.read().decode(errors="replace")
            status = process.wait()
        if status != 0 and len(data) < limit:
            raise GitError(errors.strip() or f"git cat-file blob {spec} failed")
        return data

    def blobs(self, specs: Sequence[str]) -> dict[str, bytes]:
        """The contents of many blobs with two git processes (`git cat-file --batch-check`
        for the sizes, `--batch` for the contents), not one per file; a blob larger than the
        loader's limit is read only as far as the limit (`blob`)."""
        batched = [spec for spec in specs if "\n" not in spec]  # the batch protocol is by line
        contents = {spec: self.blob(spec) for spec in specs if "\n" in spec}
        if not batched:
            return contents
        request = "".join(f"{spec}\n" for spec in batched).encode()
        sizes = self._batch("--batch-check", request).decode().splitlines()
        small = []
        for spec, line in zip(batched, sizes, strict=True):
            fields = line.split()
            if len(fields) != 3 or fields[1] != "blob":
                raise GitError(f"{spec}: not a file at that revision ({line})")
            if int(fields[2]) > DEFAULT_LIMITS.max_bytes:
                contents[spec] = self.blob(spec)
            else:
                small.append(spec)
        output = self._batch("--batch", "".join(f"{spec}\n" for spec in small).encode())
        position = 0
        for spec in small:
            header_end = output.index(b"\n", position)
            size = int(output[position:header_end].split()[2])
            contents[spec] = output[header_end + 1 : header_end + 1 + size]
            position = header_end + 1 + size + 1  # the content is followed by a newline
        return contents

    def _batch(self, mode: str, request: bytes) -> bytes:
        result = subprocess.run(
            ["git", "cat-file", mode],
            cwd=self.root,
            input=request,
            capture_output=True,
            check=False,
        )
        if result.returncode != 0:
            raise GitError(result.stderr.decode(errors="replace").strip() or "git cat-file failed")
        return result.stdout

    def versions(
        self, comparison: GitComparison, changed: Sequence[ChangedFile]
    ) -> Iterator[tuple[Version, Version, str] | tuple[OSError, str]]:
        """For each changed file: its old and new versions and the name reports give it (or
        the error reading its working-tree file, and that name)."""
        old_specs = {c: f"{comparison.old_rev}:{c.old_path}" for c in changed if c.old_path}
        new_specs = {}
        if comparison.new_rev is not None or comparison.staged:
            prefix = f"{comparison.new_rev}:" if comparison.new_rev is not None else ":"
            new_specs = {c: f"{prefix}{c.new_path}" for c in changed if c.new_path}
        contents = self.blobs([*old_specs.values(), *new_specs.values()])
        for change in changed:
            old_spec = old_specs.get(change)
            old = Version(old_spec or "", None if old_spec is None else contents[old_spec])
            name = self.display_path(change.new_path or change.old_path or "")
            if change.new_path is None:
                yield old, Version(name, None), name
            elif change in new_specs:
                # A revision's file is named by it, as git does; the index's by its path.
                spec = new_specs[change]
                yield old, Version(name if comparison.staged else spec, contents[spec]), name
            else:
                try:
                    yield (
                        old,
                        Version(name, read_regular_file(str(self.root / change.new_path)).data),
                        name,
                    )
                except OSError as error:  # a working-tree file that cannot be read
                    yield error, name


def _parse_name_status(output: str) -> Iterator[ChangedFile]:
    """`git diff --name-status -z`: STATUS NUL PATH, or R<score> NUL OLD NUL NEW for a rename."""
    fields = output.split("\0")
    index = 0
    while index < len(fields) and fields[index]:
        status = fields[index]
        if status[0] in "RC":
            yield ChangedFile(fields[index + 1], fields[index + 2])
            index += 3
            continue
        path = fields[index + 1]
        if status[0] == "D":
            yield ChangedFile(path, None)
        elif status[0] == "A":
            yield ChangedFile(None, path)
        else:  # modified, type changed, unmerged
            yield ChangedFile(path, path)
        index += 2


def select(
    changed: Sequence[ChangedFile],
    kind: DocumentKind,
    explicit: frozenset[str],
    any_yaml: bool,
) -> list[ChangedFile]:
    """The changed files of `kind`: named like one (the pre-commit hook's pattern), or, when
    the user named paths, any YAML file under them (`any_yaml`); a file named exactly is always
    taken. A rename between a name of the kind and another is a deletion or an addition."""

    def wanted(path: str | None) -> bool:
        if path is None:
            return False
        if path in explicit:
            return True
        if any_yaml:
            return path.endswith((".yaml", ".yml")) and not kind.excluded(path)
        return kind.matches(path)

    selected = []
    for change in changed:
        old = change.old_path if wanted(change.old_path) else None
        new = change.new_path if wanted(change.new_path) else None
        if old is not None or new is not None:
            selected.append(ChangedFile(old, new))
    return selected


def diff_against_git(
    kind: DocumentKind,
    comparison: GitComparison,
    user_paths: Sequence[str] = (),
    folder: str | os.PathLike[str] = ".",
    *,
    defer_invalid: bool = False,
) -> DiffReport:
    """`safety-profile diff --git REV [PATH...]`: each changed file of `kind` at both sides;
    `defer_invalid` as `compare_versions` takes it.

    Raises GitError when git cannot answer (not a repository, an unknown revision)."""
    repository = Repository(folder)
    to_verify = [comparison.old_rev, comparison.new_rev]
    if comparison.old_rev == "HEAD":
        # HEAD is then either a commit (has_commits says so) or, before the first commit, the
        # empty tree, against which everything is new: neither needs verifying again.
        to_verify = [comparison.new_rev]
        if not repository.has_commits():
            comparison = replace(comparison, old_rev=repository.empty_tree())
    for revision in to_verify:
        if revision is not None:
            repository.verify(revision)
    pathspecs = [repository.repository_path(path) for path in user_paths]
    changed = select(
        repository.changed_files(comparison, pathspecs),
        kind,
        explicit=frozenset(pathspecs),
        any_yaml=bool(pathspecs),
    )
    results: list[tuple[list[Finding], list[Problem]]] = []
    for versions in repository.versions(comparison, changed):
        if isinstance(versions[0], OSError):
            error, name = versions
            results.append(([], [file_problem(error, name)]))
        else:
            old, new, name = versions
            results.append(compare_versions(kind, old, new, name, defer_invalid=defer_invalid))
    return build_report(results)
