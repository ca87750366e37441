"""`diff --git` against the ground truth, on generated histories.

Each example commits a generated tree (profiles under odd names, names that are one name on
macOS or Windows, file links and folder links, link cycles, a .gitattributes file, and
sometimes a floor: `pyproject.toml` naming `policy/floor.yaml`), then a commit of generated
operations: add, edit, delete, rename, link, relink, an edit of the floor file, the floor's
setting dropped. Sometimes a branch with operations of its own is merged into it (a conflict
resolved by a generated file: an "evil merge"), and the merge is what is compared.

The ground truth checks each commit out with the real `git worktree add` and reads every name
of the kind a program could open there, through links (folder links included, to a depth of
four links in a row), as the kernel reads them. Each name's two versions are compared with
`diff OLD NEW` (the same function the command runs): a name is flagged when it loosens, is
deleted, is invalid or unreadable (a link out of the checkout, dangling, in a loop), or, where
a floor is set on either side, is added or changed below one of them; the floor file is
flagged when it loosens, `pyproject.toml` when the floor's setting goes. A merge is compared
with its first parent, and a name whose merged version differs from every parent's with the
other parent too, for what it loosens there.

`diff --git` must flag every name the truth flags, or a name that reads the same two files
(names through folder links that lead to the same place are one comparison, reported under
the shortest); where no attribute transforms a checkout and no two names fold together, it
must flag nothing else. For names that fold together, the truth is also taken on a
case-insensitive, normalising checkout, modelled by folding the names: every name of a
folded group reads the file git writes last (its last in index order); `diff --git` must flag
a name of each group that truth flags there.

Bounded (30 examples and the four explicit ones, each a few real repositories: about 10 s
on 2 cores) so it runs in CI; `DIFF_GIT_EXAMPLES=400` explores further (about 80 s).
"""

from __future__ import annotations

import os
import posixpath
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from cleveragents.domain.models.core.safety_profile import DEFAULT_SAFETY_PROFILE
from cleveragents.safety_toolkit.core.diff import Verdict, diff_files
from cleveragents.safety_toolkit.core.git_diff import GitComparison, diff_against_git
from cleveragents.safety_toolkit.core.kinds import KINDS
from cleveragents.safety_toolkit.floor import FloorError, Floors
from cleveragents.safety_toolkit.git.name_folding import folded, twin_groups
from cleveragents.safety_toolkit.git.objects import transformed_paths

PROFILE = KINDS["profile"]
# Odd names: git syntax, a leading dash, any case, a newline, a byte that is not UTF-8, a folder;
# and names that fold together on macOS and Windows: case, NFC and NFD.
PROFILES = [
    "a.safety_profile.yaml",
    "sub/v.safety_profile.yaml",
    "A.safety_profile.yaml",
    "0:b.safety_profile.yaml",
    "-c.SAFETY_PROFILE.yml",
    "d\nx.safety_profile.yaml",
    os.fsdecode(b"caf\xe9.safety_profile.yaml"),
    "\u00e9.safety_profile.yaml",
    "e\u0301.safety_profile.yaml",
    "sub/e safety-profile.yaml",
    "data/v.safety_profile.yaml",
]
# Link targets, not profiles by name; two of them one file on macOS and Windows.
DATA = ["data/t.yaml", "data/u.yaml", "data/T.yaml"]
NAMES = PROFILES + DATA
FOLDER_LINKS = ["conf", "sub/up", "loop"]  # names that are only ever links
STRICT = "require_sandbox: true\nmax_total_cost: 10.0\n"
CONTENTS = [
    STRICT,
    "require_sandbox: false\nmax_total_cost: 10.0\n",
    "require_sandbox: true\nmax_total_cost: 20.0\n",
    "allow_unsafe_tools: true\n",
    "{}\n",
    "max_retries_per_step: 500\n",  # invalid
    "require_sandbox: true\nmax_total_cost: 5.0\n",
    "require_sandbox: true\nmax_total_cost: 15.0\n",
]
LENIENT = "require_sandbox: false\nallow_unsafe_tools: true\n"  # below the defaults
FLOORS = ["require_sandbox: true\n", "max_total_cost: 15.0\n", "{}\n", LENIENT]
# `nowhere/../data/t.yaml`: git's diff reads it as `data/t.yaml`; the kernel cannot follow it.
LINK_TARGETS = [
    *NAMES,
    "missing.yaml",
    "../outside.yaml",
    "/etc/hostname",
    "nowhere/../data/t.yaml",
    "conf/v.safety_profile.yaml",  # through a folder link
]
FOLDER_TARGETS = ["data", "sub", ".", "..", "loop", "conf", "nowhere"]  # `loop` -> `loop`
ATTRIBUTES = [
    "",
    "*.yaml text eol=crlf\n*.yml text eol=crlf\n",
    "data/* filter=flip\n",  # a real smudge filter: the checkout says `false` where git has `true`
    "*.yml ident\n",
    "*.YAML working-tree-encoding=SHIFT_JIS\n",  # applies where clones set core.ignorecase
]
EXACT_ATTRIBUTES = ATTRIBUTES[:2]  # line endings only: nothing is refused, verdicts are equal
PYPROJECT = '[tool.safety-profile]\nfloor = "policy/floor.yaml"\n'

