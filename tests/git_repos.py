"""Real git repositories for tests: a user's repository, a committed copy of this one (the hook
repository pre-commit builds the hooks from, at a commit), and the real `pre-commit run` in a
user's repository with hooks from that commit."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml
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


MANIFEST = REPO_ROOT / ".pre-commit-hooks.yaml"


@dataclass(frozen=True)
class HookRepository:
    """This checkout at a commit (`folder`, see committed_copy_of_this_repository) and the
    pre-commit cache (`home`, PRE_COMMIT_HOME) that holds the hook environment pre-commit built
    from that commit: one environment for every hook, built once per test run (conftest's
    `hook_repository` fixture) and shared by every test that runs the hooks."""

    folder: Path
    home: Path

    @property
    def url(self) -> str:
        """The repository's URL, as a user's `.pre-commit-config.yaml` names it (`repo:`)."""
        return self.folder.as_uri()

    @property
    def rev(self) -> str:
        return git(self.folder, "rev-parse", "HEAD").strip()

    def config(self, *hook_ids: str) -> Path:
        """A pre-commit configuration of `hook_ids` (every hook of the manifest without them)
        from this repository's commit, outside any user's repository."""
        if not hook_ids:
            manifest = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
            hook_ids = tuple(sorted(hook["id"] for hook in manifest))
        path = self.home.parent / f"config-{'+'.join(hook_ids)}.yaml"
        if not path.exists():  # another worker may write the same text at once: replace
            hooks = [{"id": hook_id} for hook_id in hook_ids]
            config = {"repos": [{"repo": self.url, "rev": self.rev, "hooks": hooks}]}
            scratch = path.with_suffix(f".{os.getpid()}")
            scratch.write_text(yaml.safe_dump(config), encoding="utf-8")
            scratch.replace(path)
        return path


def seed_hook_repository(folder: Path) -> None:
    """Fill `folder` for HookRepository(folder / "repository", folder / "pre-commit-home"): the
    committed copy, and every hook's environment built by `pre-commit install-hooks` (it needs
    the package index for the build backend and the dependencies, as a user's first run)."""
    hooks = HookRepository(folder / "repository", folder / "pre-commit-home")
    hooks.folder.mkdir()
    committed_copy_of_this_repository(hooks.folder)
    result = run_program(
        "pre-commit",
        *("install-hooks", "--config", str(hooks.config())),
        cwd=hooks.folder,
        env={"PRE_COMMIT_HOME": str(hooks.home)},
    )
    if result.returncode != 0:
        raise RuntimeError(f"pre-commit install-hooks failed:\n{result.stdout}{result.stderr}")


def run_hooks(
    hooks: HookRepository,
    project: Path,
    hook_ids: Sequence[str] = (),
    *args: str,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """`pre-commit run ARGS` in `project` (the staged files unless ARGS say otherwise), with a
    configuration of `hook_ids` (every hook without them) from the hook repository's commit, as
    a user's repository configures them; `env` entries are added to the environment."""
    return run_program(
        "pre-commit",
        *("run", "--config", str(hooks.config(*hook_ids)), "--color", "never", *args),
        cwd=project,
        env={"PRE_COMMIT_HOME": str(hooks.home), "NO_COLOR": "1", **env},
    )


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
