"""`diff --git` against a hostile change: each way a loosening was got past it, as a named
regression test on a real repository (the pre-commit hook's own runs are in
test_loosening_hook.py). What is compared is what a checkout of each side holds."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from git_repos import git, new_repository, write_files
from programs import run_program

STRICT = "require_sandbox: true\nallow_unsafe_tools: false\n"
LOOSE = "require_sandbox: false\nallow_unsafe_tools: false\n"
SANDBOX_LOOSENS = "loosens: require_sandbox: true → false"


def run(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return run_program("safety-profile", *args, cwd=cwd, env=env)


def commit_all(folder: Path, message: str = "change") -> None:
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", message)


# -- git's path syntax: names are read by object id --------------------------------------------
def test_a_name_git_would_read_as_a_stage_is_compared_as_itself(tmp_path: Path) -> None:
    """`:0:prod…` is git syntax for stage 0 of `prod…`: the staged `0:prod…` must be read, not
    the other file."""
    new_repository(
        tmp_path,
        {
            "0:prod.safety_profile.yaml": STRICT,
            "prod.safety_profile.yaml": STRICT,
            "1:ops.safety_profile.yaml": STRICT,
        },
    )
    write_files(tmp_path, {"0:prod.safety_profile.yaml": LOOSE, "1:ops.safety_profile.yaml": LOOSE})
    git(tmp_path, "add", "-A")
    result = run("diff", "--pre-commit", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert f"0:prod.safety_profile.yaml:1:18: {SANDBOX_LOOSENS} [loosens.require_sandbox]" in lines
    assert f"1:ops.safety_profile.yaml:1:18: {SANDBOX_LOOSENS} [loosens.require_sandbox]" in lines
    assert lines[-1] == "2 changes loosen (2 files compared)"


# -- links ---------------------------------------------------------------------------------------
def test_editing_a_links_target_loosens_the_profile_that_links_to_it(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data/prod.yaml").write_text(STRICT, encoding="utf-8")
    (tmp_path / "config").mkdir()
    os.symlink("../data/prod.yaml", tmp_path / "config/prod.safety_profile.yaml")
    os.symlink("data", tmp_path / "folder-link")
    os.symlink("../folder-link/prod.yaml", tmp_path / "config/via.safety_profile.yaml")
    new_repository(tmp_path, {})
    (tmp_path / "data/prod.yaml").write_text(LOOSE, encoding="utf-8")
    expected = [
        f"config/prod.safety_profile.yaml:1:18: {SANDBOX_LOOSENS} [loosens.require_sandbox]",
        f"config/via.safety_profile.yaml:1:18: {SANDBOX_LOOSENS} [loosens.require_sandbox]",
        "2 changes loosen (2 files compared)",
    ]
    for args in (("--git", "HEAD"), ("--git", "HEAD", "--staged"), ("--pre-commit",)):
        if args[-1] != "HEAD":
            git(tmp_path, "add", "-A")
        result = run("diff", *args, cwd=tmp_path)
        assert (result.returncode, result.stdout.splitlines()) == (1, expected), args
    commit_all(tmp_path)
    pushed = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=tmp_path)
    assert pushed.stdout.splitlines() == expected
    # `check` reads the same file through the same link.
    assert run("check", "config/prod.safety_profile.yaml", cwd=tmp_path).returncode == 0


def test_a_profile_replaced_by_a_link_is_read_through_it(tmp_path: Path) -> None:
    """A link's blob is its target's name: a link is read as the file it leads to; a link to
    a file named `{}` is refused, as a checkout without links writes `{}` (all defaults)."""
    new_repository(tmp_path, {"prod.safety_profile.yaml": STRICT, "{}": LOOSE, "d.yaml": LOOSE})
    (tmp_path / "prod.safety_profile.yaml").unlink()
    os.symlink("d.yaml", tmp_path / "prod.safety_profile.yaml")
    commit_all(tmp_path)
    result = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=tmp_path)
    assert result.stdout.splitlines() == [
        f"prod.safety_profile.yaml:1:18: {SANDBOX_LOOSENS} [loosens.require_sandbox]",
        "1 change loosens (1 file compared)",
    ]
    (tmp_path / "prod.safety_profile.yaml").unlink()
    os.symlink("{}", tmp_path / "prod.safety_profile.yaml")
    commit_all(tmp_path)
    result = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith(
        "prod.safety_profile.yaml: error: in HEAD: 'prod.safety_profile.yaml' is a link whose "
        "target's name is itself a YAML mapping"
    )


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("{}", "is a link whose target's name is itself a YAML mapping"),
        ("../outside.yaml", "leads outside the repository"),
        ("/etc/hostname", "leads outside the repository (to '/etc/hostname')"),
        ("missing.yaml", "leads to 'missing.yaml', which does not exist (a dangling link)"),
        # A name in a message is escaped as reports escape names.
        (os.fsdecode(b"caf\xe9\x1b.yaml"), "leads to 'caf\\xe9\\x1b.yaml', which does not exist"),
        ("loop.safety_profile.yaml", "has too many levels of links"),
        (".", "leads to the folder '.', not a file"),
        # A long name is cut short.
        ("/" + "x" * 300, f"leads outside the repository (to '/{'x' * 199}...' (301 characters))"),
    ],
)
def test_a_link_that_leaves_the_repository_or_dangles_is_an_error(
    tmp_path: Path, target: str, words: str
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (tmp_path / "outside.yaml").write_text(STRICT, encoding="utf-8")
    new_repository(project, {"README.md": "a project\n"})
    os.symlink(target, project / "loop.safety_profile.yaml")
    for args, side in ((("--git", "HEAD"), "working tree"), (("--pre-commit",), "index")):
        git(project, "add", "-A")
        result = run("diff", *args, cwd=project)
        assert result.returncode == 1, args
        assert (
            f"loop.safety_profile.yaml: error: in the {side}: 'loop.safety_profile.yaml' {words}"
        ) in result.stdout


def test_a_link_through_a_folder_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    """`nowhere/../strict.yaml` reads as `strict.yaml` to git's diff, but the kernel cannot
    follow it without a folder `nowhere`: a checkout has no profile there, so it is an error
    (the real hook included), never a comparison with `strict.yaml`."""
    new_repository(tmp_path, {"prod.safety_profile.yaml": STRICT, "strict.yaml": STRICT})
    (tmp_path / "prod.safety_profile.yaml").unlink()
    os.symlink("nowhere/../strict.yaml", tmp_path / "prod.safety_profile.yaml")
    git(tmp_path, "add", "-A")
    words = (
        "'prod.safety_profile.yaml' leads through 'nowhere', which does not exist; a profile "
        "that is a link must lead to a file committed in the repository"
    )
    for args, side in (
        (("--git", "HEAD"), "the working tree"),
        (("--pre-commit",), "the index"),
    ):
        result = run("diff", *args, cwd=tmp_path)
        assert result.returncode == 1, args
        assert f"prod.safety_profile.yaml: error: in {side}: {words}" in result.stdout, args
    commit_all(tmp_path, "link")
    result = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=tmp_path)
    assert result.returncode == 1
    assert f"prod.safety_profile.yaml: error: in HEAD: {words}" in result.stdout


def test_a_profile_replaced_by_a_submodule_is_called_one(tmp_path: Path) -> None:
    (tmp_path / "inner").mkdir()
    inner = new_repository(tmp_path / "inner", {"x": LOOSE})
    outer = tmp_path / "outer"
    outer.mkdir()
    new_repository(outer, {"prod.safety_profile.yaml": STRICT})
    git(outer, "rm", "-q", "prod.safety_profile.yaml")
    git(
        outer,
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        str(inner),
        "prod.safety_profile.yaml",
    )
    commit_all(outer, "a profile becomes a submodule")
    result = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=outer)
    assert result.returncode == 1
    assert (
        "prod.safety_profile.yaml: error: in HEAD: 'prod.safety_profile.yaml' is a submodule, "
        "not a file [git.link]"
    ) in result.stdout.splitlines()
    assert "must lead to" not in result.stdout


def test_a_link_too_long_to_check_out_is_an_error(tmp_path: Path) -> None:
    """git holds a link of any length; no checkout can make one of 4096 bytes or more, so
    the profile would be missing. The message does not quote the megabytes back."""
    new_repository(tmp_path, {"prod.safety_profile.yaml": STRICT})
    target = (
        subprocess.run(
            ["git", "hash-object", "-w", "--stdin"],
            cwd=tmp_path,
            input=("a/" * 2_500_000).encode(),
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    git(tmp_path, "update-index", "--cacheinfo", f"120000,{target},prod.safety_profile.yaml")
    result = run("diff", "--pre-commit", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0].startswith(
        "prod.safety_profile.yaml: error: in the index: 'prod.safety_profile.yaml' has a "
        "target longer than a link can hold (4095 bytes)"
    )
    assert len(result.stdout) < 1000


# -- attributes ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "attribute",
    ["working-tree-encoding=SHIFT_JIS", "filter=lfs", "ident", "filter"],
)
def test_an_attribute_that_changes_the_checkout_is_refused(tmp_path: Path, attribute: str) -> None:
    """Committed bytes and a checkout's differ: refused by name, in `diff` and `check`, even
    when the commit only adds the attribute."""
    new_repository(tmp_path, {"prod.safety_profile.yaml": STRICT})
    write_files(tmp_path, {".gitattributes": f"*.yaml {attribute}\n"})
    commit_all(tmp_path, "only an attribute")
    message = (
        f"the git attribute {attribute} makes a checkout of this file differ from the "
        "committed file"
    )
    result = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=tmp_path)
    assert result.returncode == 1
    assert f"prod.safety_profile.yaml: error: in HEAD: {message}" in result.stdout
    checked = run("check", "prod.safety_profile.yaml", cwd=tmp_path)
    assert checked.returncode == 1
    assert f"prod.safety_profile.yaml: error: {message}" in checked.stdout


@pytest.mark.parametrize("attribute", ["export-subst", "export-ignore"])
def test_an_attribute_that_changes_an_archive_is_refused(tmp_path: Path, attribute: str) -> None:
    """`git archive` (GitHub's source archives) expands `$Format:...$` with export-subst, and
    leaves the file out with export-ignore: refused like a transforming checkout."""
    comment = "max_total_cost: 10 # $Format:%nallow_unsafe_tools: true$\n"
    new_repository(tmp_path, {"prod.safety_profile.yaml": STRICT})
    write_files(tmp_path, {".gitattributes": f"*.yaml {attribute}\n"})
    write_files(tmp_path, {"prod.safety_profile.yaml": STRICT + comment})
    commit_all(tmp_path, "a comment and an attribute")
    message = (
        f"the git attribute {attribute} makes an archive (git archive) of this file differ from "
        "the committed file"
    )
    result = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=tmp_path)
    assert result.returncode == 1
    assert f"prod.safety_profile.yaml: error: in HEAD: {message}" in result.stdout
    checked = run("check", "prod.safety_profile.yaml", cwd=tmp_path)
    assert (checked.returncode, checked.stdout.splitlines()[0]) == (
        1,
        f"prod.safety_profile.yaml: error: {message}, so what is reviewed is not what is read; "
        "remove it from .gitattributes for safety profiles and actions [git.attribute]",
    )


def test_an_attribute_pattern_in_another_case_is_refused(tmp_path: Path) -> None:
    """`*.YAML` does not match `prod.safety_profile.yaml` on Linux, but does where clones set
    core.ignorecase (macOS, Windows): such a checkout re-encodes the profile."""
    new_repository(tmp_path, {"prod.safety_profile.yaml": STRICT})
    write_files(tmp_path, {".gitattributes": "*.YAML working-tree-encoding=SHIFT_JIS\n"})
    commit_all(tmp_path, "only an attribute, in upper case")
    message = "the git attribute working-tree-encoding=SHIFT_JIS makes a checkout of this file"
    for args in (
        ("diff", "--git", "HEAD~1", "--to", "HEAD"),
        ("check", "prod.safety_profile.yaml"),
    ):
        result = run(*args, cwd=tmp_path)
        assert result.returncode == 1, args
        assert message in result.stdout, args


def test_attributes_outside_a_sparse_checkout_apply(tmp_path: Path) -> None:
    """A sparse clone (CI's `sparse-checkout:`) holds no `out/.gitattributes`, and git's
    check-attr then skips it: a full checkout still re-encodes `out/b...`."""
    source, sparse = tmp_path / "source", tmp_path / "sparse"
    source.mkdir()
    new_repository(
        source, {"in/a.safety_profile.yaml": STRICT, "out/b.safety_profile.yaml": STRICT}
    )
    write_files(source, {"out/.gitattributes": "*.yaml working-tree-encoding=SHIFT_JIS\n"})
    commit_all(source, "an attribute outside the cone")
    git(tmp_path, "clone", "-q", "--sparse", str(source), str(sparse))
    git(sparse, "sparse-checkout", "set", "in")
    assert not (sparse / "out").exists()
    for args, side in ((("--to", "HEAD"), "HEAD"), ((), "the working tree")):
        result = run("diff", "--git", "HEAD~1", *args, cwd=sparse)
        assert result.returncode == 1, args
        assert (
            f"out/b.safety_profile.yaml: error: in {side}: the git attribute "
            "working-tree-encoding=SHIFT_JIS makes a checkout"
        ) in result.stdout, args


def test_attributes_from_info_attributes_apply_too(tmp_path: Path) -> None:
    new_repository(tmp_path, {"a.safety_profile.yaml": STRICT})
    (tmp_path / ".git/info").mkdir(exist_ok=True)
    (tmp_path / ".git/info/attributes").write_text("*.yaml filter=x\n", encoding="utf-8")
    result = run("diff", "--git", "HEAD", "--to", "HEAD", cwd=tmp_path)
    assert "the git attribute filter=x" in result.stdout
    assert result.returncode == 1


def test_line_ending_attributes_change_no_value_and_are_accepted(tmp_path: Path) -> None:
    """`eol=crlf` puts CR before each LF in a checkout: YAML reads the same values, and a
    checkout's file gives the same verdict."""
    new_repository(
        tmp_path, {".gitattributes": "*.yaml text eol=crlf\n", "a.safety_profile.yaml": STRICT}
    )
    write_files(tmp_path, {"a.safety_profile.yaml": LOOSE})
    commit_all(tmp_path)
    result = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=tmp_path)
    assert (
        result.stdout.splitlines()[0]
        == f"a.safety_profile.yaml:1:18: {SANDBOX_LOOSENS} [loosens.require_sandbox]"
    )
    checkout = tmp_path.parent / f"{tmp_path.name}-checkout"
    git(tmp_path, "worktree", "add", "-q", "--detach", str(checkout), "HEAD")
    assert (checkout / "a.safety_profile.yaml").read_bytes() == LOOSE.replace("\n", "\r\n").encode()
    assert run("check", "a.safety_profile.yaml", cwd=checkout).returncode == 0


@pytest.mark.parametrize("flag", ["--assume-unchanged", "--skip-worktree"])
def test_a_profile_git_is_told_not_to_look_at_is_compared(tmp_path: Path, flag: str) -> None:
    """`git diff` takes an assume-unchanged or skip-worktree file as unchanged; the working
    tree's file is what is read, so it is compared anyway."""
    new_repository(tmp_path, {"a.safety_profile.yaml": STRICT})
    git(tmp_path, "update-index", flag, "a.safety_profile.yaml")
    write_files(tmp_path, {"a.safety_profile.yaml": LOOSE})
    result = run("diff", "--git", "HEAD", cwd=tmp_path)
    assert result.returncode == 1
    assert (
        result.stdout.splitlines()[0]
        == f"a.safety_profile.yaml:1:18: {SANDBOX_LOOSENS} [loosens.require_sandbox]"
    )


# -- names the hooks match -----------------------------------------------------------------------
def test_any_case_of_yaml_under_a_named_folder(tmp_path: Path) -> None:
    new_repository(tmp_path, {"profiles/prod.YAML": STRICT, "profiles/b.Yml": STRICT})
    write_files(tmp_path, {"profiles/prod.YAML": LOOSE, "profiles/b.Yml": LOOSE})
    result = run("diff", "--git", "HEAD", "profiles/", cwd=tmp_path)
    assert result.stdout.splitlines()[-1] == "2 changes loosen (2 files compared)"


def test_a_changed_submodule_is_reported(tmp_path: Path) -> None:
    (tmp_path / "inner").mkdir()
    inner = new_repository(tmp_path / "inner", {"a.safety_profile.yaml": STRICT})
    outer = tmp_path / "outer"
    outer.mkdir()
    new_repository(outer, {"README.md": "x\n"})
    git(outer, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
    commit_all(outer, "a submodule")
    result = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=outer)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        "sub: error: a submodule changed; the profiles in it are not compared here: run "
        "safety-profile diff --git in the submodule [git.submodule]"
    )