Entry = tuple[str, str]  # ("file", content) or ("link", target)
Op = tuple[str, str, str, Entry]
files = st.builds(lambda text: ("file", text), st.sampled_from(CONTENTS))
links = st.builds(lambda target: ("link", target), st.sampled_from(LINK_TARGETS))
folder_links = st.builds(lambda target: ("link", target), st.sampled_from(FOLDER_TARGETS))
trees = st.tuples(
    st.dictionaries(st.sampled_from(NAMES), st.one_of(files, files, links), max_size=6),
    st.dictionaries(st.sampled_from(FOLDER_LINKS), folder_links, max_size=2),
)
operations = st.lists(
    st.tuples(
        st.sampled_from(
            ["add", "edit", "delete", "rename", "link", "relink", "folder", "floor", "unfloor"]
        ),
        st.sampled_from(NAMES),
        st.sampled_from(NAMES),
        st.one_of(files, links),
    ),
    min_size=1,
    max_size=4,
)


def apply(
    tree: dict[str, Entry], ops: list[Op], folders: list[Entry], floor: str = FLOORS[-1]
) -> dict[str, Entry]:
    tree = dict(tree)
    for number, (op, name, other, entry) in enumerate(ops):
        if op == "delete":
            tree.pop(name, None)
        elif op == "rename" and name in tree and other not in tree:
            tree[other] = tree.pop(name)
        elif op in ("link", "relink"):
            target = other if entry[0] == "file" else entry[1]
            if op == "link" or tree.get(name, ("", ""))[0] == "link":
                tree[name] = ("link", relative_target(name, target))
        elif op == "folder":  # relink a folder link
            tree[FOLDER_LINKS[number % len(FOLDER_LINKS)]] = folders[number % len(folders)]
        elif op == "floor":
            if "pyproject.toml" in tree:
                tree["policy/floor.yaml"] = ("file", floor)
        elif op == "unfloor":
            tree.pop("pyproject.toml", None)
        else:  # add, edit
            tree[name] = entry
    return tree


def relative_target(name: str, target: str) -> str:
    if target.startswith(("/", "../", "nowhere/")):
        return target
    return posixpath.relpath(target, posixpath.dirname(name) or ".")


def write_tree(folder: Path, tree: dict[str, Entry], attributes: str) -> None:
    for child in folder.iterdir():
        if child.name != ".git":
            shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
    if attributes:
        (folder / ".gitattributes").write_text(attributes, encoding="utf-8")
    # Folder links last: a link named `sub/up` needs the folder `sub`.
    for name, (kind, value) in sorted(tree.items(), key=lambda item: item[0] in FOLDER_LINKS):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if kind == "link":
            os.symlink(value, path)
        else:
            path.write_text(value, encoding="utf-8")


def git(folder: Path, *args: str, check: bool = True) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=folder,
        check=check,
        capture_output=True,
    ).stdout.decode(errors="surrogateescape")


def profile_names(checkout: Path, depth: int = 4) -> Iterator[str]:
    """Every name of the kind a program can open in `checkout`, through folder links inside
    it to a depth of `depth` links in a row; `.git` left out."""
    root = os.path.realpath(checkout)
    stack = [("", 0)]
    while stack:
        prefix, links = stack.pop()
        try:
            entries = os.listdir(checkout / prefix) if prefix else os.listdir(checkout)
        except OSError:  # a folder link in a loop, or out of reach
            continue
        for entry in entries:
            if not prefix and entry == ".git":
                continue
            name = f"{prefix}/{entry}" if prefix else entry
            path = checkout / name
            if os.path.isdir(path):
                through = links + os.path.islink(path)
                real = os.path.realpath(path)
                if through <= depth and (real == root or real.startswith(root + os.sep)):
                    stack.append((name, through))
                continue
            if PROFILE.matches(name):
                yield name


