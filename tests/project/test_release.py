"""The release procedure, run up to the point of publishing in a temporary clone: the command of
docs/releasing.md and of the release workflow bumps the version, dates the changelog, builds and
checks both distributions, commits and tags; and it refuses, changing nothing, when it must."""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT
from git_repos import GIT_IDENTITY, committed_copy_of_this_repository, git
from programs import BIN
from readme import code_blocks

WORKFLOW = REPO_ROOT / ".github" / "workflows" / "release.yaml"
VERSION = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
    "version"
]


def next_minor(version: str) -> str:
    major, minor, *_ = version.split(".")
    return f"{major}.{int(minor) + 1}.0"


def release_command(version: str) -> str:
    """The workflow's release step, for `version`."""
    steps = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["build"]["steps"]
    (command,) = [step["run"] for step in steps if "scripts/release.py" in step.get("run", "")]
    return command.replace("${{ inputs.version }}", version)


def run(command: str, clone: Path) -> subprocess.CompletedProcess[str]:
    """`command` in bash in the clone, with this virtual environment's python first on PATH and
    the test identity as git's."""
    name, email = (value.split("=", 1)[1] for value in GIT_IDENTITY[1::2])
    environment = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "GIT_AUTHOR_NAME": name,
        "GIT_AUTHOR_EMAIL": email,
        "GIT_COMMITTER_NAME": name,
        "GIT_COMMITTER_EMAIL": email,
    }
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command],
        cwd=clone,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return committed_copy_of_this_repository(tmp_path_factory.mktemp("release"))


def test_the_documented_command_is_the_workflows() -> None:
    ((language, shown),) = code_blocks("Checklist")
    assert language == "sh"
    assert shown.strip() == release_command("0.2.0").replace('"', "")


def test_a_release_up_to_publishing(clone: Path) -> None:
    version = next_minor(VERSION)
    unreleased = (clone / "CHANGELOG.md").read_text(encoding="utf-8").split("## [Unreleased]\n")[1]
    entries = unreleased.split("\n## [", 1)[0].strip()
    result = run(release_command(version), clone)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"tag v{version}" in result.stdout

    project = tomllib.loads((clone / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == version
    changelog = (clone / "CHANGELOG.md").read_text(encoding="utf-8")
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    assert f"## [Unreleased]\n\n## [{version}] - {today}\n\n{entries}\n\n## [" in changelog
    assert changelog.index(f"## [{version}]") < changelog.index(f"## [{VERSION}]")

    # The published URLs name the new tag everywhere, and nothing names the old one.
    output_schemas = clone / "src" / "cleveragents" / "safety_toolkit" / "output_schemas"
    for path in [
        *sorted((clone / "schema").glob("*.json")),
        *sorted(output_schemas.glob("*.json")),
        clone / "editors" / "schemastore-catalog-entry.json",
        clone / "docs" / "editor-schema.md",
    ]:
        text = path.read_text(encoding="utf-8")
        assert f"/cleveragents-safety-profile/v{version}/" in text, path
        assert f"/cleveragents-safety-profile/v{VERSION}/" not in text, path
    for path in sorted((clone / "schema").glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        assert schema["$id"].endswith(f"/v{version}/schema/{path.name}")
    # `safety-profile init`'s modeline, which named the default branch, names the new tag.
    starter = clone / "src" / "cleveragents" / "safety_toolkit" / "core" / "starter.py"
    assert f'\nSCHEMA_REVISION = "v{version}"\n' in starter.read_text(encoding="utf-8")
    # The VS Code extension the workflow packages carries the same version.
    extension = clone / "editors" / "vscode"
    assert json.loads((extension / "package.json").read_text())["version"] == version
    lock = json.loads((extension / "package-lock.json").read_text())
    assert lock["version"] == lock["packages"][""]["version"] == version

    assert git(clone, "status", "--porcelain", "--untracked-files=no") == ""
    assert git(clone, "log", "-1", "--format=%s") == f"Release {version}\n"
    assert git(clone, "rev-parse", f"v{version}^{{commit}}") == git(clone, "rev-parse", "HEAD")
    assert git(clone, "cat-file", "-t", f"v{version}") == "tag\n"  # annotated

    wheel = clone / "dist" / f"cleveragents_safety_profile-{version}-py3-none-any.whl"
    sdist = clone / "dist" / f"cleveragents_safety_profile-{version}.tar.gz"
    names = set(zipfile.ZipFile(wheel).namelist())
    assert f"cleveragents_safety_profile-{version}.dist-info/licenses/LICENSE" in names
    assert "cleveragents/schemas/safety_profile.schema.json" in names
    assert "cleveragents/safety_profile/py.typed" in names
    with tarfile.open(sdist) as archive:
        assert f"cleveragents_safety_profile-{version}/LICENSE" in archive.getnames()

    # Again with the same version: refused, nothing changes.
    again = run(release_command(version), clone)
    assert again.returncode == 1
    assert f"{version} is not above the current version {version}" in again.stderr
    assert git(clone, "status", "--porcelain", "--untracked-files=no") == ""


def test_refusals_change_nothing(clone: Path) -> None:
    head = git(clone, "rev-parse", "HEAD")
    current = tomllib.loads((clone / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"
    ]
    # The Unreleased section is empty right after a release (or never was filled).
    text = (clone / "CHANGELOG.md").read_text(encoding="utf-8")
    if re.search(r"## \[Unreleased\]\n\n## \[", text) is None:
        pytest.skip("the module's release test did not run first")
    empty = run(release_command(next_minor(current)), clone)
    assert (empty.returncode, empty.stdout) == (1, "")
    assert "Unreleased section is empty" in empty.stderr
    for bad, message in [("0.02.0", "write the version as 0.2.0"), ("soon", "is not a version")]:
        refused = run(release_command(bad), clone)
        assert refused.returncode == 1
        assert message in refused.stderr
    (clone / "pyproject.toml").write_text(
        (clone / "pyproject.toml").read_text(encoding="utf-8") + "\n", encoding="utf-8"
    )
    dirty = run(release_command(next_minor(current)), clone)
    assert "uncommitted changes" in dirty.stderr
    assert git(clone, "rev-parse", "HEAD") == head