def test_a_submodule_that_gitmodules_says_to_ignore_is_still_reported(tmp_path: Path) -> None:
    """`ignore = all` in `.gitmodules` hides a submodule from `git diff`; not from `diff --git`:
    moving it to a commit that loosens its profile is reported, staged or committed."""
    (tmp_path / "inner").mkdir()
    inner = new_repository(tmp_path / "inner", {"a.safety_profile.yaml": STRICT})
    outer = tmp_path / "outer"
    outer.mkdir()
    new_repository(outer, {"README.md": "x\n"})
    git(outer, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
    git(outer, "config", "-f", ".gitmodules", "submodule.sub.ignore", "all")
    git(outer, "config", "submodule.sub.ignore", "all")
    commit_all(outer, "a submodule git is told to ignore")
    write_files(outer / "sub", {"a.safety_profile.yaml": LOOSE})
    commit_all(outer / "sub", "loosen")
    git(outer, "add", "sub")
    reported = (
        "sub: error: a submodule changed; the profiles in it are not compared here: run "
        "safety-profile diff --git in the submodule [git.submodule]"
    )
    for args in (("--pre-commit",), ("--git", "HEAD"), ("--git", "HEAD", "--staged")):
        result = run("diff", *args, cwd=outer)
        assert (result.returncode, result.stdout.splitlines()[0]) == (1, reported), args
    commit_all(outer, "move the submodule")
    result = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=outer)
    assert (result.returncode, result.stdout.splitlines()[0]) == (1, reported)


