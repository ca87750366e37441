"""The two versions of each changed file, from the real `git`: a revision against the working
tree, the index (what is staged) or another revision.

Every git command runs at the top of the repository, so paths are repository paths whatever
folder the user is in; reports name files relative to the user's folder, as `git status` does.
Files are read by object id (`git.objects`), every name a file has through links is compared
(`git.names`), a file that a git attribute transforms on checkout is refused, and names that a
case-insensitive or normalising file system takes for one (`name_folding`) are refused when a
change adds one: what is compared is what a checkout holds.

A merge is compared with its first parent, as any commit is; a file the merge makes differ from
every parent's version (a conflict resolved by hand, an "evil merge") is compared with each
other parent too, and a loosening against any parent is a loosening.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Iterator, Mapping, Sequence

from cleveragents.reading.files import file_problem
from cleveragents.reading.lean_typing import NamedTuple
from cleveragents.reading.problems import Problem
from cleveragents.reading.rules import Rule
from cleveragents.reading.terminal_text import visible

from ..floor import CONFIG_FILE, Configured, Floor, FloorError, FloorFiles, Floors, parse_config
from ..git.links import Links, Node, git_side
from ..git.name_folding import collision_message, read_through_message, twin_groups
from ..git.names import LinkBudgetError, Named, named_files
from ..git.objects import (
    GITLINK,
    LINK,
    GitError,
    LinkError,
    Side,
    Tree,
    WorkTree,
    WorkTreeListing,
    attribute_message,
    git,
    head_commit,
    no_attribute_can_apply,
    no_attribute_in_tree,
    not_a_file,
    quoted,
    transformed_paths,
)
from .diff import (
    AddedBaseline,
    Baseline,
    DiffReport,
    Finding,
    FloorsBaseline,
    Verdict,
    Version,
    build_report,
    compare_versions,
)
from .kinds import YAML_NAME, DocumentKind, folder_mark

__all__ = [
    "ChangedFile",
    "GitComparison",
    "GitError",
    "Repository",
    "diff_against_git",
    "pre_commit_comparison",
]


EMPTY_TREE = ""  # as `old_rev`: the empty tree, against which every file is added


class GitComparison(NamedTuple):
    """`old_rev` against the working tree (default), the index (`staged`) or `new_rev`.
    `of_head`: `old_rev` is the commit HEAD named when the comparison was verified."""

    old_rev: str
    new_rev: str | None = None
    staged: bool = False
    of_head: bool = False


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


class ChangedFile(NamedTuple):
    """A file that differs between the two sides; paths are repository paths."""

    old_path: str | None  # None: added
    new_path: str | None  # None: deleted


class Repository:
    """The git repository around a folder."""

    def __init__(self, folder: str | os.PathLike[str] = ".") -> None:
        try:
            # `--show-cdup` is only `../` steps; the prefix, which may hold any byte (a
            # newline too), is the rest of the output less git's one closing newline.
            cdup, prefix = git(folder, "rev-parse", "--show-cdup", "--show-prefix").split(b"\n", 1)
        except (GitError, ValueError) as error:
            shown = visible(os.fsdecode(os.path.abspath(folder)))
            if isinstance(error, GitError) and "not a git repository" not in str(error):
                # A repository git refuses (its ownership, a broken .git): say git's words.
                raise GitError(f"git cannot read the repository at {shown}: {error}") from None
            raise GitError(
                f"{shown} is not inside a git repository; run this in a folder of your "
                "repository (or compare two files: safety-profile diff OLD NEW)"
            ) from None
        # A str, not a Path: pathlib (with urllib and ipaddress) is not imported for `diff`.
        self.root = os.path.realpath(os.path.join(folder, os.fsdecode(cdup)))
        self.prefix = os.fsdecode(prefix[:-1]).rstrip("/")  # the user's folder, as a repo path
        self._listing: WorkTreeListing | None = None

    def git(self, *args: str) -> str:
        return os.fsdecode(git(self.root, *args))

    def work_tree_listing(self) -> WorkTreeListing:
        """The index's entries and the files git does not track and does not ignore, asked
        once (one `git ls-files`): the working tree's side and the changed files both need
        them."""
        if self._listing is None:
            self._listing = WorkTreeListing.of(self.root)
        return self._listing

    def _git_path(self, name: str) -> str:
        """`git rev-parse --git-path NAME`, without git where it is certain: the repository's
        own `.git` folder, with no GIT_DIR or GIT_COMMON_DIR set (else git is asked)."""
        git_dir = os.path.join(self.root, ".git")
        if not {"GIT_DIR", "GIT_COMMON_DIR"} & os.environ.keys() and os.path.isdir(git_dir):
            return os.path.join(git_dir, name)
        return os.path.join(self.root, self.git("rev-parse", "--git-path", name).strip())

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
        old = Tree.of_revision(
            self.root, comparison.old_rev, "HEAD" if comparison.of_head else None
        )
        if comparison.new_rev is not None:
            return old, Tree.of_revision(self.root, comparison.new_rev)
        if comparison.staged:
            return old, Tree.of_index(self.root)
        return old, WorkTree(self.root, self.work_tree_listing())

    def other_parents(self, comparison: GitComparison) -> list[str]:
        """The parents of a merge besides the first, when the comparison is of the merge
        against its first parent: `--to` a merge commit from its first parent, or, while a
        merge is being committed, HEAD against what is staged or in the working tree
        (`MERGE_HEAD` names the others; git writes it when a merge stops for a conflict or
        `--no-commit`). Else none."""
        if comparison.new_rev is not None:
            try:
                parents = self.git("rev-parse", f"{comparison.new_rev}^@").split()
                first = self.git("rev-parse", "--verify", f"{comparison.old_rev}^{{commit}}")
            except GitError:  # a tree, not a commit: no parents
                return []
            return parents[1:] if len(parents) > 1 and parents[0] == first.strip() else []
        if not comparison.of_head:
            return []
        merge_head = self._git_path("MERGE_HEAD")
        try:
            with open(merge_head, encoding="ascii") as file:
                return file.read().split()
        except OSError:  # no merge under way
            return []

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
            changed += [ChangedFile(None, path) for path in self.work_tree_listing().untracked]
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


SUBMODULE_CHANGED = (
    "a submodule changed; the profiles in it are not compared here: run safety-profile diff "
    "--git in the submodule"
)


def _problem(name: str, message: str, rule: Rule) -> Problem:
    return Problem(name, 0, 0, "", message, rule)


def _a_mapping(text: str) -> bool:
    """Whether a link's target, written as a file's text, reads as a YAML mapping."""
    if not any(mark in text for mark in "{:?"):  # no flow mapping, key or explicit key
        return False
    from cleveragents.reading.loaded_file import load_bytes

    return load_bytes(os.fsencode(text), text).mapping is not None


def _wanted(kind: DocumentKind, pathspecs: Sequence[str]) -> Callable[[str], bool]:
    """Whether a name is compared: named like a file of `kind` (the pre-commit hook's
    pattern), or, when the user named paths, any YAML file under them (`.yaml`/`.yml` in any
    case, as the hooks match names); a file named exactly is always taken."""
    explicit = frozenset(pathspecs)

    def wanted(path: str) -> bool:
        if not _in_scope(path, pathspecs):
            return False
        if path in explicit:
            return True
        if pathspecs:
            return bool(YAML_NAME.search(path)) and not kind.excluded(path)
        return kind.matches(path)

    return wanted


LINK_SUFFIX = "; a profile that is a link must lead to a file committed in the repository"
MAPPING_LINK = (
    "is a link whose target's name is itself a YAML mapping: a checkout without links "
    "(core.symlinks=false, Windows' default) writes it as a file holding that name, which "
    "reads as a profile; rename the target"
)


def _holds(side: Side, entry: str | None, node: Node, name: str) -> str | tuple[str] | None:
    """What `side` gives a program that opens `name`: the repository path of a file, None for
    nothing (no such name, or a folder of that name), or, in a 1-tuple, why it cannot be read
    (a link that leaves the repository, dangles, loops; a submodule)."""
    if entry is not None and side.kind_of(entry) == LINK and _a_mapping(side.read_link(entry)):
        return (f"{side.label}: {quoted(name)} {MAPPING_LINK}",)
    if node.kind == "file":
        return node.path
    if node.kind in ("missing", "dir") and not node.through_link:
        return None
    if node.kind == "error":
        message = node.error
    else:
        message = not_a_file(node.kind, node.path, through_link=node.through_link)
    if message.startswith(("leads", "has")):  # a link was followed
        message += LINK_SUFFIX
    return (f"{side.label}: {quoted(name)} {message}",)


class _Pair:
    """A name the two sides give different files (or a file on one side only); the data of
    each is filled in once read."""

    __slots__ = ("name", "new", "new_data", "old", "old_data")

    def __init__(self, name: str, old: str | None, new: str | None) -> None:
        self.name = name
        self.old = old  # the file each side gives the name (a repository path); None: none
        self.new = new
        self.old_data: bytes | None = None
        self.new_data: bytes | OSError | None = None


def _same_file(old_side: Tree, old: str, new_side: Side, new: str, changed: frozenset[str]) -> bool:
    """Whether two files are known to hold the same bytes without reading them: the same blob
    in two trees, or the same path that git says did not change."""
    if isinstance(new_side, Tree):
        return old_side.same_file(old, new_side, new)
    return old == new and new not in changed


class _Comparison:
    """The new side against one old side: every name of the kind on either side (through
    links), what each gives, the problems of the new side, and the pairs that differ, read."""

    def __init__(
        self,
        repository: Repository,
        old_links: Links,
        new_links: Links,
        changed: frozenset[str],
        wanted: Callable[[str], bool],
        pathspecs: Sequence[str],
    ) -> None:
        self.repository = repository
        old_side = git_side(old_links)
        assert isinstance(old_side, Tree)
        self.old_side = old_side
        self.new_side = git_side(new_links)
        self.problems: list[Problem] = []
        self.pairs: list[_Pair] = []
        self.names: list[Named] = []
        try:
            self.names = list(named_files(old_links, new_links, wanted, folder_mark, pathspecs))
        except LinkBudgetError as error:
            self.problems.append(
                _problem(
                    repository.display_path(error.name),
                    f"{quoted(error.name)}: the folder links of the two sides give more pairs of "
                    f"folders than a repository of this size can ({error.budget:,}), so not "
                    "every name could be compared; remove the links that lead back into "
                    "folders they are in",
                    Rule.GIT_LINK,
                )
            )
            return
        shown = repository.display_path
        new_holds = {n.name: _holds(self.new_side, n.new_entry, n.new, n.name) for n in self.names}
        self.problems += [
            _problem(shown(name), held[0], Rule.GIT_LINK)
            for name, held in new_holds.items()
            if isinstance(held, tuple)
        ]
        self.refused = self._attribute_problems(
            self.new_side, {name: h for name, h in new_holds.items() if isinstance(h, str)}
        )
        old_pairs: dict[str, str] = {}
        for named in self.names:
            new = new_holds[named.name]
            if isinstance(new, tuple) or named.name in self.refused:
                continue
            old = _holds(old_side, named.old_entry, named.old, named.name)
            if isinstance(old, tuple):
                self.problems.append(_problem(shown(named.name), old[0], Rule.GIT_LINK))
                continue
            if old is None and new is None:
                continue
            if (
                old is not None
                and new is not None
                and _same_file(old_side, old, self.new_side, new, changed)
            ):
                continue
            if old is not None:
                old_pairs[named.name] = old
            self.pairs.append(_Pair(named.name, old, new))
        # The old side's files are refused too when an attribute transforms them there.
        refused_old = self._attribute_problems(old_side, old_pairs)
        self.pairs = [pair for pair in self.pairs if pair.name not in refused_old]
        self._read()

    def _attribute_problems(self, side: Side, files: Mapping[str, str]) -> set[str]:
        """The names (of `files`: name -> the file it gives) whose file an attribute
        transforms on `side`, each reported."""
        tree = side if isinstance(side, Tree) else None
        targets = sorted(set(files.values()))
        root = str(self.repository.root)
        if tree is not None and no_attribute_in_tree(root, tree.paths()):
            return set()  # git would say nothing: no process started
        real = [os.path.join(root, target) for target in targets]
        if tree is None and no_attribute_can_apply(root, real):
            return set()
        attributes = transformed_paths(
            self.repository.root,
            targets,
            None if tree is None else tree.revision,
            cached=tree is not None,
        )
        refused = set()
        for name, target in files.items():
            if target in attributes:
                through = "" if target == name else f" (through the link to {quoted(target)})"
                message = f"{side.label}{through}: {attribute_message(attributes[target])}"
                shown = self.repository.display_path(name)
                self.problems.append(_problem(shown, message, Rule.GIT_ATTRIBUTE))
                refused.add(name)
        return refused

    def _read(self) -> None:
        old_data = self.old_side.read(sorted({p.old for p in self.pairs if p.old is not None}))
        new_paths = sorted({p.new for p in self.pairs if p.new is not None})
        new_data: dict[str, bytes | OSError] = {}
        if isinstance(self.new_side, Tree):
            new_data.update(self.new_side.read(new_paths))
        else:
            for path in new_paths:
                try:
                    new_data.update(self.new_side.read([path]))
                except OSError as error:  # a working-tree file that cannot be read
                    new_data[path] = error
        differ = []
        for pair in self.pairs:
            pair.old_data = None if pair.old is None else old_data[pair.old]
            pair.new_data = None if pair.new is None else new_data[pair.new]
            if pair.old_data is None or pair.old_data != pair.new_data:
                differ.append(pair)  # else a checkout holds the same file (a link now, ...)
        self.pairs = differ


def _reading(names: Sequence[Named], new: bool) -> dict[str, set[str]]:
    """A path -> the names of the kind that read through it (as themselves, through a link
    to it, or through a folder of it), on the new side or the old one."""
    reading: dict[str, set[str]] = {}
    for named in names:
        node = named.new if new else named.old
        if node.kind == "missing" and not node.through_link:
            continue  # no such name on this side
        paths = {named.name, *([node.path] if node.kind == "file" else [])}
        for path in paths:
            for through in (path, *_folders_above(path)):
                reading.setdefault(through, set()).add(named.name)
    return reading


def _twin_problems(
    repository: Repository,
    old_side: Tree,
    new_side: Side,
    comparison: _Comparison,
    changed: frozenset[str],
) -> list[Problem]:
    """Names a case-insensitive or normalising file system takes for one (`name_folding`),
    where one of them is a file of the kind, the file one leads to, or a folder holding one,
    and the change adds one of them, changes one (`changed`: the paths git says differ), or
    makes a name of the kind read through one: a checkout there holds one file for both.
    Each of them is an error, and so is each name of the kind that leads to one (through a
    link or a folder). Twins the change leaves alone, read as they were, are not its doing."""
    reading = _reading(comparison.names, new=True)
    read_before = _reading(comparison.names, new=False)
    touched = {through for path in changed for through in (path, *_folders_above(path))}
    problems = []
    for group in twin_groups(new_side.paths()):
        if not any(member in reading for member in group):
            continue
        added = any(old_side.kind_of(member) is None for member in group)
        edited = any(member in touched for member in group)
        read_anew = any(
            reading.get(member, set()) - read_before.get(member, set()) for member in group
        )
        if not (added or edited or read_anew):
            continue
        for member in group:
            others = [other for other in group if other != member]
            message = f"{new_side.label}: {collision_message(member, others)}"
            shown = repository.display_path(member)
            problems.append(_problem(shown, message, Rule.FILE_NAME_COLLISION))
            for name in sorted(reading.get(member, set()) - set(group)):
                message = f"{new_side.label}: {read_through_message(name, member, others)}"
                shown = repository.display_path(name)
                problems.append(_problem(shown, message, Rule.FILE_NAME_COLLISION))
    return problems


def _folders_above(path: str) -> Iterator[str]:
    folder = path.rpartition("/")[0]
    while folder:
        yield folder
        folder = folder.rpartition("/")[0]


class RevisionFiles(FloorFiles):
    """The pyproject.toml files and floor files of one side of a comparison (a revision or
    the index), as a checkout of it holds them: read by object id, through its links, never
    out of the repository. Paths are absolute, below the repository's root."""

    def __init__(self, root: str, links: Links, *, labelled: bool = True) -> None:
        self.root = root
        self.links = links
        self.tree = git_side(links)
        assert isinstance(self.tree, Tree)
        # The old side's floors say which revision they are from; the new side's are the
        # files as the change leaves them, named as the working tree's are.
        self.label = f" {self.tree.label}" if labelled else ""

    def _relative(self, path: str) -> str:
        relative = os.path.relpath(path, self.root).replace(os.sep, "/")
        return "" if relative == "." else relative

    def upwards(self, folder: str) -> Iterator[str]:
        while True:
            yield folder
            if self._relative(folder) == "":
                return
            folder = os.path.dirname(folder)

    def config(self, folder: str) -> Configured | None:
        pyproject = os.path.join(folder, CONFIG_FILE)
        relative = self._relative(pyproject)
        shown = f"{visible(os.path.relpath(pyproject))}{self.label}"
        kind = self.tree.kind_of(relative)
        if kind is None:
            return None
        try:
            target = self.links.resolve(relative)
        except LinkError as error:
            raise FloorError(
                f"{shown}: {error}, so the floor it may set cannot be read; make it a file",
                Rule.FLOOR_OUTSIDE if "outside" in str(error) else Rule.FLOOR_UNUSABLE,
            ) from None
        data = self.tree.read([target])[target]
        return parse_config(data, pyproject, shown)

    def floor_file(self, spec: str, base: str, shown: str, where: str) -> tuple[bytes, int, str]:
        from ..floor import floor_identity, floor_outside

        if spec.startswith("/"):
            raise floor_outside(shown, where, "leads outside the repository")
        try:
            target = self.links.resolve(f"{self._relative(base)}/{spec}".lstrip("/"))
        except LinkError as error:
            if "outside" in str(error):
                raise floor_outside(shown, where, "leads outside the repository") from None
            raise FloorError(f"the floor {visible(shown)} ({where}): {error}") from None
        data = self.tree.read([target])[target]
        return data, len(data), floor_identity(os.path.join(self.root, target), data)


