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
    assert f"0:prod.safety_profile.yaml:1:18: {SANDBOX_LOOSENS}" in lines
    assert f"1:ops.safety_profile.yaml:1:18: {SANDBOX_LOOSENS}" in lines
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
        f"config/prod.safety_profile.yaml:1:18: {SANDBOX_LOOSENS}",
        f"config/via.safety_profile.yaml:1:18: {SANDBOX_LOOSENS}",
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
        f"prod.safety_profile.yaml:1:18: {SANDBOX_LOOSENS}",
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
    assert result.stdout.splitlines()[0] == f"a.safety_profile.yaml:1:18: {SANDBOX_LOOSENS}"
    checkout = tmp_path.parent / f"{tmp_path.name}-checkout"
    git(tmp_path, "worktree", "add", "-q", "--detach", str(checkout), "HEAD")
    assert (checkout / "a.safety_profile.yaml").read_bytes() == LOOSE.replace("\n", "\r\n").encode()
    assert run("check", "a.safety_profile.yaml", cwd=checkout).returncode == 0


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
        "safety-profile diff --git in the submodule"
    )


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
        "(added: looser than DEFAULT_SAFETY_PROFILE)"
    ) in action.stdout.splitlines()
    profile = run("diff", "--git", "HEAD", "--staged", cwd=tmp_path)
    assert profile.stdout.splitlines()[1:] == [
        f"new.safety_profile.yaml:1:18: {SANDBOX_LOOSENS} (added: looser than "
        "DEFAULT_SAFETY_PROFILE)",
        "new.safety_profile.yaml:2:23: loosens: max_retries_per_step: 3 → 5 (added: looser "
        "than DEFAULT_SAFETY_PROFILE)",
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
        "project.yaml; no limit; the key is not set: its default applies)"
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
        assert f"{shown}.safety_profile.yaml:1:18: {SANDBOX_LOOSENS}" in text.stdout
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
        "remove it from .gitattributes for safety profiles and actions"
    )
    assert "second/" not in result.stdout
    assert "loose/" not in result.stdout