# -- renames -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("envs/dev/safety_profile.yaml", "envs/prod/safety_profile.yaml"),
        ("prod.safety_profile.yaml", "prod.safety_profile.YAML"),
        ("prod.safety_profile.yaml", "notes.txt"),
    ],
)
def test_a_rename_deletes_the_old_profile_and_adds_the_new_one(
    tmp_path: Path, old: str, new: str
) -> None:
    """Whoever opens the old path after a rename finds nothing (the next layer applies), and
    the new path overrides the layer below it: a rename is a deletion and an addition, the
    addition compared with the baseline."""
    loose = "require_sandbox: false\nallow_unsafe_tools: true\n"
    new_repository(tmp_path, {old: loose, "envs/prod/app.yaml": "app: x\n"})
    git(tmp_path, "mv", old, new)
    for args in (("--pre-commit",), ("--git", "HEAD", "--staged")):
        result = run("diff", *args, cwd=tmp_path)
        assert result.returncode == 1, args
        assert (
            f"{old}: loosens: removed: the next layer applies [loosens.removed]"
            in result.stdout.splitlines()
        )
    commit_all(tmp_path, "rename")
    result = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=tmp_path)
    lines = result.stdout.splitlines()
    assert f"{old}: loosens: removed: the next layer applies [loosens.removed]" in lines
    if new.endswith(".txt"):
        assert lines[-1] == "1 change loosens (1 file compared)"
    else:
        assert f"{new}: added: it overrides the next layer; review it whole [diff.added]" in lines
        assert (
            f"{new}:1:18: {SANDBOX_LOOSENS} (added: looser than DEFAULT_SAFETY_PROFILE) "
            "[loosens.require_sandbox]"
        ) in lines


