"""`check` against a hostile repository: a profile that is a link out of it is not read (nor
printed), git refusing the repository stops the command as it stops `diff`, and a name another
profile has on macOS or Windows is an error. Each was a way past the check, or out of it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from git_repos import git, new_repository, secrets_repository, write_files
from programs import run_program

from cleveragents.safety_toolkit.formats import format_names

STRICT = "require_sandbox: true\n"
# What a file outside the repository holds: never to be printed.
SECRET = "token: hunter2-not-yaml: [\n"


def run(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return run_program("safety-profile", *args, cwd=cwd, env=env)


OUTSIDE = (
    "is a link to a file outside {where}, so it is not read: what is checked must be part of "
    "what is reviewed; make the profile a regular file, or link it to a file committed in the "
    "repository"
)


@pytest.mark.parametrize("target", ["../secret.yaml", "{outside}/secret.yaml", "via/secret.yaml"])
def test_a_link_out_of_the_repository_is_not_read_nor_printed(tmp_path: Path, target: str) -> None:
    """`check` followed such a link, and printed the first bytes of the file in its error, in a
    CI log and in annotations; a link to a strict profile that exists only on the CI runner
    passed. Now it is an error (file.outside), the file unread, in every format."""
    outside, project = tmp_path / "outside", tmp_path / "project"
    write_files(outside, {"secret.yaml": SECRET})
    project.mkdir()
    new_repository(project, {"README.md": "x\n"})
    os.symlink(str(outside), project / "via")  # a folder link out, on the way
    os.symlink(target.format(outside=outside), project / "prod.safety_profile.yaml")
    if target.startswith(".."):
        (tmp_path / "secret.yaml").write_text(SECRET, encoding="utf-8")
    for output_format in format_names("check"):
        result = run("check", "--format", output_format, "prod.safety_profile.yaml", cwd=project)
        assert result.returncode == 1, (output_format, result.stdout)
        assert "hunter2" not in result.stdout + result.stderr, output_format
        assert "file.outside" in result.stdout or output_format == "text", output_format
    text = run("check", "prod.safety_profile.yaml", cwd=project)
    assert text.stdout.splitlines() == [
        f"prod.safety_profile.yaml: error: {OUTSIDE.format(where='the repository')} [file.outside]",
        "1 of 1 file invalid",
    ]
    # The hooks pass the names git lists, from the repository's root, and so does CI.
    (project / "sub").mkdir()
    from_below = run("check", "../prod.safety_profile.yaml", cwd=project / "sub")
    assert "hunter2" not in from_below.stdout
    assert from_below.returncode == 1


@pytest.mark.parametrize("target", [".git/secret", ".env", "vendor/lib/.git/config"])
def test_a_link_to_a_file_git_does_not_hold_is_not_read_nor_printed(
    tmp_path: Path, target: str
) -> None:
    """A committed link to a file in the repository's folder that git does not hold: in git's
    own folder (where actions/checkout keeps the job's token, in `.git/config`), a file git
    ignores (`.env`), a nested repository's. `diff --git` refused it (a checkout lacks it);
    `check`, and so the profile hook, read it and printed its first bytes in the error
    ("the top level is 'token: ...'"). Now it is file.outside, the file unread."""
    new_repository(tmp_path, {".gitignore": ".env\n", "vendor/lib/keep": ""})
    secret = "GITHUB_TOKEN=hunter2\n"  # a scalar: an error message quoted it
    write_files(tmp_path, {".env": secret, "vendor/lib/.git/config": secret})
    (tmp_path / ".git" / "secret").write_text(secret, encoding="utf-8")
    (tmp_path / "config").mkdir()
    os.symlink("../" + target, tmp_path / "config" / "prod.safety_profile.yaml")
    git(tmp_path, "add", "config/prod.safety_profile.yaml")
    for output_format in format_names("check"):
        result = run(
            "check", "--format", output_format, "config/prod.safety_profile.yaml", cwd=tmp_path
        )
        assert result.returncode == 1, (output_format, result.stdout)
        assert "hunter2" not in result.stdout + result.stderr, output_format
        assert "file.outside" in result.stdout or output_format == "text", output_format
    text = run("check", "config/prod.safety_profile.yaml", cwd=tmp_path)
    assert text.stdout.splitlines() == [
        f"config/prod.safety_profile.yaml: error: is a link to '{target}', which git does not "
        "hold (a file in git's own folder, a file git ignores, a nested repository's): a "
        "checkout lacks it, so it is not read; make the profile a regular file, or link it to "
        "a file committed in the repository [file.outside]",
        "1 of 1 file invalid",
    ]


def test_a_file_an_attribute_transforms_is_not_read_nor_printed(tmp_path: Path) -> None:
    """A checkout's smudge filter writes what the commit does not hold: a repository that
    keeps its secrets encrypted (git-crypt, here a base64 filter) decrypts them on checkout.
    A profile given that filter and the encrypted blob of a secret was refused
    (git.attribute), yet `check` read it as the checkout wrote it and printed the decrypted
    secret in its error, as `diff --git` never does. Now the file is not read."""
    secrets_repository(
        tmp_path,
        {
            ".gitattributes": "secrets.env filter=crypt\n*.safety_profile.yaml filter=crypt\n",
            "secrets.env": "DEPLOY_KEY=hunter2\n",
            "prod.safety_profile.yaml": "DEPLOY_KEY=hunter2\n",  # the same encrypted blob
        },
    )
    assert "hunter2" not in git(tmp_path, "cat-file", "-p", "HEAD:prod.safety_profile.yaml")
    for output_format in format_names("check"):
        result = run("check", "--format", output_format, "prod.safety_profile.yaml", cwd=tmp_path)
        assert result.returncode == 1, (output_format, result.stdout)
        assert "hunter2" not in result.stdout + result.stderr, output_format
        assert "git.attribute" in result.stdout or output_format == "text", output_format
    assert run("check", "prod.safety_profile.yaml", cwd=tmp_path).stdout.splitlines() == [
        "prod.safety_profile.yaml: error: the git attribute filter=crypt makes a checkout of "
        "this file differ from the committed file, so what is reviewed is not what is read; "
        "remove it from .gitattributes for safety profiles and actions [git.attribute]",
        "1 of 1 file invalid",
    ]


def test_a_file_git_ignores_named_as_itself_is_read(tmp_path: Path) -> None:
    """A local profile git ignores, named by its own name (no link), is what the user asked
    for; and a link to a file not committed yet, but not ignored, is followed as diff follows
    it in the working tree."""
    new_repository(tmp_path, {".gitignore": "local.safety_profile.yaml\n"})
    write_files(tmp_path, {"local.safety_profile.yaml": STRICT, "data/new.yaml": STRICT})
    os.symlink("data/new.yaml", tmp_path / "new.safety_profile.yaml")
    result = run("check", "local.safety_profile.yaml", "new.safety_profile.yaml", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "ok: 2 files valid\n")


def test_a_link_inside_the_repository_is_still_followed(tmp_path: Path) -> None:
    new_repository(tmp_path, {"data/prod.yaml": "require_sandbox: maybe\n"})
    os.symlink("data/prod.yaml", tmp_path / "prod.safety_profile.yaml")
    result = run("check", "prod.safety_profile.yaml", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("prod.safety_profile.yaml:1:18: error: require_sandbox:")


def test_outside_a_repository_a_link_may_not_leave_the_folder_checked(tmp_path: Path) -> None:
    """Outside any repository the bound is the folder the command runs in, and the folder the
    file is named in: a link to a file in either is read, one out of both is not."""
    checked, elsewhere = tmp_path / "checked", tmp_path / "elsewhere"
    write_files(checked, {"data/prod.yaml": STRICT, "sub/keep": ""})
    write_files(elsewhere, {"secret.yaml": SECRET})
    os.symlink("../data/prod.yaml", checked / "sub/in.safety_profile.yaml")
    os.symlink(str(elsewhere / "secret.yaml"), checked / "sub/out.safety_profile.yaml")
    inside = run("check", "sub/in.safety_profile.yaml", cwd=checked)
    assert (inside.returncode, inside.stdout) == (0, "ok: 1 file valid\n")
    out = run("check", "sub/out.safety_profile.yaml", cwd=checked)
    assert out.returncode == 1
    assert "hunter2" not in out.stdout
    where = "the folder checked (there is no git repository here)"
    assert out.stdout.splitlines()[0] == (
        f"sub/out.safety_profile.yaml: error: {OUTSIDE.format(where=where)} [file.outside]"
    )
    # A file named by its own path elsewhere is read: it is what the user asked for.
    named = run("check", str(elsewhere / "secret.yaml"), cwd=checked)
    assert "file.outside" not in named.stdout
    assert "is a link to a file outside" not in named.stdout


def test_git_refusing_the_repository_stops_check_as_it_stops_diff(tmp_path: Path) -> None:
    """A `.git` that git cannot use (a broken gitdir, or, in CI containers, a repository owned
    by another user: "detected dubious ownership"): `check` skipped its attribute refusal and
    said ok, while `diff --git` stopped. Both stop now (exit 2), with git's words."""
    write_files(tmp_path, {"prod.safety_profile.yaml": STRICT, ".gitattributes": "*.yaml ident\n"})
    (tmp_path / ".git").write_text("gitdir: /nowhere/at/all\n", encoding="utf-8")
    checked = run("check", "prod.safety_profile.yaml", cwd=tmp_path)
    assert (checked.returncode, checked.stdout) == (2, "")
    assert checked.stderr.startswith(
        f"safety-profile: git cannot read the repository {tmp_path.resolve()}, so its attributes "
        "cannot be checked: fatal: not a git repository: /nowhere/at/all"
    ), checked.stderr
    compared = run("diff", "--git", "HEAD", cwd=tmp_path)
    assert compared.returncode == 2


def test_a_git_dir_git_cannot_use_stops_check_as_it_stops_diff(tmp_path: Path) -> None:
    """`GIT_DIR` (which git exports to hooks, and CI sets) naming a repository git cannot use
    (none there, a broken one, another user's): `check` took its files for files outside any
    repository, skipped the attribute refusal and said ok, while `diff` stopped. Both stop now
    (exit 2), with git's words; a bare repository, which has no work tree, still means none."""
    new_repository(tmp_path, {".gitattributes": "*.yaml ident\n", "x.safety_profile.yaml": STRICT})
    for git_dir in (tmp_path / "nothing", tmp_path / ".gitattributes"):
        checked = run("check", "x.safety_profile.yaml", cwd=tmp_path, GIT_DIR=str(git_dir))
        assert (checked.returncode, checked.stdout) == (2, ""), (git_dir, checked.stdout)
        assert checked.stderr.startswith("safety-profile: git cannot read the repository "), (
            checked.stderr
        )
        compared = run("diff", "--git", "HEAD", cwd=tmp_path, GIT_DIR=str(git_dir))
        assert compared.returncode == 2
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    elsewhere = tmp_path / "elsewhere"
    write_files(elsewhere, {"x.safety_profile.yaml": STRICT})
    plain = run("check", "x.safety_profile.yaml", cwd=elsewhere, GIT_DIR=str(bare))
    assert (plain.returncode, plain.stdout) == (0, "ok: 1 file valid\n"), plain.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="needs a repository owned by another user")