def _verified(repository: Repository, comparison: GitComparison) -> GitComparison:
    """`comparison` with its revisions verified (GitError otherwise): HEAD as the id of its
    commit (`head_commit`: never a ref git's name guessing finds), and the empty tree for an
    old side that has no commit."""
    to_verify = [comparison.old_rev, comparison.new_rev]
    if comparison.old_rev == EMPTY_TREE:
        to_verify = [comparison.new_rev]
        comparison = comparison._replace(old_rev=repository.empty_tree())
    elif comparison.old_rev == "HEAD":
        # HEAD is then either a commit or, before the first commit, the empty tree, against
        # which everything is new: neither needs verifying again.
        to_verify = [comparison.new_rev]
        commit = head_commit(repository.root)
        if commit is None:
            comparison = comparison._replace(old_rev=repository.empty_tree())
        else:
            comparison = comparison._replace(old_rev=commit, of_head=True)
    for revision in to_verify:
        if revision is not None:
            repository.verify(revision)
    return comparison


def _changed_paths(
    repository: Repository, comparison: GitComparison, new_side: Side
) -> tuple[frozenset[str], list[str]]:
    """Every path git says differs between the two sides (and, against the working tree, those
    it does not track yet or is told not to look at), and the submodules that changed."""
    changed, submodules = repository.changed_files(comparison)
    paths = {path for change in changed for path in (change.old_path, change.new_path) if path}
    if isinstance(new_side, WorkTree):
        paths |= new_side.unwatched | new_side.sparse_paths()
    return frozenset(paths), submodules


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
    """`safety-profile diff --git REV [PATH...]`: each file of `kind` that differs between the
    two sides, under every name it has (through links), as a checkout of each side holds it.
    An added profile is compared with `baseline`; without one, it and every changed profile
    are held to the floors `floors` finds for the file on each side (the configuration as the
    old revision holds it and as the new side does: a change can add a floor, never lift
    one), else an added one is compared with the built-in default. With the configured
    floors, a change to a floor itself is compared like a profile's (`kind` profile).
    `defer_invalid` as `compare_versions` takes it.

    Raises GitError when git cannot answer (not a repository, an unknown revision), FloorError
    for a floor that cannot be used."""
    repository = Repository(folder)
    if floors is not None:  # a floor that cannot be used stops the command, changes or not
        floors.for_folder(repository.root)
    comparison = _verified(repository, comparison)
    pathspecs = [repository.repository_path(path) for path in user_paths]
    wanted = _wanted(kind, pathspecs)
    old_side, new_side = repository.sides(comparison)
    others: list[Tree] = []
    try:
        changed, submodules = _changed_paths(repository, comparison, new_side)
        old_links, new_links = Links(old_side), Links(new_side)
        main = _Comparison(repository, old_links, new_links, changed, wanted, pathspecs)
        results: list[tuple[list[Finding], list[Problem]]] = [([], main.problems)]
        results.append(([], _twin_problems(repository, old_side, new_side, main, changed)))
        sides = None if floors is None else _SideFloors(repository, floors, old_links, new_links)
        for pair in main.pairs:
            # An explicit --baseline is the baseline instead of the floors (`check` still
            # holds the file to them); the floor's own review below stands either way.
            held = sides is not None and baseline is None
            file_floors = sides.for_file(pair.name) if sides is not None and held else ()
            file_baseline: AddedBaseline = (
                baseline
                if baseline is not None
                else FloorsBaseline(tuple(file_floors))
                if file_floors
                else Baseline()
            )
            results.append(
                _compare_pair(
                    kind, repository, old_side, pair, file_baseline, file_floors, defer_invalid
                )
            )
        if sides is not None and sides.configured and kind.name == "profile":
            compared = {pair.name for pair in main.pairs}
            results.append((sides.floor_changes(pathspecs, compared), []))
        parents = repository.other_parents(comparison)
        if parents:
            others = [Tree.of_revision(repository.root, parent) for parent in parents]
            # A field loosened from the same value against two parents is said once.
            first = {(f.file, f.path, f.rule, repr(f.old)) for found, _ in results for f in found}
            merged = _against_other_parents(
                kind, repository, comparison, main, others, new_links, new_side
            )
            results.append(
                ([f for f in merged if (f.file, f.path, f.rule, repr(f.old)) not in first], [])
            )
    finally:
        for side in (old_side, new_side, *others):
            side.close()
    results += [
        ([], [_problem(repository.display_path(path), SUBMODULE_CHANGED, Rule.GIT_SUBMODULE)])
        for path in submodules
        if _in_scope(path, pathspecs)
    ]
    return build_report([result for result in results if result != ([], [])])