# -- added files ---------------------------------------------------------------------------------
ACTION = (
    "name: local/deploy\ndefinition_of_done: Tests pass\nstrategy_actor: local/default\n"
    "execution_actor: local/default\n"
)


def test_an_added_profile_or_action_profile_is_compared_with_the_baseline(tmp_path: Path) -> None:
    new_repository(tmp_path, {"actions/deploy.yaml": ACTION})
    write_files(
        tmp_path,
        {
            "actions/deploy.yaml": f"{ACTION}safety_profile:\n  allow_unsafe_tools: true\n",
            "new.safety_profile.yaml": "require_sandbox: false\nmax_retries_per_step: 5\n",
            "project.yaml": "max_retries_per_step: 10\nrequire_sandbox: false\n",
        },
    )
    git(tmp_path, "add", "-A")
    action = run("diff", "--kind", "action", "--pre-commit", cwd=tmp_path)
    assert action.returncode == 1
    assert (
        "actions/deploy.yaml:6:23: loosens: safety_profile.allow_unsafe_tools: false → true "
        "(added: looser than DEFAULT_SAFETY_PROFILE) [loosens.allow_unsafe_tools]"
    ) in action.stdout.splitlines()
    profile = run("diff", "--git", "HEAD", "--staged", cwd=tmp_path)
    assert profile.stdout.splitlines()[1:] == [
        f"new.safety_profile.yaml:1:18: {SANDBOX_LOOSENS} (added: looser than "
        "DEFAULT_SAFETY_PROFILE) [loosens.require_sandbox]",
        "new.safety_profile.yaml:2:23: loosens: max_retries_per_step: 3 → 5 (added: looser "
        "than DEFAULT_SAFETY_PROFILE) [loosens.max_retries_per_step]",
        "2 changes loosen, 1 profile added (1 file compared)",
    ]
    layered = run("diff", "--git", "HEAD", "--staged", "--baseline", "project.yaml", cwd=tmp_path)
    assert (layered.returncode, layered.stdout.splitlines()[1:]) == (
        0,
        ["ok: nothing loosens; 1 profile added (1 file compared)"],
    )
    # A key the added profile leaves out has its default, which may be looser than the layer's.
    write_files(tmp_path, {"project.yaml": "require_checkpoints: true\nmax_total_cost: 5.0\n"})
    unset = run("diff", "--git", "HEAD", "--staged", "--baseline", "project.yaml", cwd=tmp_path)
    assert unset.stdout.splitlines()[1] == (
        "new.safety_profile.yaml:1:1: loosens: max_total_cost: 5.0 → null (added: looser than "
        "project.yaml; no limit; the key is not set: its default applies) [loosens.max_total_cost]"
    )
    broken = run("diff", "--pre-commit", "--baseline", "actions/deploy.yaml", cwd=tmp_path)
    assert broken.returncode == 1
    assert "actions/deploy.yaml:1:1: error: name:" in broken.stdout


# -- odd names and folders -----------------------------------------------------------------------
def git_bytes(folder: Path, *args: bytes | str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    )


ODD_NAMES = [
    b"notes\xff.txt",
    b"caf\xe9.safety_profile.yaml",
    b"new\nline.safety_profile.yaml",
    b"tab\t\"quote'.safety_profile.yaml",
    b"-leading.safety_profile.yaml",
    b"esc\x1b[2J.safety_profile.yaml",
    b"sp ace%20#?.safety_profile.yaml",
]


@pytest.mark.parametrize("folder_name", [b"repo", b"re\npo\xfe"])
def test_odd_names_and_folders_never_stop_the_comparison(
    tmp_path: Path, folder_name: bytes
) -> None:
    folder = Path(os.fsdecode(os.fsencode(tmp_path) + b"/" + folder_name))
    folder.mkdir()
    for name in ODD_NAMES:
        Path(os.fsdecode(os.fsencode(folder) + b"/" + name)).write_text(STRICT, encoding="utf-8")
    git_bytes(folder, "init", "-q")
    git_bytes(folder, "add", "-A")
    git_bytes(folder, "commit", "-q", "-m", "first")
    for name in ODD_NAMES:
        Path(os.fsdecode(os.fsencode(folder) + b"/" + name)).write_text(LOOSE, encoding="utf-8")
    git_bytes(folder, "add", "-A")
    text = run("diff", "--pre-commit", cwd=folder)
    assert text.returncode == 1
    assert text.stdout.splitlines()[-1] == "6 changes loosen (6 files compared)"
    assert "\x1b" not in text.stdout + text.stderr
    for shown in ("caf\\xe9", "new\\nline", "tab\\t\"quote'", "-leading", "esc\\x1b[2J"):
        assert (
            f"{shown}.safety_profile.yaml:1:18: {SANDBOX_LOOSENS} [loosens.require_sandbox]"
            in text.stdout
        )
    report = json.loads(run("diff", "--pre-commit", "--format", "json", cwd=folder).stdout)
    assert {os.fsencode(change["file"]) for change in report["changes"]} == {
        name for name in ODD_NAMES if b"safety_profile" in name
    }
    sarif = json.loads(run("diff", "--pre-commit", "--format", "sarif", cwd=folder).stdout)
    uris = {
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for result in sarif["runs"][0]["results"]
    }
    assert "caf%E9.safety_profile.yaml" in uris
    assert "sp%20ace%2520%23%3F.safety_profile.yaml" in uris
    assert "new%0Aline.safety_profile.yaml" in uris


