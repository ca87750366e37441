"""Real git repositories for tests: a user's repository, a committed copy of this one for
`pre-commit try-repo` (it builds a hook from a commit, and caches the build per commit), and
the real `pre-commit try-repo` run in a user's repository."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from conftest import REPO_ROOT
from programs import run_program

GIT_IDENTITY = ["-c", "user.name=test", "-c", "user.email=test@example.invalid"]


def git(folder: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", *GIT_IDENTITY, *args], cwd=folder, capture_output=True, text=True, check=True
    )
    return result.stdout


def write_files(folder: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def new_repository(folder: Path, files: Mapping[str, str], message: str = "first") -> Path:
    """A repository holding `files` (name -> text) in one commit."""
    git(folder, "init", "-q")
    write_files(folder, files)
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", message)
    return folder


def secrets_repository(folder: Path, files: Mapping[str, str]) -> Path:
    """A repository that keeps secrets encrypted and decrypts them on checkout, as git-crypt
    does (its filter `crypt`, base64 here, so the commit never holds the text), with `files`
    committed through it (`.gitattributes` among them says which)."""
    new_repository(folder, {"README.md": "x\n"})
    git(folder, "config", "filter.crypt.smudge", "base64 -d")
    git(folder, "config", "filter.crypt.clean", "base64")
    write_files(folder, files)
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "through the filter")
    return folder


def committed_copy_of_this_repository(destination: Path) -> Path:
    """Tracked and untracked-but-not-ignored files, committed in a new repository."""
    listed = git(REPO_ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for name in filter(None, listed.split("\0")):
        source = REPO_ROOT / name
        if source.is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)
    git(destination, "init", "-q")
    git(destination, "add", "-A")
    git(destination, "commit", "-q", "-m", "hook under test")
    return destination


def try_repo_all_files(
    hook_repo: Path, project: Path, pre_commit_home: Path, *hook_id: str
) -> tuple[int, str]:
    """`pre-commit try-repo HOOK_REPO [HOOK_ID] --all-files --verbose` in `project` (every hook
    of the repository without HOOK_ID): the exit status and everything it printed."""
    result = run_program(
        "pre-commit",
        *("try-repo", str(hook_repo), *hook_id, "--all-files", "--verbose", "--color", "never"),
        cwd=project,
        env={"PRE_COMMIT_HOME": str(pre_commit_home), "NO_COLOR": "1"},
    )
    return result.returncode, result.stdout + result.stderr
