"""Every install route of the README, pasted into a new environment and a new repository.

This checkout is committed into a repository of its own ("the repository at a commit"); each
snippet is used exactly as written, with only this repository's GitHub URL replaced by that
clone's `file://` URL and `<commit-sha>` by the commit's id. pip installs into a new virtual
environment (dependencies from the package index, as a user's pip would), the real `pre-commit`
builds the hooks from the commit; the GitHub Actions route is the review action, which
tests/hooks/test_review_action.py runs.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tomllib
import venv
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT
from git_repos import (
    HookRepository,
    committed_copy_of_this_repository,
    git,
    new_repository,
    write_files,
)
from programs import BIN
from readme import FENCED_BLOCK, code_blocks, documentation_pages, readme_text

URL = "https://github.com/cleveragents/cleveragents-safety-profile"
PLACEHOLDER = "<commit-sha>"
VERSION = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
    "version"
]
VALID = "require_sandbox: true\nmax_total_cost: 100.0\n"
LOOSER = "require_sandbox: false\nmax_total_cost: 100.0\n"
ACTION = (
    "name: local/deploy\ndefinition_of_done: deployed\nstrategy_actor: local/default\n"
    "execution_actor: local/default\nsafety_profile:\n  require_sandbox: true\n"
)


@pytest.fixture(scope="module")
def published(hook_repository: HookRepository) -> tuple[str, str]:
    """This checkout as a repository at a commit: its URL and the commit's id (the hook tests'
    repository, see conftest's `hook_repository`)."""
    return hook_repository.url, hook_repository.rev


@pytest.fixture(scope="module")
def pre_commit_home(hook_repository: HookRepository) -> Path:
    """pre-commit's cache, shared: the hook environment is built once per test run from the
    commit, for the hook tests and these."""
    return hook_repository.home


def pasted(snippet: str, published: tuple[str, str]) -> str:
    url, commit = published
    return snippet.replace(URL, url).replace(PLACEHOLDER, commit)


