"""`check`'s git attribute step: where no attribute can apply (no `.gitattributes` from the
repository's top down to the file, on disk or in the index; no info/attributes, no attribute
file of the user's or the system's; no configuration that names one or includes another; no
GIT_* variable that changes what git reads), no `git check-attr` runs; wherever one may apply,
git is asked and the file is refused as before.

The gits a run starts are seen through a `git` on PATH that writes its arguments to a file,
then runs the real git (the toolkit takes the first git on PATH)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from git_repos import git, new_repository, write_files
from programs import run_program

STRICT = "require_sandbox: true\n"
PROFILE = "team/prod.safety_profile.yaml"
REFUSED = "error: the git attribute ident makes a checkout of this file differ"


def _logging_git(folder: Path, log: Path) -> Path:
    real = shutil.which("git")
    assert real is not None
    folder.mkdir()
    wrapper = folder / "git"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return folder


def run_check(
    tmp_path: Path, repository: Path, *arguments: str, **env: str
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """`safety-profile check PROFILE` (or ARGUMENTS) in `repository`, and the gits it ran."""
    log = tmp_path / "gits.log"
    log.unlink(missing_ok=True)
    wrappers = tmp_path / "wrappers"
    if not wrappers.exists():
        _logging_git(wrappers, log)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    environment = {
        "PATH": f"{wrappers}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        **env,
    }
    arguments = arguments or ("check", PROFILE)
    result = run_program("safety-profile", *arguments, cwd=repository, env=environment)
    gits = log.read_text("utf-8").splitlines() if log.exists() else []
    return result, gits


def check_attr_runs(gits: list[str]) -> int:
    return sum(" check-attr " in f" {line} " for line in gits)


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    (tmp_path / "repo").mkdir()
    return new_repository(tmp_path / "repo", {PROFILE: STRICT, "README": "x\n"})


def test_no_attribute_can_apply_so_no_git_check_attr_runs(tmp_path: Path, repository: Path) -> None:
    result, gits = run_check(tmp_path, repository)
    assert (result.returncode, result.stdout) == (0, "ok: 1 file valid\n"), result.stderr
    assert check_attr_runs(gits) == 0


def _attributes_in_folder(repository: Path, home: Path) -> None:
    write_files(repository, {"team/.gitattributes": "*.yaml ident\n"})


def _attributes_only_in_the_index(repository: Path, home: Path) -> None:
    write_files(repository, {".gitattributes": "*.yaml ident\n"})
    git(repository, "add", ".gitattributes")
    (repository / ".gitattributes").unlink()  # git reads the index's copy then


def _info_attributes(repository: Path, home: Path) -> None:
    (repository / ".git" / "info").mkdir(exist_ok=True)
    (repository / ".git" / "info" / "attributes").write_text("*.yaml ident\n", encoding="utf-8")


def _info_attributes_of_the_common_folder(repository: Path, home: Path) -> None:
    # With .git/commondir, git reads info/attributes (and config) of the folder it names.
    common = home / "common"
    common.mkdir()
    for name in ("objects", "refs", "config", "info"):
        if (repository / ".git" / name).exists():
            (repository / ".git" / name).rename(common / name)
    (common / "info").mkdir(exist_ok=True)
    (common / "info" / "attributes").write_text("*.yaml ident\n", encoding="utf-8")
    (repository / ".git" / "commondir").write_text(f"{common}\n", encoding="utf-8")
    (repository / ".git" / "config").write_text("[core]\n\tbare = false\n", encoding="utf-8")


def _configured_attributes_file(repository: Path, home: Path) -> None:
    (home / "attributes").write_text("*.yaml ident\n", encoding="utf-8")
    (home / ".gitconfig").write_text(f"[Core]\n\tAttributesFile = {home / 'attributes'}\n")


def _included_configuration(repository: Path, home: Path) -> None:
    (home / "attributes").write_text("*.yaml ident\n", encoding="utf-8")
    (home / "more.config").write_text(f"[core]\n\tattributesFile = {home / 'attributes'}\n")
    with (repository / ".git" / "config").open("a", encoding="utf-8") as config:
        config.write(f"[include]\n\tpath = {home / 'more.config'}\n")


def _the_users_default_attributes_file(repository: Path, home: Path) -> None:
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".config" / "git" / "attributes").write_text("*.yaml ident\n", encoding="utf-8")


@pytest.mark.parametrize(
    "make_it_apply",
    [
        _attributes_in_folder,
        _attributes_only_in_the_index,
        _info_attributes,
        _info_attributes_of_the_common_folder,
        _configured_attributes_file,
        _included_configuration,
        _the_users_default_attributes_file,
    ],
)
def test_where_an_attribute_may_apply_git_is_asked_and_the_file_refused(
    tmp_path: Path, repository: Path, make_it_apply: Callable[[Path, Path], None]
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    make_it_apply(repository, home)
    result, gits = run_check(tmp_path, repository)
    assert result.returncode == 1, result.stderr
    assert REFUSED in result.stdout
    assert check_attr_runs(gits) >= 1


def test_a_git_variable_that_changes_what_git_reads_asks_git(
    tmp_path: Path, repository: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "attributes").write_text("*.yaml ident\n", encoding="utf-8")
    settings = {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "core.attributesFile",
        "GIT_CONFIG_VALUE_0": str(home / "attributes"),
    }
    result, gits = run_check(tmp_path, repository, **settings)
    assert result.returncode == 1, result.stderr
    assert REFUSED in result.stdout
    assert check_attr_runs(gits) >= 1


LOOSE = "require_sandbox: false\n"


def test_diff_git_asks_git_for_no_attributes_where_none_can_apply(
    tmp_path: Path, repository: Path
) -> None:
    (repository / PROFILE).write_text(LOOSE, encoding="utf-8")
    for staged in ((), ("--staged",)):
        if staged:
            git(repository, "add", PROFILE)
        result, gits = run_check(tmp_path, repository, "diff", "--git", "HEAD", *staged)
        assert result.returncode == 1, result.stderr
        assert "loosens: require_sandbox: true → false" in result.stdout
        assert check_attr_runs(gits) == 0
        assert not any(" read-tree " in f" {line} " for line in gits)


def test_diff_git_refuses_a_file_an_attribute_of_the_old_tree_transforms(
    tmp_path: Path, repository: Path
) -> None:
    """The attribute is in HEAD's tree only (removed since): git is asked about HEAD."""
    write_files(repository, {".gitattributes": "*.yaml ident\n"})
    git(repository, "add", ".gitattributes")
    git(repository, "commit", "-q", "-m", "attributes")
    git(repository, "rm", "-q", ".gitattributes")
    (repository / PROFILE).write_text(LOOSE, encoding="utf-8")
    result, gits = run_check(tmp_path, repository, "diff", "--git", "HEAD")
    assert result.returncode == 1, result.stderr
    assert "in HEAD: the git attribute ident makes a checkout" in result.stdout
    assert check_attr_runs(gits) >= 1