def read(checkout: Path, name: str) -> bytes | None:
    """What opening `name` in `checkout` reads, as the kernel follows links (None: nothing, a
    link out of the checkout, or a loop)."""
    try:  # strict: every folder on the way must exist, as the kernel walks them
        real = os.path.realpath(checkout / name, strict=True)
    except OSError:
        return None
    inside = real.startswith(os.path.realpath(checkout) + os.sep)
    return Path(real).read_bytes() if inside and os.path.isfile(real) else None


def exists(checkout: Path, name: str) -> bool:
    return os.path.lexists(checkout / name)


def place(checkout: Path, name: str) -> str | None:
    """Where `name` leads in `checkout` (links followed as far as they go), for telling names
    that read the same file apart from those that do not."""
    if not exists(checkout, name):
        return None
    real = os.path.realpath(checkout / name)
    root = os.path.realpath(checkout)
    return os.path.relpath(real, root) if real.startswith(root + os.sep) else real


def fold_view(checkout: Path) -> None:
    """Make `checkout` read as a case-insensitive, normalising file system holds it: in each
    group of files whose names fold together, every name holds the bytes of the one git writes
    last (the last in index order). Groups with a link among them are left as they are."""
    listed = git(checkout, "ls-files", "-s", "-z").split("\0")
    modes = {entry.split("\t", 1)[1]: entry.split(" ", 1)[0] for entry in listed if "\t" in entry}
    for group in twin_groups(modes):
        members = [name for name in group if name in modes]
        if len(members) < 2 or any(modes[name] != "100644" for name in members):
            continue
        last = sorted(members, key=os.fsencode)[-1]
        data = (checkout / last).read_bytes()
        for member in members:
            (checkout / member).write_bytes(data)


def baseline_file(scratch: Path) -> Path:
    path = scratch / "baseline.yaml"
    path.write_text(
        "".join(
            f"{k}: {str(v).lower() if isinstance(v, bool) else 'null' if v is None else v}\n"
            for k, v in DEFAULT_SAFETY_PROFILE.model_dump(mode="json").items()
        ),
        encoding="utf-8",
    )
    return path


def floor_of(checkout: Path) -> bytes | None:
    configured = (checkout / "pyproject.toml").is_file()
    return (checkout / "policy/floor.yaml").read_bytes() if configured else None


def loosens(old: bytes, new: bytes, scratch: Path, *, only_loosenings: bool = False) -> bool:
    """Whether `new` fails against `old` (`diff OLD NEW`): a loosening, or an invalid file."""
    old_file, new_file = scratch / "old.yaml", scratch / "new.yaml"
    old_file.write_bytes(old)
    new_file.write_bytes(new)
    report = diff_files(PROFILE, str(old_file), str(new_file))
    if only_loosenings:
        return report.count(Verdict.LOOSENS) > 0
    return report.failed


def same(old: bytes, new: bytes) -> bool:
    # The same but for a CR that an eol attribute put before each LF.
    return old.replace(b"\r\n", b"\n") == new.replace(b"\r\n", b"\n")


def ground_truth(old: Path, new: Path, scratch: Path, parents: list[Path]) -> set[str]:
    """The names a checkout-by-checkout comparison flags (see the module's docstring)."""
    floors = [floor for floor in (floor_of(old), floor_of(new)) if floor is not None]
    baseline = baseline_file(scratch).read_bytes()
    flagged = set()
    for name in sorted({*profile_names(old), *profile_names(new)}):
        old_data, new_data = read(old, name), read(new, name)
        was, now = exists(old, name), exists(new, name)
        if was and not now:
            flagged.add(name)  # deleted: the next layer applies
            continue
        if (was and old_data is None) or new_data is None:
            flagged.add(name)  # unreadable on a side (a link out, dangling, in a loop)
            continue
        if was and old_data is not None and same(old_data, new_data):
            continue
        held = floors or ([] if was else [baseline])
        if (was and old_data is not None and loosens(old_data, new_data, scratch)) or any(
            loosens(floor, new_data, scratch) for floor in held
        ):
            flagged.add(name)
            continue
        # A merge: a version that differs from every parent's loosens against another parent.
        versions = [read(parent, name) for parent in parents]
        evil = (
            was
            and old_data is not None
            and all(v is None or not same(v, new_data) for v in versions)
        )
        if evil and any(
            v is not None and loosens(v, new_data, scratch, only_loosenings=True) for v in versions
        ):
            flagged.add(name)
    old_floor, new_floor = floor_of(old), floor_of(new)
    if old_floor is not None and new_floor is None:
        flagged.add("pyproject.toml")  # floor.removed
    elif old_floor is not None and new_floor is not None and loosens(old_floor, new_floor, scratch):
        flagged.add("policy/floor.yaml")
    return flagged