def test_annotations_name_the_file_not_a_revision(tmp_path: Path) -> None:
    new_repository(tmp_path, {"a.safety_profile.yaml": STRICT})
    write_files(tmp_path, {"a.safety_profile.yaml": LOOSE})
    commit_all(tmp_path)
    github = run("diff", "--git", "HEAD~1", "--to", "HEAD", "--format", "github", cwd=tmp_path)
    assert github.stdout.startswith("::error file=a.safety_profile.yaml,line=1,col=18,")
    sarif = json.loads(
        run("diff", "--git", "HEAD~1", "--to", "HEAD", "--format", "sarif", cwd=tmp_path).stdout
    )
    (result,) = sarif["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
        "a.safety_profile.yaml"
    )


def test_git_words_and_names_in_errors_are_escaped(tmp_path: Path) -> None:
    new_repository(tmp_path, {"a.safety_profile.yaml": STRICT})
    for args in (("--git", "HEAD", "/tmp/\x1b[2J"), ("--git", "no\x1b[2Jsuch")):
        result = run("diff", *args, cwd=tmp_path)
        assert result.returncode == 2
        assert "\x1b" not in result.stderr
        assert "\\x1b[2J" in result.stderr


@pytest.mark.parametrize("output_format", ["json", "sarif"])
def test_machine_readable_output_is_one_document_with_the_hint_on_stderr(
    tmp_path: Path, output_format: str
) -> None:
    new_repository(tmp_path, {"a.safety_profile.yaml": STRICT})
    write_files(tmp_path, {"a.safety_profile.yaml": LOOSE})
    git(tmp_path, "add", "-A")
    result = run("diff", "--pre-commit", "--format", output_format, cwd=tmp_path)
    assert result.returncode == 1
    assert json.loads(result.stdout)
    assert "SKIP=safety-profile-loosening" in result.stderr


def test_a_file_named_an_action_only_through_a_folder_link(tmp_path: Path) -> None:
    """`actions` a link to `stuff/`: whoever opens `actions/deploy.yaml` reads
    `stuff/deploy.yaml`, so editing it, or adding the link, is an action's change."""
    strict = f"{ACTION}safety_profile:\n  allow_unsafe_tools: false\n"
    new_repository(tmp_path, {"stuff/deploy.yaml": strict, "other/deploy.yaml": strict})
    os.symlink("stuff", tmp_path / "actions")
    commit_all(tmp_path, "the link")
    write_files(tmp_path, {"stuff/deploy.yaml": strict.replace("false", "true")})
    loosened = "actions/deploy.yaml:6:23: loosens: safety_profile.allow_unsafe_tools: false → true"
    for args in (("--git", "HEAD"), ("--git", "HEAD~1")):
        result = run("diff", "--kind", "action", *args, cwd=tmp_path)
        assert result.returncode == 1, args
        assert loosened in result.stdout, result.stdout  # HEAD~1: added, with the baseline
    # Relinking the folder to another is compared too.
    git(tmp_path, "checkout", "-q", "--", ".")
    write_files(tmp_path, {"other/deploy.yaml": strict.replace("false", "true")})
    commit_all(tmp_path, "edit other")
    (tmp_path / "actions").unlink()
    os.symlink("other", tmp_path / "actions")
    result = run("diff", "--kind", "action", "--git", "HEAD", cwd=tmp_path)
    assert result.stdout.startswith(loosened), result.stdout


def test_a_profile_named_through_two_folder_links_in_a_row(tmp_path: Path) -> None:
    """`conf` -> `sel/a`, `sel/a/sub` -> `envs/prod`: `conf/sub/safety_profile.yaml` is read
    through both; relinking `conf` to `sel/b` (whose `sub` leads to a loose profile) loosens
    it. A loop of folder links (`loop` -> `.`) ends: `loop/conf/sub/...` reads the same files
    as `conf/sub/...` on both sides, so it is the same comparison, reported once under the
    shortest name."""
    new_repository(
        tmp_path,
        {"envs/prod/safety_profile.yaml": STRICT, "envs/dev/safety_profile.yaml": LOOSE},
    )
    for link, target in (
        ("sel/a/sub", "../../envs/prod"),
        ("sel/b/sub", "../../envs/dev"),
        ("conf", "sel/a"),
        ("loop", "."),
    ):
        (tmp_path / link).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, tmp_path / link)
    commit_all(tmp_path, "links")
    (tmp_path / "conf").unlink()
    os.symlink("sel/b", tmp_path / "conf")
    git(tmp_path, "add", "-A")
    for args in (("--pre-commit",), ("--git", "HEAD")):
        result = run("diff", *args, cwd=tmp_path)
        assert result.returncode == 1, args
        assert result.stdout.splitlines() == [
            f"conf/sub/safety_profile.yaml:1:18: {SANDBOX_LOOSENS} [loosens.require_sandbox]",
            "1 change loosens (1 file compared)",
        ], args


def test_check_asks_each_files_own_repository_about_attributes(tmp_path: Path) -> None:
    first, second, loose = tmp_path / "first", tmp_path / "second", tmp_path / "loose"
    for folder in (first, second, loose):
        folder.mkdir()
    new_repository(
        first, {".gitattributes": "*.yaml filter=lfs\n", "a.safety_profile.yaml": STRICT}
    )
    new_repository(second, {"sub/b.safety_profile.yaml": STRICT})
    write_files(loose, {"c.safety_profile.yaml": STRICT})
    names = ["first/a.safety_profile.yaml", "second/sub/b.safety_profile.yaml"]
    result = run("check", *names, "loose/c.safety_profile.yaml", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        "first/a.safety_profile.yaml: error: the git attribute filter=lfs makes a checkout of "
        "this file differ from the committed file, so what is reviewed is not what is read; "
        "remove it from .gitattributes for safety profiles and actions [git.attribute]"
    )
    assert "second/" not in result.stdout
    assert "loose/" not in result.stdout