class _SideFloors:
    """The floors of each side of a comparison: the configuration and floor files as the old
    revision holds them, and as the new side does (the working tree's from disk)."""

    def __init__(
        self, repository: Repository, floors: Floors, old_links: Links, new_links: Links
    ) -> None:
        self.repository = repository
        self.configured = floors.setting.configured
        self.old = Floors(floors.setting, floors.environ, RevisionFiles(repository.root, old_links))
        self.new = floors
        if isinstance(new_links.side, Tree):
            files = RevisionFiles(repository.root, new_links, labelled=False)
            self.new = Floors(floors.setting, floors.environ, files)
        self.old_side, self.new_side = git_side(old_links), git_side(new_links)

    def for_file(self, name: str) -> tuple[Floor, ...]:
        """The floors a file named `name` (a repository path) is held to: those of the new
        side, then those of the old side that are not the same floor file with the same
        bytes (a floor file changed on the way is held to in both versions)."""
        path = os.path.join(self.repository.root, name)
        found = {floor.identity: floor for floor in self.new.for_file(path)}
        for floor in self.old.for_file(path):
            found.setdefault(floor.identity, floor)
        return tuple(found.values())

    def floor_changes(self, pathspecs: Sequence[str], compared: set[str]) -> list[Finding]:
        """What the change does to the floors the repository's pyproject.toml files set: a
        floor no longer set loosens (floor.removed); a floor file whose bytes changed is
        compared like a profile (unless it is a profile by name, compared already), and a
        floor replaced by another is compared with it, field by field."""
        root = self.repository.root
        pyprojects = {
            path.rpartition("/")[0]
            for side in (self.old_side, self.new_side)
            for path in side.paths()
            if path.rpartition("/")[2] == CONFIG_FILE
        }
        findings: list[Finding] = []
        for folder in sorted(pyprojects):
            absolute = os.path.join(root, folder) if folder else root
            before = self.old.configured(absolute)
            if before is None:
                continue
            pyproject = posixpath.join(folder, CONFIG_FILE)
            if not _in_scope(pyproject, pathspecs):
                continue
            old_floor = self.old.configured_floor(before)
            after = self.new.configured(absolute)
            shown = self.repository.display_path(pyproject)
            if after is None:
                findings.append(_floor_removed(shown, old_floor))
                continue
            new_floor = self.new.configured_floor(after)
            if new_floor.identity != old_floor.identity:
                findings += self._compared(shown, old_floor, new_floor, compared)
        return findings

    def _compared(
        self, pyproject: str, old: Floor, new: Floor, compared: set[str]
    ) -> list[Finding]:
        from cleveragents.domain.models.core.rendering import change_text
        from cleveragents.domain.models.core.strictness import compare_values

        from .kinds import KINDS

        old_file, new_file = (floor.identity.split("\0")[0] for floor in (old, new))
        root = str(self.repository.root)
        if old_file == new_file and old_file.startswith(root + os.sep):
            name = os.path.relpath(new_file, root).replace(os.sep, "/")
            if name in compared:
                return []  # a profile by its name: compared as one already
            shown = self.repository.display_path(name)
            return compare_versions(
                KINDS["profile"],
                Version(shown, old.data, origin=self.old_side.name or ""),
                Version(shown, new.data),
                shown,
            )[0]
        # Another floor in its place: field by field, placed on the pyproject.toml.
        return [
            Finding(
                pyproject,
                0,
                0,
                change.field,
                Verdict.of(change.change),
                f"{change_text(change)} (the floor {visible(new.source)} in place of "
                f"{visible(old.source)})",
                Verdict.of(change.change).rule(change.field),
                change.old,
                change.new,
            )
            for change in compare_values(old.profile, new.profile)
        ]