def run(command: str, cwd: Path, path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`command` in bash, with `path` first on PATH (a user's activated environment)."""
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command],
        cwd=cwd,
        env={**os.environ, "PATH": f"{path}{os.pathsep}{os.environ['PATH']}", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def extras_install_lines() -> list[str]:
    """The pip lines of the pages that install an extra from the repository (the lsp extra)."""
    return [
        match.group(3)
        for page in documentation_pages()[1:]
        for match in FENCED_BLOCK.finditer(page.read_text(encoding="utf-8"))
        if match.group(2) == "sh" and "pip install" in match.group(3) and "@ git+" in match.group(3)
    ]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, published: tuple[str, str]) -> Path:
    """A new virtual environment where the README's install lines ran: its bin folder."""
    environment = tmp_path_factory.mktemp("user-venv")
    venv.create(environment, with_pip=True)
    bin_folder = environment / "bin"
    # Python 3.11's bundled pip (23.2) refuses a `git+file:///` URL (no host), which only this
    # test uses in place of GitHub's; a current pip takes both.
    # PIP_NO_COMPILE: pip writes no .pyc files at install (Python writes them when it first
    # imports a module); the installation is otherwise the user's.
    upgrade = run(
        "python -m pip install -q --upgrade pip", environment, bin_folder, PIP_NO_COMPILE="1"
    )
    assert upgrade.returncode == 0, upgrade.stderr
    ((_, block),) = code_blocks("Install")
    (db_requirement,) = re.findall(
        r'`("cleveragents-safety-profile\[db\] @ [^"]+")`', readme_text()
    )
    for command in (block, f"pip install {db_requirement}", *extras_install_lines()):
        result = run(pasted(command, published), environment, bin_folder, PIP_NO_COMPILE="1")
        assert result.returncode == 0, f"{command}\n{result.stdout}{result.stderr}"
    return bin_folder


def test_every_snippet_pins_a_commit_with_the_one_placeholder() -> None:
    for page in documentation_pages():
        text = page.read_text(encoding="utf-8")
        blocks = "".join(match.group(3) for match in FENCED_BLOCK.finditer(text))
        placeholders = re.findall(r"<[a-z][a-z-]*>", blocks)
        assert placeholders == [PLACEHOLDER] * blocks.count(PLACEHOLDER), page
        assert not re.search(r"rev: v\d|safety-profile@v\d", text), f"{page}: no tag exists yet"
        for reference in re.findall(r"git\+https://\S+?@([^\"\s`]+)", text):
            assert reference == PLACEHOLDER, page


def test_pip_from_the_repository_installs_the_command_the_api_and_the_db_extra(
    installed: Path,
) -> None:
    check = run(
        "safety-profile check examples/valid/spec_example.safety_profile.yaml", REPO_ROOT, installed
    )
    assert (check.returncode, check.stdout) == (0, "ok: 1 file valid\n"), check.stderr
    (database_block,) = [text for language, text in code_blocks("Quick start", "In a database")]
    # The model as shown, then a profile written and read back through it, on SQLite.
    code = database_block + (
        "\nfrom sqlalchemy import create_engine\nfrom sqlalchemy.orm import Session\n"
        "from cleveragents.safety_profile import DEFAULT_SAFETY_PROFILE, __version__\n"
        "import alembic, pygls  # the db extra; the lsp extra, from docs/editors.md\n"
        "engine = create_engine('sqlite://')\nBase.metadata.create_all(engine)\n"
        "with Session(engine) as session:\n"
        "    session.add(Action(id=1, name='deploy', safety_profile_json=DEFAULT_SAFETY_PROFILE))\n"
        "    session.commit()\n"
        "    stored = session.get(Action, 1).safety_profile_json\n"
        "print(__version__, stored == DEFAULT_SAFETY_PROFILE, type(stored).__name__)\n"
    )
    python = run(f"python -c {shlex.quote(code)}", installed, installed)
    assert python.stdout == f"{VERSION} True SafetyProfile\n", python.stderr
    # The declaration is step 6 of the database set-up, which tests/db/test_db_setup.py runs.
    step_6 = code_blocks("Persistence (optional [db] extra)", "A new application, step by step")
    assert database_block.splitlines()[-1].strip() in {text.strip() for _, text in step_6}


def hook_config(published: tuple[str, str]) -> str:
    (config,) = [
        text
        for language, text in code_blocks("Quick start", "In a repository: the pre-commit hooks")
        if language == "yaml"
    ]
    return pasted(config, published)


def test_the_pre_commit_snippet_works_in_a_new_repository(
    tmp_path: Path, published: tuple[str, str], pre_commit_home: Path
) -> None:
    (tmp_path / "project").mkdir()
    project = new_repository(
        tmp_path / "project",
        {
            ".pre-commit-config.yaml": hook_config(published),
            "config/prod.safety_profile.yaml": VALID,
            "actions/deploy.yaml": ACTION,
        },
    )
    home = {"PRE_COMMIT_HOME": str(pre_commit_home), "NO_COLOR": "1"}
    first = run("pre-commit run --all-files --color never", project, BIN, **home)
    assert first.returncode == 0, first.stdout + first.stderr
    assert re.findall(r"^(.+?)\.+Passed$", first.stdout, flags=re.MULTILINE) == [
        "check Safety Profiles",
        "check CleverAgents actions",
        "no loosening of Safety Profiles",
    ], first.stdout
    # A staged loosening and a bad value in an action: each hook names its file.
    write_files(
        project,
        {
            "config/prod.safety_profile.yaml": LOOSER,
            "actions/deploy.yaml": ACTION + "  max_retries_per_step: 500\n",
        },
    )
    git(project, "add", "-A")
    second = run("pre-commit run --color never", project, BIN, **home)
    assert second.returncode == 1
    assert (
        "config/prod.safety_profile.yaml:1:18: loosens: require_sandbox: true → false"
        in second.stdout
    )
    assert "actions/deploy.yaml:7:25: error: safety_profile.max_retries_per_step: 500" in (
        second.stdout
    )


def test_pre_commit_autoupdate_moves_the_commit_pin_to_the_first_tag(tmp_path: Path) -> None:
    """What the README promises: pinned to a commit now, `pre-commit autoupdate` moves the pin to
    the release tag once there is one."""
    (tmp_path / "published").mkdir()
    clone = committed_copy_of_this_repository(tmp_path / "published")
    published = (clone.as_uri(), git(clone, "rev-parse", "HEAD").strip())
    (tmp_path / "project").mkdir()
    project = new_repository(
        tmp_path / "project", {".pre-commit-config.yaml": hook_config(published)}
    )
    home = {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    git(clone, "tag", "-a", "v0.2.0", "-m", "Release 0.2.0")
    result = run("pre-commit autoupdate", project, BIN, **home)
    assert result.returncode == 0, result.stdout + result.stderr
    config = yaml.safe_load((project / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert config["repos"][0]["rev"] == "v0.2.0"


def test_the_github_actions_route_is_the_review_action() -> None:
    """The README's CI route is this repository's action, pinned by commit, with inputs the
    action declares; tests/hooks/test_review_action.py runs it, with these inputs, against a hostile
    pull request. (The former route ran the pull request's own pre-commit configuration before
    `diff --git origin/main`, which a hook of that configuration could fool.)"""
    (workflow,) = [
        text for language, text in code_blocks("Quick start", "In CI: GitHub Actions")
        if language == "yaml"
    ]  # fmt: skip
    (step,) = yaml.safe_load(workflow)["jobs"]["safety-profiles"]["steps"]
    assert step["uses"] == f"cleveragents/cleveragents-safety-profile@{PLACEHOLDER}"
    action = yaml.safe_load((REPO_ROOT / "action.yml").read_text(encoding="utf-8"))
    assert set(step["with"]) <= set(action["inputs"])
    assert "run:" not in workflow  # nothing of the pull request runs before the review


def test_every_workflow_is_valid_for_github_actions(tmp_path: Path) -> None:
    """The workflows in the docs and in .github/workflows/, against GitHub's workflow schema
    (vendored in check-jsonschema: no network)."""
    shown = [
        text
        for page in documentation_pages()
        for match in FENCED_BLOCK.finditer(page.read_text(encoding="utf-8"))
        if match.group(2) == "yaml" and "runs-on:" in (text := match.group(3))
    ]
    assert len(shown) >= 2  # the README's CI quick start, the pull request check
    for number, text in enumerate(shown):
        (tmp_path / f"shown-{number}.yaml").write_text(text, encoding="utf-8")
    workflows = sorted((REPO_ROOT / ".github" / "workflows").glob("*.yaml"))
    files = [*map(str, workflows), *map(str, sorted(tmp_path.glob("shown-*.yaml")))]
    result = run(
        f"check-jsonschema --builtin-schema vendor.github-workflows {shlex.join(files)}",
        tmp_path,
        BIN,
    )
    assert result.returncode == 0, result.stdout + result.stderr