def test_check_asks_the_repository_git_dir_names(tmp_path: Path) -> None:
    """A work tree whose repository is elsewhere (GIT_DIR and GIT_WORK_TREE, as a bare
    "dotfiles" repository is used) has no `.git`: `check` asks git, as `diff` does."""
    work, bare = tmp_path / "work", tmp_path / "repo.git"
    work.mkdir()
    git(tmp_path, "init", "-q", "--bare", str(bare))
    env = {"GIT_DIR": str(bare), "GIT_WORK_TREE": str(work)}
    write_files(work, {".gitattributes": "*.yaml filter=lfs\n", "a.safety_profile.yaml": STRICT})
    subprocess.run(["git", "add", "-A"], cwd=work, env={**os.environ, **env}, check=True)
    message = "the git attribute filter=lfs makes a checkout of this file differ"
    checked = run("check", "a.safety_profile.yaml", cwd=work, **env)
    assert checked.returncode == 1
    assert f"a.safety_profile.yaml: error: {message}" in checked.stdout
    compared = run("diff", "--pre-commit", cwd=work, **env)
    assert (compared.returncode, message in compared.stdout) == (1, True)


# -- links without limits an attacker can use ----------------------------------------------------
def test_an_action_named_through_nine_folder_links_in_a_row_is_compared(tmp_path: Path) -> None:
    """`actions` -> `h1`, `h1/n` -> `../h2`, ..., `h8/n` -> `../stuff`: the file
    `stuff/deploy.yaml` is an action only by the name `actions/n/n/n/n/n/n/n/n/deploy.yaml`,
    nine folder links deep. Links used to be followed eight deep: one more and the loosening
    passed unseen (exit 0)."""
    strict = f"{ACTION}safety_profile:\n  allow_unsafe_tools: false\n"
    new_repository(tmp_path, {"stuff/deploy.yaml": strict})
    os.symlink("h1", tmp_path / "actions")
    for level in range(1, 9):
        (tmp_path / f"h{level}").mkdir()
        target = "../stuff" if level == 8 else f"../h{level + 1}"
        os.symlink(target, tmp_path / f"h{level}" / "n")
    commit_all(tmp_path, "nine links in a row")
    write_files(tmp_path, {"stuff/deploy.yaml": strict.replace("false", "true")})
    result = run("diff", "--kind", "action", "--git", "HEAD", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "actions/n/n/n/n/n/n/n/n/deploy.yaml:6:23: loosens: safety_profile.allow_unsafe_tools: "
        "false → true [loosens.allow_unsafe_tools]",
        "1 change loosens (1 file compared)",
    ]


def test_hundreds_of_links_to_the_parent_folder_cost_no_more_than_the_folders(
    tmp_path: Path,
) -> None:
    """Three hundred one-byte links to `..` in each of a few nested folders give a number of
    names that grows combinatorially with their depth: listing them ran out of memory, or
    spent a name budget before the real action was reached and let its loosening pass. Names
    that reach the same pair of folders are one comparison: the loosening is reported once,
    under its shortest name."""
    strict = f"{ACTION}safety_profile:\n  allow_unsafe_tools: false\n"
    new_repository(tmp_path, {"actions/deploy.yaml": strict, "a/b/c/README.md": "x\n"})
    for folder in ("a", "a/b", "a/b/c"):
        for number in range(300):
            os.symlink("..", tmp_path / folder / f"l{number}")
    commit_all(tmp_path, "links to the parent")
    write_files(tmp_path, {"actions/deploy.yaml": strict.replace("false", "true")})
    git(tmp_path, "add", "-A")
    result = run("diff", "--kind", "action", "--pre-commit", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "actions/deploy.yaml:6:23: loosens: safety_profile.allow_unsafe_tools: false → true "
        "[loosens.allow_unsafe_tools]",
        "1 change loosens (1 file compared)",
    ]
    assert "internal error" not in result.stderr


@pytest.mark.parametrize(
    ("links", "words"),
    [
        # Two links that lead to each other, and two folder links that do.
        ({"a.yaml": "b.yaml", "b.yaml": "a.yaml"}, "has too many levels of links (a loop?)"),
        ({"x": "y/", "y": "x/", "prod.safety_profile.yaml": "x/p.yaml"}, "has too many levels"),
        # A chain of 41 links: more than the kernel follows on one path (ELOOP).
        (
            {f"c{n}": f"c{n + 1}" for n in range(41)} | {"c41": "strict.yaml"},
            "has too many levels of links (a loop?)",
        ),
    ],
    ids=["file-cycle", "folder-cycle", "chain-of-41"],
)
def test_a_link_cycle_or_a_chain_longer_than_the_kernel_follows_is_an_error(
    tmp_path: Path, links: dict[str, str], words: str
) -> None:
    new_repository(tmp_path, {"strict.yaml": STRICT, "prod.safety_profile.yaml": STRICT})
    (tmp_path / "prod.safety_profile.yaml").unlink()
    first = next(iter(links))
    for link, target in links.items():
        os.symlink(target, tmp_path / link)
    if "prod.safety_profile.yaml" not in links:
        os.symlink(first, tmp_path / "prod.safety_profile.yaml")
    git(tmp_path, "add", "-A")
    for args, side in ((("--pre-commit",), "the index"), (("--git", "HEAD"), "the working tree")):
        result = run("diff", *args, cwd=tmp_path)
        assert result.returncode == 1, args
        assert (
            f"prod.safety_profile.yaml: error: in {side}: 'prod.safety_profile.yaml' {words}"
        ) in result.stdout, (args, result.stdout)
    # Forty links on the path (the profile's own, then c3 to c41), the kernel's limit, are
    # followed; 41 (from c2) are not, as `cat` finds too.
    if first == "c0":
        (tmp_path / "prod.safety_profile.yaml").unlink()
        os.symlink("c3", tmp_path / "prod.safety_profile.yaml")
        git(tmp_path, "add", "-A")
        result = run("diff", "--pre-commit", cwd=tmp_path)
        assert (result.returncode, result.stdout) == (0, "ok: nothing loosens (0 files compared)\n")