def test_a_repository_of_dubious_ownership_stops_check(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    repository = new_repository(tmp_path / "repo", {"prod.safety_profile.yaml": STRICT})
    shutil.chown(repository, user="nobody")
    result = run("check", "prod.safety_profile.yaml", cwd=repository)
    assert (result.returncode, result.stdout) == (2, "")
    assert "detected dubious ownership" in result.stderr
    assert "safe.directory" in result.stderr


def test_names_that_fold_together_in_check(tmp_path: Path) -> None:
    """Two profiles git keeps apart that macOS and Windows take for one: `check` of either is
    an error naming the other; a name that only a folder shares is not."""
    new_repository(
        tmp_path,
        {
            "Prod.safety_profile.yaml": STRICT,
            "prod.safety_profile.yaml": "{}\n",
            "config/dev.safety_profile.yaml": STRICT,
            "Config/other.safety_profile.yaml": STRICT,
        },
    )
    result = run(
        "check", "--format", "json", "prod.safety_profile.yaml", "config/dev.safety_profile.yaml",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 1
    (problem,) = json.loads(result.stdout)
    assert (problem["file"], problem["rule"]) == ("prod.safety_profile.yaml", "file.name-collision")
    assert (
        "'prod.safety_profile.yaml' and 'Prod.safety_profile.yaml' are one name"
        in (problem["message"])
    )
    # Outside a repository, the names in the file's folder.
    plain = tmp_path / "plain"
    write_files(plain, {"A.safety_profile.yaml": STRICT, "a.safety_profile.yaml": STRICT})
    shutil.rmtree(tmp_path / ".git")
    outside = run("check", "a.safety_profile.yaml", cwd=plain)
    assert outside.returncode == 1
    assert "'a.safety_profile.yaml' and 'A.safety_profile.yaml' are one name" in outside.stdout
    git(tmp_path, "init", "-q")  # leave a repository for the fixture's clean-up as it was
