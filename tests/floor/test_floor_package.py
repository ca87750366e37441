"""The example floor package (examples/floor-package), as a security team ships it: built into a
wheel, installed into a fresh virtual environment, where `pkg:` finds its floor, and given to the
real `pre-commit` in `additional_dependencies`, where a commit adding a profile below the floor
fails and one at the floor passes.

pre-commit builds one hook environment for both hooks (same repository, same
additional_dependencies): about 10 s on 2 cores.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from conftest import REPO_ROOT
from git_repos import (
    GIT_IDENTITY,
    committed_copy_of_this_repository,
    git,
    new_repository,
    write_files,
)
from programs import run_program

PIP = (sys.executable, "-m", "pip")
FLOOR_PACKAGE = REPO_ROOT / "examples" / "floor-package"
FLOOR_FILE = "acme_policies/floor.safety_profile.yaml"
PYPROJECT = f'[tool.safety-profile]\nfloor = "pkg:{FLOOR_FILE}"\n'
# The profiles docs/floor.md shows: one below the floor on three fields, one at it.
PROFILE = "config/agent.safety_profile.yaml"
LOOSE = "require_sandbox: false\nmax_cost_per_plan: 20.0\nallowed_skill_categories: [code, ops]\n"
AT_FLOOR = (
    "require_sandbox: true\nmax_cost_per_plan: 20.0\nmax_total_cost: 100.0\n"
    "allowed_skill_categories: [code, test]\n"
)
FENCED_TEXT = re.compile(r"^```text\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def shown_lines(kind: str) -> list[str]:
    """The lines about the profile that docs/floor.md shows a developer: `error` (check) or
    `loosens` (the loosening hook)."""
    text = (REPO_ROOT / "docs" / "floor.md").read_text(encoding="utf-8")
    lines = [line for block in FENCED_TEXT.findall(text) for line in block.splitlines()]
    shown = [line for line in lines if line.startswith(PROFILE) and f": {kind}: " in line]
    assert shown, kind
    return shown


def test_the_wheel_holds_the_floor(floor_wheel: Path) -> None:
    with zipfile.ZipFile(floor_wheel) as wheel:
        shipped = wheel.read(FLOOR_FILE)
    assert shipped == (FLOOR_PACKAGE / "src" / FLOOR_FILE).read_bytes()


def test_pkg_floor_from_the_wheel_installed_in_a_fresh_environment(
    floor_wheel: Path, tmp_path: Path
) -> None:
    environment = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(environment)], check=True)
    python = environment / "bin" / "python"
    subprocess.run(
        [
            *PIP,
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(floor_wheel),
        ],
        check=True,
        capture_output=True,
    )
    # The toolkit comes from the test environment; the floor package only from the new one.
    toolkit = sysconfig.get_paths()["purelib"]
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "toolkit.pth").write_text(f"import site; site.addsitedir({toolkit!r})\n")
    project = tmp_path / "project"
    write_files(
        project,
        {
            "pyproject.toml": PYPROJECT,
            PROFILE: LOOSE,
            "ok.safety_profile.yaml": AT_FLOOR,
        },
    )
    files = (PROFILE, "ok.safety_profile.yaml")
    result = subprocess.run(
        [str(python), "-m", "cleveragents.safety_toolkit", "check", *files],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stdout.splitlines() == [*shown_lines("error"), "1 of 2 files invalid"]
    assert result.returncode == 1, result.stderr
    # Where the package is not installed, the same configuration stops the command.
    missing = run_program("safety-profile", "check", *files, cwd=project)
    assert (missing.returncode, missing.stdout) == (2, "")
    assert "the package 'acme_policies' is not installed" in missing.stderr


def pre_commit_config(hook_repo: Path, floor_wheel: Path) -> str:
    revision = git(hook_repo, "rev-parse", "HEAD").strip()
    hooks = "".join(
        f"      - id: {hook}\n        additional_dependencies: ['{floor_wheel}']\n"
        for hook in ("safety-profile", "safety-profile-loosening")
    )
    return f"repos:\n  - repo: {hook_repo}\n    rev: {revision}\n    hooks:\n{hooks}"


def commit(project: Path, home: Path, message: str) -> subprocess.CompletedProcess[str]:
    """`git commit` in `project`, with the hooks `pre-commit install` put there."""
    git(project, "add", "-A")
    return subprocess.run(
        ["git", *GIT_IDENTITY, "commit", "-q", "-m", message],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"},
    )


def test_pre_commit_with_the_floor_package_blocks_a_profile_below_it(
    floor_wheel: Path, tmp_path: Path
) -> None:
    hook_repo = committed_copy_of_this_repository(tmp_path / "hook-repo")
    home = tmp_path / "pre-commit-home"
    (tmp_path / "project").mkdir()
    project = new_repository(
        tmp_path / "project",
        {
            "pyproject.toml": PYPROJECT,
            ".pre-commit-config.yaml": pre_commit_config(hook_repo, floor_wheel),
        },
    )
    installed = run_program(
        "pre-commit", "install", cwd=project, env={"PRE_COMMIT_HOME": str(home)}
    )
    assert installed.returncode == 0, installed.stderr

    write_files(project, {PROFILE: LOOSE})
    blocked = commit(project, home, "a loose profile")
    output = blocked.stdout + blocked.stderr
    assert blocked.returncode == 1, output
    # The check hook, and the loosening hook with the floor as the added file's baseline, as
    # docs/floor.md shows them; skipping the loosening hook is not offered against the floor.
    for line in [*shown_lines("error"), *shown_lines("loosens")]:
        assert line in output.splitlines(), line
    # Each field once: the loosening hook's one line defers to the check hook's.
    assert len(shown_lines("error")) == 3
    for error in shown_lines("error"):
        assert output.count(error.split(": error: ", 1)[1]) == 1, error
    assert "SKIP=" not in output
    assert git(project, "log", "--format=%s") == "first\n"  # nothing was committed

    write_files(project, {PROFILE: AT_FLOOR})
    passed = commit(project, home, "a profile at the floor")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert git(project, "log", "-1", "--format=%s") == "a profile at the floor\n"

    # A floor the package does not hold stops the hook (exit 2), never "no floor".
    broken = PYPROJECT.replace("floor.safety_profile.yaml", "missing.yaml")
    write_files(project, {"pyproject.toml": broken, "teams/b.safety_profile.yaml": AT_FLOOR})
    stopped = commit(project, home, "a broken floor")
    output = stopped.stdout + stopped.stderr
    assert stopped.returncode == 1, output
    assert "exit code: 2" in output
    assert (
        "safety-profile: the floor pkg:acme_policies/missing.yaml (set in pyproject.toml): the "
        "package 'acme_policies' has no file 'missing.yaml'"
    ) in output
