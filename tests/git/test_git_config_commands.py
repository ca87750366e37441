"""A repository is data: no command its own configuration names runs when `check`, `diff --git`,
the loosening hook or `init` read it (core.fsmonitor, filters, diff drivers, pagers, hooks,
credential helpers, the promisor remote of a partial clone, ...). Each configured command would
leave a trace; none may. (The language server's side: tests/lsp/test_language_server_hostile.py.)"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from git_repos import git, new_repository
from hostile_git import (
    LOOSE_SAME_SIZE,
    STRICT,
    hostile_repository,
    partial_clone,
    trace,
    traces_left,
    with_dirty_submodule,
)
from programs import BIN

COMMANDS = [
    ("check", "prod.safety_profile.yaml", "other.safety_profile.yml"),
    ("check", "--kind", "action", "actions/deploy.yaml"),
    ("diff", "--git", "HEAD"),
    ("diff", "--git", "HEAD", "--staged"),
    ("diff", "--git", "HEAD", "--to", "HEAD"),
    ("diff", "--git", "HEAD", "--kind", "action"),
    ("diff", "--pre-commit"),
    ("init", "new.safety_profile.yaml"),
]


def run(
    cwd: Path, *args: str, path: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`safety-profile ARGS` in `cwd` (with `path` as PATH)."""
    return subprocess.run(
        [str(BIN / "safety-profile"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        env={**os.environ, "PATH": path or os.environ["PATH"]},
    )


@pytest.fixture
def traces(tmp_path: Path) -> Path:
    folder = tmp_path / "traces"
    folder.mkdir()
    return folder


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """An empty folder for a repository, beside the traces."""
    folder = tmp_path / "repository"
    folder.mkdir()
    return folder


def ran_nothing(result: subprocess.CompletedProcess[str], traces: Path) -> None:
    assert "Traceback" not in result.stderr
    assert traces_left(traces) == [], result.stdout + result.stderr


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_no_command_the_repository_configures_runs(
    repository: Path, traces: Path, args: tuple[str, ...]
) -> None:
    hostile_repository(repository, traces)
    result = run(repository, *args)
    ran_nothing(result, traces)
    if args[0] == "check":  # the filters are reported, not run
        assert "the git attribute filter=" in result.stdout
        assert result.returncode == 1


def test_the_configured_commands_do_run_under_git_itself(
    tmp_path: Path, repository: Path, traces: Path
) -> None:
    """The test's repository is armed: git's own reads run what it names."""
    hostile_repository(repository, traces)
    for args in (
        ["read-tree", "--index-output", str(tmp_path / "index"), "HEAD"],
        ["diff", "--raw", "HEAD", "--", "prod.safety_profile.yaml"],
        ["diff", "--raw", "HEAD", "--", "other.safety_profile.yml"],
        ["diff", "--raw", "HEAD", "--", "actions"],
    ):
        subprocess.run(["git", *args], cwd=repository, stdin=subprocess.DEVNULL, check=False)
    expected = {"fsmonitor", "clean", "process", "clean-a=b", "hook-post-index-change"}
    assert expected <= set(traces_left(traces)), traces_left(traces)


def test_no_command_a_submodule_configures_runs(tmp_path: Path, traces: Path) -> None:
    """`git diff` asks a submodule about its work tree by running git in it, under its own
    configuration: `diff --git` asks only which commit it is at."""
    outer = tmp_path / "outer"
    outer.mkdir()
    git(outer, "init", "-q")
    (outer / "README.md").write_text("x\n")
    git(outer, "add", "-A")
    git(outer, "-c", "user.name=t", "-c", "user.email=t@e.invalid", "commit", "-q", "-m", "x")
    with_dirty_submodule(outer, traces)
    subprocess.run(["git", "diff", "--raw", "HEAD"], cwd=outer, stdin=subprocess.DEVNULL)
    assert "sub-clean" in traces_left(traces)  # git itself runs the submodule's filter
    for path in traces.iterdir():
        path.unlink()
    for args in (
        ("diff", "--git", "HEAD"),
        ("diff", "--pre-commit"),
        ("check", "sub/a.safety_profile.yaml"),
    ):
        ran_nothing(run(outer, *args), traces)


@pytest.mark.parametrize(
    "args",
    [("diff", "--git", "HEAD"), ("diff", "--pre-commit")],
    ids=" ".join,
)
def test_nothing_is_fetched_for_an_object_a_partial_clone_lacks(
    repository: Path, traces: Path, args: tuple[str, ...]
) -> None:
    """A partial clone fetches a missing object from its promisor remote, whose URL may be a
    command (`ext::`) or go through core.sshCommand: the comparison fails instead. The change
    is staged for the hook, which compares HEAD with what is staged (with nothing staged it
    need read no object: nothing changed)."""
    partial_clone(repository, traces)
    if args == ("diff", "--pre-commit"):
        subprocess.run(["git", "add", "prod.safety_profile.yaml"], cwd=repository, check=True)
        for path in traces.iterdir():  # what the test's own git ran is not the command's
            path.unlink()
    result = run(repository, *args)
    ran_nothing(result, traces)
    if args[0] == "diff":
        assert result.returncode != 0  # HEAD's profile cannot be read: never a pass


@pytest.mark.parametrize("args", [("--git", "HEAD"), ("--pre-commit",)], ids=" ".join)
def test_git_answers_for_every_file_whatever_its_configuration_includes(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """`include.path=/dev/stdin` makes git read its configuration from its standard input:
    from a pipe, that consumes the names `diff --git` asks about (the first name is written to
    read as configuration), and git answers for none of them: the filtered profiles passed.
    The question is a file: git reads a copy, and answers for each."""
    first = "[x]\n#.safety_profile.yaml"
    new_repository(
        tmp_path,
        {
            ".gitattributes": "*.yaml filter=lfs\n",
            first: STRICT,
            "prod.safety_profile.yaml": STRICT,
        },
    )
    git(tmp_path, "config", "include.path", "/dev/stdin")
    result = run(tmp_path, "diff", *args, "--format", "json")
    reported = {(p["file"], p["rule"]) for p in json.loads(result.stdout)["problems"]}
    assert reported == {(first, "git.attribute"), ("prod.safety_profile.yaml", "git.attribute")}
    assert result.returncode == 1


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_git_the_repository_holds_never_runs(
    repository: Path, traces: Path, args: tuple[str, ...]
) -> None:
    """With `.` first in PATH (or an empty entry), a `git` in the folder git runs in would be
    found first: git is looked up in PATH's absolute folders only."""
    hostile_repository(repository, traces)
    fake = f"#!/bin/sh\n{trace(traces, 'fake-git')}\nexit 1\n"
    for folder in (repository, repository / "actions"):
        (folder / "git").write_text(fake)
        (folder / "git").chmod(0o755)
    ran_nothing(run(repository, *args, path=f".:{os.environ['PATH']}:"), traces)


@pytest.mark.parametrize("included", ["/dev/stdout", "/proc/self/fd/2"])
def test_git_never_waits_for_its_own_output(tmp_path: Path, included: str) -> None:
    """`include.path=/dev/stdout`: git reads its configuration from its own standard output,
    which, a pipe, it waited on until the timeout (120 s a git; `diff --git` runs several).
    Git writes to files: `diff --git` answers at once, HEAD's profile larger than the limit
    (read only in part) included; or, where it answers on a socket, stops at once."""
    big = "max_retries_per_step: 3\n" + "#" * (2 * 1024 * 1024) + "\n"
    new_repository(tmp_path, {"prod.safety_profile.yaml": STRICT, "big.safety_profile.yaml": big})
    git(tmp_path, "config", "include.path", included)
    (tmp_path / "prod.safety_profile.yaml").write_text("require_sandbox: false\n")
    (tmp_path / "big.safety_profile.yaml").write_text("max_retries_per_step: 3\n")
    result = run(tmp_path, "diff", "--git", "HEAD", timeout=60)
    if included == "/dev/stdout":
        # The one long-lived `git cat-file --batch` answers on a socket, which git cannot open
        # again through /proc: it stops at once, saying why, and the comparison fails closed.
        assert result.returncode == 2, result.stdout
        assert "bad config line" in result.stderr
        assert "No such device or address" in result.stderr
        return
    assert "loosens: require_sandbox: true → false" in result.stdout, result.stderr
    assert "big.safety_profile.yaml" in result.stdout + result.stderr


@pytest.mark.parametrize(
    "where", ["include", "home", "xdg", "environment", "commondir", "relative-xdg"]
)
def test_a_filter_configured_anywhere_git_reads_never_runs(
    tmp_path: Path, repository: Path, traces: Path, where: str
) -> None:
    """`diff --git` skips looking up filter drivers only when no configuration file git reads
    can define one: a driver defined in a file the repository's configuration includes, in
    the user's files, by GIT_CONFIG_* variables, in the folder a `.git/commondir` names (git
    reads its config, not `.git/config`), or in an XDG_CONFIG_HOME given as a relative path
    (git reads it from the top of the work tree, here run from a subfolder) is still switched
    off (and git itself, given the same configuration, runs it: the setting is armed)."""
    new_repository(
        repository, {".gitattributes": "*.yaml filter=evil\n", "a.safety_profile.yaml": STRICT}
    )
    home = tmp_path / "home"
    (home / ".config" / "git").mkdir(parents=True)
    clean = f'[filter "evil"]\n\tclean = {trace(traces, "clean")}; cat\n'
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    if where == "include":
        (tmp_path / "included").write_text(clean, encoding="utf-8")
        git(repository, "config", "include.path", str(tmp_path / "included"))
    elif where == "home":
        (home / ".gitconfig").write_text(clean, encoding="utf-8")
    elif where == "xdg":
        (home / ".config" / "git" / "config").write_text(clean, encoding="utf-8")
    elif where == "commondir":
        common = tmp_path / "common"
        common.mkdir()
        for name in ("objects", "refs", "config"):
            (repository / ".git" / name).rename(common / name)
        (common / "config").write_text(
            (common / "config").read_text(encoding="utf-8") + clean, encoding="utf-8"
        )
        (repository / ".git" / "commondir").write_text(f"{common}\n", encoding="utf-8")
        (repository / ".git" / "config").write_text("[core]\n\tbare = false\n", encoding="utf-8")
    elif where == "relative-xdg":
        (repository / "cfg" / "git").mkdir(parents=True)
        (repository / "cfg" / "git" / "config").write_text(clean, encoding="utf-8")
        (repository / "sub").mkdir()
        env["XDG_CONFIG_HOME"] = "cfg"
    else:
        env |= {
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "filter.evil.clean",
            "GIT_CONFIG_VALUE_0": f"{trace(traces, 'clean')}; cat",
        }
    (repository / "a.safety_profile.yaml").write_text(LOOSE_SAME_SIZE, encoding="utf-8")
    os.utime(repository / "a.safety_profile.yaml", (1, 1))
    cwd = repository / "sub" if where == "relative-xdg" else repository
    result = subprocess.run(
        [str(BIN / "safety-profile"), "diff", "--git", "HEAD"],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert result.returncode == 1, result.stderr  # the loosening is found
    ran_nothing(result, traces)
    subprocess.run(
        ["git", "diff", "--raw", "HEAD"], cwd=cwd, env=env, capture_output=True, check=False
    )
    assert traces_left(traces) == ["clean"]
