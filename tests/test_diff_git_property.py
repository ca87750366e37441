"""`diff --git` against the ground truth, on generated histories.

Each example commits a generated tree (profiles under odd names, links, a .gitattributes file),
then a commit of generated operations: add, edit, delete, rename, link, relink. The ground
truth checks both commits out with the real `git worktree add` and compares each pair of
checked-out files with `diff OLD NEW` (the same function the command runs), reading links
through the checkout as a program would. `diff --git HEAD~1 --to HEAD` must flag every file the
ground truth flags (a loosening or an error); where no attribute transforms a checkout it must
flag exactly those files.

Bounded (30 examples, each a real repository: about 15 s on 2 cores) so it runs in CI.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import subprocess
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cleveragents.domain.models.core.safety_profile import DEFAULT_SAFETY_PROFILE
from cleveragents.safety_toolkit.diff import Verdict, diff_files
from cleveragents.safety_toolkit.git_versions import GitComparison, diff_against_git
from cleveragents.safety_toolkit.kinds import KINDS

PROFILE = KINDS["profile"]
# Odd names: git syntax, a leading dash, any case, a newline, a byte that is not UTF-8, a folder.
PROFILES = [
    "a.safety_profile.yaml",
    "0:b.safety_profile.yaml",
    "-c.SAFETY_PROFILE.yml",
    "d\nx.safety_profile.yaml",
    os.fsdecode(b"caf\xe9.safety_profile.yaml"),
    "sub/e safety-profile.yaml",
]
DATA = ["data/t.yaml", "data/u.yaml"]  # link targets, not profiles by name
NAMES = PROFILES + DATA
CONTENTS = [
    "require_sandbox: true\nmax_total_cost: 10.0\n",
    "require_sandbox: false\nmax_total_cost: 10.0\n",
    "require_sandbox: true\nmax_total_cost: 20.0\n",
    "allow_unsafe_tools: true\n",
    "{}\n",
    "max_retries_per_step: 500\n",  # invalid
]
# `nowhere/../data/t.yaml`: git's diff reads it as `data/t.yaml`; the kernel cannot follow it.
LINK_TARGETS = [
    *NAMES,
    "missing.yaml",
    "../outside.yaml",
    "/etc/hostname",
    "nowhere/../data/t.yaml",
]
ATTRIBUTES = [
    "",
    "*.yaml text eol=crlf\n*.yml text eol=crlf\n",
    "data/* filter=flip\n",  # a real smudge filter: the checkout says `false` where git has `true`
    "*.yml ident\n",
    "*.YAML working-tree-encoding=SHIFT_JIS\n",  # applies where clones set core.ignorecase
]
EXACT_ATTRIBUTES = ATTRIBUTES[:2]  # line endings only: nothing is refused, verdicts are equal

Entry = tuple[str, str]  # ("file", content) or ("link", target)
files = st.builds(lambda text: ("file", text), st.sampled_from(CONTENTS))
links = st.builds(lambda target: ("link", target), st.sampled_from(LINK_TARGETS))
trees = st.dictionaries(st.sampled_from(NAMES), st.one_of(files, files, links), max_size=6)
operations = st.lists(
    st.tuples(
        st.sampled_from(["add", "edit", "delete", "rename", "link", "relink"]),
        st.sampled_from(NAMES),
        st.sampled_from(NAMES),
        st.one_of(files, links),
    ),
    min_size=1,
    max_size=4,
)


def apply(tree: dict[str, Entry], ops: list[tuple[str, str, str, Entry]]) -> dict[str, Entry]:
    tree = dict(tree)
    for op, name, other, entry in ops:
        if op == "delete":
            tree.pop(name, None)
        elif op == "rename" and name in tree and other not in tree:
            tree[other] = tree.pop(name)
        elif op == "link" or op == "relink":
            target = other if entry[0] == "file" else entry[1]
            if op == "link" or tree.get(name, ("", ""))[0] == "link":
                tree[name] = ("link", relative_target(name, target))
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
    for name, (kind, value) in tree.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if kind == "link":
            os.symlink(value, path)
        else:
            path.write_text(value, encoding="utf-8")


def git(folder: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    ).stdout.decode(errors="surrogateescape")


def checked_out(checkout: Path) -> dict[str, bytes | None]:
    """Each profile a checkout holds, read through links as a program would: None when the
    links leave the checkout or lead nowhere."""
    found: dict[str, bytes | None] = {}
    for folder, folders, names in os.walk(checkout):
        folders[:] = [f for f in folders if f != ".git"]
        for name in names + [f for f in folders if os.path.islink(os.path.join(folder, f))]:
            path = os.path.relpath(os.path.join(folder, name), checkout).replace(os.sep, "/")
            if not PROFILE.matches(path):
                continue
            try:  # strict: every folder on the way must exist, as the kernel walks them
                real = os.path.realpath(os.path.join(folder, name), strict=True)
            except OSError:
                found[path] = None
                continue
            inside = real.startswith(os.path.realpath(checkout) + os.sep)
            found[path] = Path(real).read_bytes() if inside and os.path.isfile(real) else None
    return found


def ground_truth(repo: Path, old: Path, new: Path, scratch: Path) -> set[str]:
    """The profiles a checkout-by-checkout comparison flags: loosened, deleted, invalid, or
    read through a link that leaves the repository or dangles."""
    before, after = checked_out(old), checked_out(new)
    baseline = scratch / "baseline.yaml"
    baseline.write_text(
        "".join(
            f"{k}: {str(v).lower() if isinstance(v, bool) else 'null' if v is None else v}\n"
            for k, v in DEFAULT_SAFETY_PROFILE.model_dump(mode="json").items()
        ),
        encoding="utf-8",
    )
    # Each path on its own: after a rename nothing is left at the old path, and the new one
    # is added (compared with the baseline).
    flagged = set()
    for name in sorted({*before, *after}):
        old_data, new_data = before.get(name, b""), after.get(name, b"")
        if name in before and name not in after:
            flagged.add(name)  # deleted: the next layer applies
            continue
        if old_data is None or new_data is None:
            flagged.add(name)
            continue
        # Unchanged: the same bytes, or the same but for a CR that an eol attribute put before
        # each LF (a comparison of an unchanged invalid file would flag it; `diff` does not).
        if name in before and old_data.replace(b"\r\n", b"\n") == new_data.replace(b"\r\n", b"\n"):
            continue
        old_file, new_file = scratch / "old.yaml", scratch / "new.yaml"
        new_file.write_bytes(new_data)
        if name in before:
            old_file.write_bytes(old_data)
        report = diff_files(PROFILE, str(old_file if name in before else baseline), str(new_file))
        if report.failed:
            flagged.add(name)
    return flagged


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
    ops=operations,
    attributes=st.sampled_from(ATTRIBUTES),
    new_attributes=st.sampled_from(ATTRIBUTES),
)
def test_diff_git_agrees_with_checkouts(
    tree: dict[str, Entry],
    ops: list[tuple[str, str, str, Entry]],
    attributes: str,
    new_attributes: str,
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        (scratch / "outside.yaml").write_text("require_sandbox: true\n", encoding="utf-8")
        repo = scratch / "repo"
        repo.mkdir()
        git(repo, "init", "-q")
        git(repo, "config", "filter.flip.smudge", "sed s/true/false/")
        git(repo, "config", "filter.flip.clean", "cat")
        for state, attrs in ((tree, attributes), (apply(tree, ops), new_attributes)):
            write_tree(repo, state, attrs)
            git(repo, "add", "-A")
            git(repo, "commit", "-q", "--allow-empty", "-m", "state")
        old, new = scratch / "old", scratch / "new"
        git(repo, "worktree", "add", "-q", "--detach", str(old), "HEAD~1")
        git(repo, "worktree", "add", "-q", "--detach", str(new), "HEAD")
        truth = ground_truth(repo, old, new, scratch)
        report = diff_against_git(PROFILE, GitComparison("HEAD~1", new_rev="HEAD"), folder=repo)
        ours = {f.file for f in report.findings if f.verdict is Verdict.LOOSENS}
        ours |= {problem.file for problem in report.problems}
        assert truth <= ours, (truth - ours, report)
        if attributes in EXACT_ATTRIBUTES and new_attributes in EXACT_ATTRIBUTES:
            assert ours == truth, (ours - truth, report)