def git_processes(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """`safety-profile ARGS` with a `git` first on PATH that logs each command line, then runs
    the real git: the result, and the logged command lines."""
    shims, log = tmp_path.parent / f"{tmp_path.name}-shims", tmp_path.parent / "git.log"
    shims.mkdir()
    real = subprocess.run(["which", "git"], capture_output=True, text=True, check=True).stdout
    (shims / "git").write_text(
        f'#!/bin/sh\necho "$*" >> "{log}"\nexec {real.strip()} "$@"\n', encoding="utf-8"
    )
    (shims / "git").chmod(0o755)
    result = run(*args, cwd=tmp_path, PATH=f"{shims}{os.pathsep}{os.environ['PATH']}")
    return result, log.read_text(encoding="utf-8").splitlines()


def test_thousands_of_file_links_are_read_by_one_git_process_per_revision(
    tmp_path: Path,
) -> None:
    """Each link was read by two git processes of its own: a few thousand links made one
    `diff` take tens of seconds. Every blob of a revision (links and files) is read by one
    `git cat-file --batch`, however many links there are (benchmarks/diff_speed.py --links
    measures the time)."""
    files = {f"data/{n}.yaml": STRICT for n in range(1000)}
    new_repository(tmp_path, files)
    (tmp_path / "config").mkdir()
    for n in range(1000):
        os.symlink(f"../data/{n}.yaml", tmp_path / "config" / f"{n}.safety_profile.yaml")
    commit_all(tmp_path, "links")
    write_files(tmp_path, {"data/7.yaml": LOOSE})
    commit_all(tmp_path, "loosen one target")
    result, commands = git_processes(tmp_path, "diff", "--git", "HEAD~1", "--to", "HEAD")
    assert result.stdout.splitlines() == [
        f"config/7.safety_profile.yaml:1:18: {SANDBOX_LOOSENS} [loosens.require_sandbox]",
        "1 change loosens (1 file compared)",
    ]
    cat_files = [command for command in commands if "cat-file" in command]
    assert len(cat_files) == 2, cat_files  # one per revision
    assert len(commands) < 20, commands


# -- names that are one file on macOS and Windows -----------------------------------------------
@pytest.mark.parametrize(
    ("existing", "added", "how"),
    [
        ("Prod.safety_profile.yaml", "prod.safety_profile.yaml", ""),
        # The same text, composed (NFC) and decomposed (NFD).
        (
            "caf\u00e9.safety_profile.yaml",
            "cafe\u0301.safety_profile.yaml",
            " (the same text, its accents composed in one and decomposed in the other: NFC, NFD)",
        ),
        # A code point HFS+ ignores.
        (
            "prod.safety_profile.yaml",
            "pro\u200cd.safety_profile.yaml",
            " (they differ in invisible code points that HFS+ ignores)",
        ),
        # Unicode case folding: LONG S is `s` (not a profile by the hooks' ASCII pattern).
        ("prod.safety_profile.yaml", "prod.\u017fafety_profile.yaml", ""),
        # Windows' upcase table: DOTLESS I is `I`, as `i` is (full case folding keeps it apart).
        ("prod.safety_profile.yaml", "prod.safety_prof\u0131le.yaml", ""),
        # A folder in another case, and Windows' trailing dot.
        ("config/prod.safety_profile.yaml", "Config/prod.safety_profile.yaml", ""),
        ("prod.safety_profile.yaml", "prod.safety_profile.yaml.", ""),
    ],
    ids=["case", "nfc-nfd", "hfs-ignored", "long-s", "dotless-i", "folder-case", "trailing-dot"],
)
def test_a_name_another_profile_has_on_macos_or_windows_is_an_error(
    tmp_path: Path, existing: str, added: str, how: str
) -> None:
    """Adding `prod.safety_profile.yaml` (`{}`) beside a strict `Prod.safety_profile.yaml`
    passed: a checkout on a case-insensitive file system holds one file for both, the one git
    writes last, and that is what the agent reads. Each folding such a file system does is
    refused when a change adds the second name, in `diff --git` and in `check`."""
    new_repository(tmp_path, {existing: STRICT})
    write_files(tmp_path, {added: "{}\n"})
    git(tmp_path, "add", "-A")
    quoted = {name: f"'{name}'".replace("\u200c", "\\u200c") for name in (existing, added)}
    words = (
        "are one name on a case-insensitive or normalising file system (macOS, Windows)"
        f"{how}: a checkout there holds only one of them, whichever git writes last; rename one"
    )
    for args, side in ((("--pre-commit",), "the index"), (("--git", "HEAD"), "the working tree")):
        result = run("diff", *args, cwd=tmp_path)
        assert result.returncode == 1, (args, result.stdout)
        shown = result.stdout.replace("\u200c", "\\u200c")
        assert (
            f"{quoted[added][1:-1]}: error: in {side}: {quoted[added]} and {quoted[existing]} "
            f"{words}"
        ) in shown, (args, shown)
    commit_all(tmp_path, "the twin")
    result = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=tmp_path)
    assert result.returncode == 1
    assert f"error: in HEAD: {quoted[existing]} and {quoted[added]} {words}" in (
        result.stdout.replace("\u200c", "\\u200c")
    )
    # `check` of either name says the same (without a side: the file is what it checks).
    checked = run("check", existing, cwd=tmp_path)
    assert checked.returncode == 1
    assert f"{existing}: error: {quoted[existing]} and {quoted[added]} {words}" in (
        checked.stdout.replace("\u200c", "\\u200c")
    )
    # A later change that leaves both in place adds neither: `diff` compares as before.
    write_files(tmp_path, {"README.md": "x\n"})
    git(tmp_path, "add", "-A")
    assert run("diff", "--pre-commit", cwd=tmp_path).returncode == 0


TWINS_WORDS = (
    "are one name on a case-insensitive or normalising file system (macOS, Windows): a "
    "checkout there holds only one of them, whichever git writes last; rename one"
)