def covered(flagged: str, ours: set[str], old: Path, new: Path) -> bool:
    """Whether `diff --git` flags `flagged`, or a name that reads the same two files."""
    pair = (place(old, flagged), place(new, flagged))
    return flagged in ours or any((place(old, o), place(new, o)) == pair for o in ours)


def commit_state(repo: Path, tree: dict[str, Entry], attributes: str) -> str:
    write_tree(repo, tree, attributes)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", "state")
    return git(repo, "rev-parse", "HEAD").strip()


def merge(repo: Path, branch: str, resolution: Entry) -> None:
    """Merge `branch` into HEAD; each conflict resolved by `resolution` (an evil merge)."""
    git(repo, "merge", "-q", "--no-commit", "--no-ff", branch, check=False)
    unmerged = {
        line.split("\t", 1)[1]
        for line in git(repo, "ls-files", "-u", "-z").split("\0")
        if "\t" in line
    }
    for name in sorted(unmerged):
        path = repo / name
        if path.is_symlink() or path.exists():
            path.unlink() if not path.is_dir() or path.is_symlink() else shutil.rmtree(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        kind, value = resolution
        os.symlink(value, path) if kind == "link" else path.write_text(value, encoding="utf-8")
        git(repo, "add", "--", name)
    git(repo, "commit", "-q", "--allow-empty", "--no-edit", "-m", "merge")


@settings(
    max_examples=int(os.environ.get("DIFF_GIT_EXAMPLES", "30")),
    # CI runs the same examples each time (no flaky run for another change); elsewhere they
    # are new each run, and DIFF_GIT_EXAMPLES=250 explores further.
    derandomize=os.environ.get("CI") == "true",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    tree=trees,
    with_floor=st.booleans(),
    ops=operations,
    branch_ops=st.one_of(st.none(), operations),
    resolution=st.one_of(files, links),
    folders=st.lists(folder_links, min_size=1, max_size=3),
    floor_edit=st.sampled_from(FLOORS),
    attributes=st.sampled_from(ATTRIBUTES),
    new_attributes=st.sampled_from(ATTRIBUTES),
)
# Each class the ground truth must catch, in every run, besides what is generated: a profile
# added below the old revision's floor in the commit that loosens the floor file; a name added
# that folds to a strict profile's (on macOS it is the one read); a merge whose hand-made
# resolution is looser than the merged branch had it, though not than main; a folder link
# relinked.
@example(
    tree=({}, {}),
    with_floor=True,
    ops=[
        ("floor", "", "", ("file", "")),
        ("add", "a.safety_profile.yaml", "", ("file", CONTENTS[1])),
    ],
    branch_ops=None,
    resolution=("file", STRICT),
    folders=[("link", "data")],
    floor_edit=LENIENT,
    attributes="",
    new_attributes="",
)
@example(
    tree=({"A.safety_profile.yaml": ("file", STRICT)}, {}),
    with_floor=False,
    ops=[("add", "a.safety_profile.yaml", "", ("file", "{}\n"))],
    branch_ops=None,
    resolution=("file", STRICT),
    folders=[("link", "data")],
    floor_edit="{}\n",
    attributes="",
    new_attributes="",
)
@example(
    tree=({"a.safety_profile.yaml": ("file", STRICT)}, {}),
    with_floor=False,
    ops=[("edit", "a.safety_profile.yaml", "", ("file", CONTENTS[2]))],
    branch_ops=[("edit", "a.safety_profile.yaml", "", ("file", CONTENTS[6]))],
    resolution=("file", CONTENTS[7]),
    folders=[("link", "data")],
    floor_edit="{}\n",
    attributes="",
    new_attributes="",
)
@example(
    tree=(
        {
            "data/v.safety_profile.yaml": ("file", STRICT),
            "sub/v.safety_profile.yaml": ("file", "{}\n"),
        },
        {"conf": ("link", "data"), "loop": ("link", ".")},
    ),
    with_floor=False,
    ops=[("folder", "", "", ("file", ""))],
    branch_ops=None,
    resolution=("file", STRICT),
    folders=[("link", "sub")],
    floor_edit="{}\n",
    attributes="",
    new_attributes="",
)
# Twins already there, one read through a link: editing the other (which git writes last, so a
# folding checkout holds its bytes for both) changes what the profile reads there.
@example(
    tree=(
        {
            "data/T.yaml": ("file", STRICT),
            "data/t.yaml": ("file", STRICT),
            "a.safety_profile.yaml": ("link", "data/T.yaml"),
        },
        {},
    ),
    with_floor=False,
    ops=[("edit", "data/t.yaml", "", ("file", "{}\n"))],
    branch_ops=None,
    resolution=("file", STRICT),
    folders=[("link", "data")],
    floor_edit="{}\n",
    attributes="",
    new_attributes="",
)
def test_diff_git_agrees_with_checkouts(
    tree: tuple[dict[str, Entry], dict[str, Entry]],
    with_floor: bool,
    ops: list[Op],
    branch_ops: list[Op] | None,
    resolution: Entry,
    folders: list[Entry],
    floor_edit: str,
    attributes: str,
    new_attributes: str,
) -> None:
    start = {**tree[0], **tree[1]}
    if with_floor:
        start |= {"pyproject.toml": ("file", PYPROJECT), "policy/floor.yaml": ("file", FLOORS[0])}
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        (scratch / "outside.yaml").write_text("require_sandbox: true\n", encoding="utf-8")
        repo = scratch / "repo"
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        git(repo, "config", "filter.flip.smudge", "sed s/true/false/")
        git(repo, "config", "filter.flip.clean", "cat")
        first = commit_state(repo, start, attributes)
        after = apply(start, ops, folders, floor_edit)
        old_commit = commit_state(repo, after, new_attributes)
        parents: list[Path] = []
        if branch_ops is not None:
            git(repo, "checkout", "-q", "-b", "branch", first)
            commit_state(repo, apply(start, branch_ops, folders, floor_edit), new_attributes)
            git(repo, "checkout", "-q", "main")
            merge(repo, "branch", resolution)
        new_commit = git(repo, "rev-parse", "HEAD").strip()
        if new_commit == old_commit:  # nothing to merge: the branch changed nothing new
            old_commit = first
        checkouts = {"old": old_commit, "new": new_commit}
        if branch_ops is not None and new_commit != old_commit and old_commit != first:
            checkouts["branch"] = "branch"
        for name, revision in checkouts.items():
            git(repo, "worktree", "add", "-q", "--detach", str(scratch / name), revision)
        old, new = scratch / "old", scratch / "new"
        if "branch" in checkouts:
            parents = [scratch / "branch"]
        truth = ground_truth(old, new, scratch, parents)
        # What the examples cover (pytest --hypothesis-show-statistics).
        event(f"merge: {bool(parents)}; floor: {(old / 'pyproject.toml').exists()}")
        through = any(
            os.path.islink(checkout / folder)
            for name in truth
            for checkout in (old, new)
            for folder in (posixpath.dirname(name),)
            if folder
        )
        event(f"flagged: {min(len(truth), 3)}+; one through a folder link: {through}")
        comparison = GitComparison(old_commit, new_rev=new_commit)
        if (repo / "pyproject.toml").exists() and transformed_paths(
            repo, ["policy/floor.yaml"], None, cached=False
        ):
            # A floor a git attribute transforms on checkout is refused, unread: fail closed.
            with pytest.raises(FloorError, match="the git attribute"):
                diff_against_git(PROFILE, comparison, folder=repo, floors=Floors())
            return
        report = diff_against_git(PROFILE, comparison, folder=repo, floors=Floors())
        ours = {f.file for f in report.findings if f.verdict is Verdict.LOOSENS}
        ours |= {problem.file for problem in report.problems}
        missed = {name for name in truth if not covered(name, ours, old, new)}
        assert not missed, (missed, report)
        twins = any(
            twin_groups(filter(None, git(c, "ls-files", "-z").split("\0"))) for c in (old, new)
        )
        event(f"names that fold together: {twins}")
        if attributes in EXACT_ATTRIBUTES and new_attributes in EXACT_ATTRIBUTES and not twins:
            extra = {name for name in ours if not any(covered(t, {name}, old, new) for t in truth)}
            assert not extra, (extra, truth, report)
        if twins:  # on a case-insensitive checkout, modelled by folding the names
            for checkout in (old, new, *parents):
                fold_view(checkout)
            folded_truth = ground_truth(old, new, scratch, parents)
            folded_ours = {folded(name) for name in ours}
            missed = {
                name
                for name in folded_truth
                if folded(name) not in folded_ours and not covered(name, ours, old, new)
            }
            assert not missed, (missed, folded_truth, report)