def _floor_removed(pyproject: str, floor: Floor) -> Finding:
    return Finding(
        pyproject,
        0,
        0,
        "",
        Verdict.LOOSENS,
        f"the floor {visible(floor.source)} is no longer set: the profiles below this folder "
        "are no longer held to it",
        Rule.FLOOR_REMOVED,
    )


def _compare_pair(
    kind: DocumentKind,
    repository: Repository,
    old_side: Tree,
    pair: _Pair,
    baseline: AddedBaseline,
    floors: Sequence[Floor],
    defer_invalid: bool,
) -> tuple[list[Finding], list[Problem]]:
    name = repository.display_path(pair.name)
    if isinstance(pair.new_data, OSError):
        return [], [file_problem(pair.new_data, name)]
    old_name = name if pair.old is not None else ""
    return compare_versions(
        kind,
        Version(old_name, pair.old_data, origin=old_side.name or ""),
        Version(name, pair.new_data),
        name,
        baseline,
        floors=floors,
        defer_invalid=defer_invalid,
    )


def _against_other_parents(
    kind: DocumentKind,
    repository: Repository,
    comparison: GitComparison,
    main: _Comparison,
    parents: Sequence[Tree],
    new_links: Links,
    new_side: Side,
) -> list[Finding]:
    """A merge against its parents other than the first: each file the merge makes differ from
    every parent's version (a conflict resolved by hand, an "evil merge") is compared with each
    of them, and what it loosens is a loosening. A file the merge takes whole from one parent
    is compared with the first parent only, as any change is."""
    differ = {pair.name for pair in main.pairs if pair.old is not None and pair.new is not None}
    against = []
    for parent in parents:
        against_parent = comparison._replace(old_rev=parent.revision or "")
        changed, _ = _changed_paths(repository, against_parent, new_side)
        other = _Comparison(repository, Links(parent), new_links, changed, differ.__contains__, ())
        against.append((parent, {pair.name: pair for pair in other.pairs}))
    # A file some parent holds as merged is that parent's change, not the merge's.
    differ = {name for name in differ if all(name in pairs for _, pairs in against)}
    findings = []
    for parent, pairs in against:
        for name in sorted(differ):
            pair = pairs[name]
            if pair.old is None or pair.new is None or isinstance(pair.new_data, OSError):
                continue
            shown = repository.display_path(name)
            found, _ = compare_versions(
                kind,
                Version(shown, pair.old_data, origin=parent.revision or ""),
                Version(shown, pair.new_data),
                shown,
            )
            findings += [
                f.replace(detail=f"{f.detail} (against the merged parent {parent.revision})")
                for f in found
                if f.verdict is Verdict.LOOSENS
            ]
    return findings
