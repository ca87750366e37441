"""The command paths import no pydantic: `check` (profiles and actions, valid or not, in every
format), `show`, and the floors (`check --floor F`, a floor set in pyproject.toml) are checked
by the commands' one validator (`document_check`), whose words are the models' (see
tests/domain/test_command_path_agrees.py). Importing pydantic and building the models was most of a
run's start-up; pydantic stays for the Python API.

Each run is the real console script in a subprocess, which lists the modules it imported
(`sys.modules` when it exits) in a file. Not timed: benchmarks/check_speed.py measures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import (
    EXAMPLES,
    REPO_ROOT,
    VALID_PROFILES,
    console_script,
    expected_output_path,
    relative,
    valid_output,
)
from git_repos import git, new_repository

from cleveragents.safety_toolkit.formats import FORMAT_BY_NAME, format_names

VALID_ACTIONS = sorted((EXAMPLES / "actions" / "valid").glob("*.yaml"))
INVALID_PROFILE = EXAMPLES / "invalid" / "several_problems.safety_profile.yaml"
INVALID_ACTION = EXAMPLES / "actions" / "invalid" / "automation_profile_infinite.action.yaml"
CLI = console_script("safety-profile")
VALIDATOR = "cleveragents.domain.models.core.document_check"
# Runs the console script as installed, then writes the names in sys.modules to a file (not
# through runpy, which imports typing with pkgutil).
RUNNER = """\
import sys
modules_file, *sys.argv = sys.argv[1:]
try:
    with open(sys.argv[0], encoding="utf-8") as script:
        exec(compile(script.read(), sys.argv[0], "exec"), {"__name__": "__main__"})
finally:
    with open(modules_file, "w", encoding="utf-8") as file:
        file.write("\\n".join(sorted(sys.modules)))