@pytest.mark.parametrize("change", ["loosen-the-other-twin", "link-to-a-twin"])
def test_twins_already_there_that_a_change_makes_a_profile_read_are_an_error(
    tmp_path: Path, change: str
) -> None:
    """Two files that fold together, added by an earlier change while no profile read either
    (that passed, and may). A profile that links to `data/Strict.yaml` then reads, on macOS
    and Windows, the one file a checkout holds for both: `data/strict.yaml`'s bytes, which git
    writes last. Loosening `data/strict.yaml`, which no name reads on Linux, or adding the
    link while it is loose, passed: the change added neither twin. A change that edits a twin
    a profile reads through, or makes a profile read one, is an error now, in `diff` and in
    `check` (which looks at the file a link leads to as well as at its name)."""
    twins = {"data/Strict.yaml": STRICT, "data/strict.yaml": STRICT}
    if change == "link-to-a-twin":
        twins["data/strict.yaml"] = "{}\n"
    new_repository(tmp_path, {"README.md": "x\n", **twins})
    (tmp_path / "config").mkdir()
    if change == "loosen-the-other-twin":
        os.symlink("../data/Strict.yaml", tmp_path / "config/linked.safety_profile.yaml")
        commit_all(tmp_path, "a profile reads a twin")
        write_files(tmp_path, {"data/strict.yaml": "{}\n"})
    else:
        os.symlink("../data/Strict.yaml", tmp_path / "config/linked.safety_profile.yaml")
    git(tmp_path, "add", "-A")
    expected = [
        "config/linked.safety_profile.yaml: error: in {side}: 'config/linked.safety_profile.yaml'"
        f" is read through 'data/Strict.yaml', and 'data/Strict.yaml' and 'data/strict.yaml' "
        f"{TWINS_WORDS} [file.name-collision]",
        f"data/Strict.yaml: error: in {{side}}: 'data/Strict.yaml' and 'data/strict.yaml' "
        f"{TWINS_WORDS} [file.name-collision]",
        f"data/strict.yaml: error: in {{side}}: 'data/strict.yaml' and 'data/Strict.yaml' "
        f"{TWINS_WORDS} [file.name-collision]",
    ]
    staged = run("diff", "--pre-commit", cwd=tmp_path)
    assert staged.returncode == 1, staged.stdout
    for line in expected:
        assert line.format(side="the index") in staged.stdout.splitlines(), staged.stdout
    commit_all(tmp_path, change)
    committed = run("diff", "--git", "HEAD~1", "--to", "HEAD", cwd=tmp_path)
    assert committed.returncode == 1, committed.stdout
    for line in expected:
        assert line.format(side="HEAD") in committed.stdout.splitlines(), committed.stdout
    checked = run("check", "config/linked.safety_profile.yaml", cwd=tmp_path)
    assert checked.returncode == 1, checked.stdout
    assert checked.stdout.splitlines()[0] == (
        "config/linked.safety_profile.yaml: error: 'config/linked.safety_profile.yaml' is read "
        f"through 'data/Strict.yaml', and 'data/Strict.yaml' and 'data/strict.yaml' {TWINS_WORDS} "
        "[file.name-collision]"
    )
    # A later change that touches neither twin, nor what reads them, compares as before.
    write_files(tmp_path, {"README.md": "y\n"})
    git(tmp_path, "add", "-A")
    assert run("diff", "--pre-commit", cwd=tmp_path).returncode == 0


# -- merges ---------------------------------------------------------------------------------------
def test_a_merge_is_compared_with_its_first_parent_and_an_evil_one_with_each(
    tmp_path: Path,
) -> None:
    """`diff --git M^ --to M` of a merge compares with the first parent, as any commit; a file
    the merge makes differ from every parent's version (a conflict resolved by hand, looser
    than the branch had it) is compared with the other parent too."""
    base = "require_sandbox: true\nmax_total_cost: 100.0\nrequire_human_approval: true\n"
    new_repository(tmp_path, {"prod.safety_profile.yaml": base})
    git(tmp_path, "checkout", "-q", "-b", "feature")
    write_files(tmp_path, {"prod.safety_profile.yaml": base.replace("100.0", "50.0")})
    commit_all(tmp_path, "feature: a lower cost")
    git(tmp_path, "checkout", "-q", "-")
    write_files(tmp_path, {"prod.safety_profile.yaml": base.replace("100.0", "80.0")})
    commit_all(tmp_path, "main: a lower cost")
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@x.invalid", "merge", "-q", "feature"],
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    # The conflict resolved by hand, dropping require_human_approval as well.
    resolved = "require_sandbox: true\nmax_total_cost: 90.0\n"
    write_files(tmp_path, {"prod.safety_profile.yaml": resolved})
    git(tmp_path, "add", "-A")
    loosened = [
        "prod.safety_profile.yaml:2:17: loosens: max_total_cost: 80.0 → 90.0",
        "prod.safety_profile.yaml:2:17: loosens: max_total_cost: 50.0 → 90.0 (against the "
        "merged parent",
    ]
    # While the merge is committed (MERGE_HEAD names the other parent), and once it is.
    staged = run("diff", "--pre-commit", cwd=tmp_path)
    assert staged.returncode == 1
    for line in loosened:
        assert any(shown.startswith(line) for shown in staged.stdout.splitlines()), line
    assert "loosens: require_human_approval: true → false" in staged.stdout
    git(tmp_path, "commit", "-q", "--no-edit")
    committed = run("diff", "--git", "HEAD^", "--to", "HEAD", cwd=tmp_path)
    assert committed.returncode == 1
    lines = committed.stdout.splitlines()
    for line in loosened:
        assert any(shown.startswith(line) for shown in lines), (line, lines)
    # The same field loosened against both parents is one line per parent, not a repeat.
    assert sum("require_human_approval" in line for line in lines) == 1, lines


def test_a_merge_that_takes_a_branchs_loosening_is_a_loosening_against_the_first_parent(
    tmp_path: Path,
) -> None:
    """A branch drops require_human_approval; merging it into main is a loosening of main,
    whatever the branch's own commits were checked against."""
    strict = "require_sandbox: true\nrequire_human_approval: true\n"
    new_repository(tmp_path, {"prod.safety_profile.yaml": strict, "a.txt": "a\n"})
    git(tmp_path, "checkout", "-q", "-b", "feature")
    write_files(tmp_path, {"prod.safety_profile.yaml": "require_sandbox: true\n"})
    commit_all(tmp_path, "feature: no approval")
    git(tmp_path, "checkout", "-q", "-")
    write_files(tmp_path, {"a.txt": "b\n"})
    commit_all(tmp_path, "main moves on")
    git(tmp_path, "merge", "-q", "--no-edit", "feature")
    result = run("diff", "--git", "HEAD^", "--to", "HEAD", cwd=tmp_path)
    assert (result.returncode, result.stdout.splitlines()) == (
        1,
        [
            "prod.safety_profile.yaml:1:1: loosens: require_human_approval: true → false (the "
            "key was removed: its default applies) [loosens.require_human_approval]",
            "1 change loosens (1 file compared)",
        ],
    )