"""


def run_with_modules(
    tmp_path: Path, *arguments: str, cwd: Path = REPO_ROOT
) -> tuple[int, str, set[str]]:
    """Exit status, standard output and the modules imported by one run of the CLI."""
    modules_file = tmp_path / "modules.txt"
    result = subprocess.run(
        [sys.executable, "-c", RUNNER, str(modules_file), CLI, *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert result.stderr == ""
    return result.returncode, result.stdout, set(modules_file.read_text("utf-8").split())


def pydantic_modules(modules: set[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] in ("pydantic", "pydantic_core")}


@pytest.mark.parametrize(
    ("kind", "files", "generated"),
    [
        ("profile", VALID_PROFILES, "cleveragents.schema_validators.safety_profile_schema"),
        ("action", VALID_ACTIONS, "cleveragents.schema_validators.action_schema"),
    ],
)
def test_check_accepts_valid_files_without_pydantic(
    tmp_path: Path, kind: str, files: list[Path], generated: str
) -> None:
    status, output, modules = run_with_modules(
        tmp_path, "check", "--kind", kind, *map(relative, files)
    )
    assert (status, output) == (0, valid_output(files))  # no error; warnings, if any
    assert {VALIDATOR, generated} <= modules  # the schema's generated validator decided
    assert pydantic_modules(modules) == set()
    # Nor what only other commands need (diff's help reads the strictness rules), nor
    # dataclasses, which with inspect was a tenth of the start-up, nor what only a floor needs
    # (holding a profile to it, with json for its words; a warning's words need json too).
    unwanted = {"cleveragents.domain.models.core.strictness", "dataclasses"}
    unwanted |= {"cleveragents.safety_toolkit.floor.comparison"}
    if ": warning: " not in output:
        unwanted |= {"json"}
    # Nor pathlib (with urllib and ipaddress), though git is asked in this repository, nor
    # decimal (the generated validators ask about a Decimal only for other values than YAML's),
    # nor what follows links through git (`git/links.py`, with typing; typing comes here with
    # tomllib, which reads this repository's pyproject.toml for a floor).
    unwanted |= {"pathlib", "decimal", "cleveragents.safety_toolkit.git.links"}
    assert unwanted & modules == set()


# Every format's module, from the registry.
FORMAT_MODULES = {
    f"cleveragents.safety_toolkit.formats.{entry.module}" for entry in FORMAT_BY_NAME.values()
}


@pytest.mark.parametrize("output_format", format_names("check"))
def test_check_outside_a_repository_starts_no_git_and_imports_one_format(
    tmp_path: Path, output_format: str
) -> None:
    """A file in no git work tree: nothing of git, nor subprocess or pathlib, is imported
    (the os module tells where it is; SARIF's file URIs alone need pathlib), nor shutil, and of the
    formats only the one that reports. Nor typing (`lean_typing`), nor decimal."""
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "a.safety_profile.yaml").write_text(FLOOR, encoding="utf-8")
    status, _, modules = run_with_modules(
        tmp_path, "check", "--format", output_format, "a.safety_profile.yaml", cwd=folder
    )
    assert status == 0
    unwanted = {"subprocess", "cleveragents.safety_toolkit.git.objects", "decimal"}
    if output_format != "sarif":
        # Nor shutil: argparse measures the terminal only when help is printed; nor typing.
        unwanted |= {"pathlib", "shutil", "typing"}
    assert unwanted & modules == set()
    module = FORMAT_BY_NAME[output_format].module
    assert FORMAT_MODULES & modules == {f"cleveragents.safety_toolkit.formats.{module}"}


@pytest.mark.parametrize("attributes", [False, True])
def test_check_in_a_repository_imports_no_typing(tmp_path: Path, attributes: bool) -> None:
    """In a repository (git asked, a `.gitattributes` read or not) without a pyproject.toml
    (whose floor tomllib, with typing, would read), `check` imports no typing."""
    files = {"a.safety_profile.yaml": FLOOR}
    if attributes:
        files[".gitattributes"] = "*.txt text\n"
    (tmp_path / "repo").mkdir()
    repository = new_repository(tmp_path / "repo", files)
    status, output, modules = run_with_modules(
        tmp_path, "check", "a.safety_profile.yaml", cwd=repository
    )
    assert (status, output) == (0, "ok: 1 file valid\n")
    assert "cleveragents.safety_toolkit.git.objects" in modules  # git was asked
    assert {"typing", "decimal", "cleveragents.safety_toolkit.git.links"} & modules == set()


@pytest.mark.parametrize(
    ("kind", "invalid"), [("profile", INVALID_PROFILE), ("action", INVALID_ACTION)]
)
@pytest.mark.parametrize("output_format", format_names("check"))
def test_check_words_invalid_files_without_pydantic(
    tmp_path: Path, kind: str, invalid: Path, output_format: str
) -> None:
    status, output, modules = run_with_modules(
        tmp_path, "check", "--kind", kind, "--format", output_format, relative(invalid)
    )
    assert status == 1
    if output_format == "text":  # the words the models give, as the example keeps them
        expected = expected_output_path(invalid).read_text("utf-8")
        assert output == expected + "1 of 1 file invalid\n"
    assert VALIDATOR in modules
    assert pydantic_modules(modules) == set()


@pytest.mark.parametrize(
    ("kind", "file", "status"),
    [
        ("profile", VALID_PROFILES[0], 0),
        ("action", VALID_ACTIONS[0], 0),
        ("profile", INVALID_PROFILE, 1),
        ("action", INVALID_ACTION, 1),
    ],
)
@pytest.mark.parametrize("output_format", format_names("show"))
def test_show_imports_no_pydantic(
    tmp_path: Path, kind: str, file: Path, status: int, output_format: str
) -> None:
    arguments = ("show", "--kind", kind, "--format", output_format, relative(file))
    found, output, modules = run_with_modules(tmp_path, *arguments)
    assert found == status
    assert output.startswith("# Effective" if status == 0 and output_format == "text" else "")
    assert pydantic_modules(modules) == set()


FLOOR = "require_sandbox: true\nmax_retries_per_step: 2\n"
LOOSE = "require_sandbox: false\nmax_retries_per_step: 5.0\n"


@pytest.mark.parametrize("set_by", ["--floor", "pyproject.toml"])
def test_the_floor_is_loaded_and_applied_without_pydantic(tmp_path: Path, set_by: str) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "floor.yaml").write_text(FLOOR, encoding="utf-8")
    (project / "loose.safety_profile.yaml").write_text(LOOSE, encoding="utf-8")
    (project / "strict.safety_profile.yaml").write_text(FLOOR, encoding="utf-8")
    floor_options = ["--floor", "floor.yaml"]
    if set_by == "pyproject.toml":
        (project / "pyproject.toml").write_text(
            '[tool.safety-profile]\nfloor = "floor.yaml"\n', encoding="utf-8"
        )
        floor_options = []
    files = ["loose.safety_profile.yaml", "strict.safety_profile.yaml"]
    status, output, modules = run_with_modules(
        tmp_path, "check", *floor_options, *files, cwd=project
    )
    assert status == 1
    assert output == (
        "loose.safety_profile.yaml:1:18: error: require_sandbox: false is looser than the "
        "floor's true (floor.yaml) [floor.looser]\n"
        "loose.safety_profile.yaml:2:23: error: max_retries_per_step: 5 is looser than the "
        "floor's 2 (floor.yaml) [floor.looser]\n"
        "1 of 2 files invalid\n"
    )
    assert pydantic_modules(modules) == set()


# --- diff, diff --git, resolve and the language server ----------------------------------------

CHANGED = "require_sandbox: false\nmax_retries_per_step: 2\n"


def test_diff_of_two_files_imports_no_pydantic(tmp_path: Path) -> None:
    (tmp_path / "old.safety_profile.yaml").write_text(FLOOR, encoding="utf-8")
    (tmp_path / "new.safety_profile.yaml").write_text(CHANGED, encoding="utf-8")
    status, output, modules = run_with_modules(
        tmp_path, "diff", "old.safety_profile.yaml", "new.safety_profile.yaml", cwd=tmp_path
    )
    assert status == 1
    assert output.startswith("new.safety_profile.yaml:1:18: loosens: require_sandbox: true → false")
    assert pydantic_modules(modules) == set()


@pytest.mark.parametrize("staged", [False, True])
def test_diff_git_imports_no_pydantic(tmp_path: Path, staged: bool) -> None:
    (tmp_path / "repo").mkdir()
    repository = new_repository(tmp_path / "repo", {"a.safety_profile.yaml": FLOOR})
    (repository / "a.safety_profile.yaml").write_text(CHANGED, encoding="utf-8")
    if staged:
        git(repository, "add", "a.safety_profile.yaml")
    options = ["--staged"] if staged else []
    status, output, modules = run_with_modules(
        tmp_path, "diff", "--git", "HEAD", *options, cwd=repository
    )
    assert status == 1
    assert output.startswith("a.safety_profile.yaml:1:18: loosens: require_sandbox: true → false")
    assert "cleveragents.safety_toolkit.core.git_diff" in modules  # git was asked
    assert pydantic_modules(modules) == set()
    # Nor dataclasses (with inspect: a tenth of the run), nor socket's enums (git's cat-file
    # talks over sockets made by the C module `_socket`), nor pathlib (urllib, ipaddress), nor
    # typing (`lean_typing`), decimal or json (`rendering.json_text`).
    unwanted = {"dataclasses", "inspect", "socket", "pathlib", "typing", "decimal", "json"}
    assert unwanted & modules == set()


def test_resolve_imports_no_pydantic(tmp_path: Path) -> None:
    (tmp_path / "plan.safety_profile.yaml").write_text(CHANGED, encoding="utf-8")
    (tmp_path / "project.safety_profile.yaml").write_text(FLOOR, encoding="utf-8")
    action = relative(VALID_ACTIONS[0])
    arguments = ["--plan", "plan.safety_profile.yaml", "--project", "project.safety_profile.yaml"]
    status, output, modules = run_with_modules(
        tmp_path, "resolve", *arguments, "--action", str(REPO_ROOT / action), cwd=tmp_path
    )
    assert status == 0
    assert "# note: plan loosens project: require_sandbox true → false" in output
    assert "provenance: PLAN" in output
    assert pydantic_modules(modules) == set()


def _language_server_modules(tmp_path: Path, folder: Path, name: str, text: str) -> set[str]:
    """The modules a language server imported by the time it published the first diagnostics
    for one file it opened (and was then shut down)."""
    from lsp_client import LanguageServerClient

    modules_file = tmp_path / "modules.txt"
    command = [sys.executable, "-c", RUNNER, str(modules_file), CLI, "lsp"]
    client = LanguageServerClient(command, {}, cwd=folder)
    try:
        client.initialize(folder)
        path = folder / name
        path.write_text(text, encoding="utf-8")
        client.open_document(path.as_uri(), text)
        [diagnostic] = client.diagnostics(path.as_uri())
        assert "is not a boolean" in diagnostic["message"]
    finally:
        client.close()
    return set(modules_file.read_text("utf-8").split())


GIT_MODULES = {
    f"cleveragents.safety_toolkit.{name}"
    for name in ("git.objects", "core.git_diff", "git.names", "git.head_version", "core.diff")
}
INVALID = "require_sandbox: maybe\n"


def test_the_language_server_opens_a_file_outside_a_repository_without_git_or_pydantic(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    modules = _language_server_modules(tmp_path, folder, "a.safety_profile.yaml", INVALID)
    assert pydantic_modules(modules) == set()
    assert GIT_MODULES & modules == set()


def test_the_language_server_opens_a_file_in_a_repository_without_pydantic(
    tmp_path: Path,
) -> None:
    (tmp_path / "repo").mkdir()
    repository = new_repository(tmp_path / "repo", {"a.safety_profile.yaml": FLOOR})
    modules = _language_server_modules(tmp_path, repository, "a.safety_profile.yaml", INVALID)
    assert pydantic_modules(modules) == set()
    assert "cleveragents.safety_toolkit.git.head_version" in modules  # HEAD's version was read
    # Nor hashlib (OpenSSL's, 5 ms): a blob id of the file on disk is Python's own SHA-1.
    assert "hashlib" not in modules


@pytest.mark.parametrize("edited", [False, True])
def test_the_language_server_opens_a_committed_file_waiting_on_two_gits(
    tmp_path: Path, edited: bool
) -> None:
    """Opening a file in a repository asks git where the repository is once, and lists HEAD's
    entry for the file while another git reads HEAD's commit from HEAD itself (the two at
    once: one wait); when the file on disk is HEAD's (its blob id is the entry's), HEAD's
    bytes are those and no `cat-file` runs; edited since, HEAD's blob is read. Either way the
    note says what the buffer loosens. Counted with GIT_TRACE (a harmless variable)."""
    from lsp_client import LanguageServerClient

    (tmp_path / "repo").mkdir()
    repository = new_repository(tmp_path / "repo", {"a.safety_profile.yaml": FLOOR})
    path = repository / "a.safety_profile.yaml"
    if edited:
        path.write_text(FLOOR + "# edited\n", encoding="utf-8")
    traced = tmp_path / "trace"
    env = {**os.environ, "GIT_TRACE": str(traced)}
    client = LanguageServerClient([CLI, "lsp"], {}, cwd=repository, env=env)
    try:
        client.initialize(repository)
        client.open_document(path.as_uri(), CHANGED)
        [note] = client.diagnostics(path.as_uri())
        assert note["message"] == "loosens: require_sandbox: true → false"
    finally:
        client.close()
    gits = [
        line.split("git ", 1)[1]
        for line in traced.read_text().splitlines()
        if "built-in: git" in line
    ]
    commands = [
        next(word for word in run.split() if not word.startswith("-") and "=" not in word)
        for run in gits
    ]
    assert commands[0] == "rev-parse"
    assert sorted(commands[1:3]) == ["ls-tree", "show-ref"]  # started together
    assert commands[3:] == (["cat-file"] if edited else [])
