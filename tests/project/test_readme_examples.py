"""Every example of the README and the documentation pages works as shown, pasted at the
repository root.

The shell blocks run in bash and must succeed; each `$ command` of a console block prints
exactly the output shown under it; the Python sessions (`pycon`) run with doctest. They run in
a copy of the repository (with this virtual environment as its `.venv`), so what they write
(`safety-profile init`, the model generator) never touches this checkout. A few blocks are
run elsewhere or by hand, each for the reason given in NOT_RUN_HERE.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT
from readme import FENCED_BLOCK, code_blocks, documentation_pages

BIN = Path(sys.executable).parent

# The first words of a block, and why this test does not run it.
NOT_RUN_HERE = {
    "python3 -m venv .venv": "the set-up commands: they install from the package index and run "
    "the whole suite, which is what CI does (.ci/run)",
    ".venv/bin/pip install atheris": "installs atheris from the package index and runs a "
    "million inputs: a long fuzzing run, by hand",
    ".venv/bin/python fuzz/fuzz_readers.py": "100,000 documents through four readers: a long "
    "fuzzing run, by hand (tests/reading/test_hardening.py runs the same oracle in CI)",
    ".venv/bin/python scripts/generate_snippets.py": "the recipe for a new field: its `pip "
    "install -e .` would reinstall the environment this suite runs in (the copy's .venv is it); "
    "each generator's output is drift-tested on its own (test_schema_snippets, "
    "test_generated_models, test_generated_validators, the rule docs and snapshots tests)",
}
# Blocks of these subsections run from an empty folder, not the repository root.
ELSEWHERE = {
    "A new application, step by step": "tests/db/test_db_setup.py",
    "JSONB on PostgreSQL, JSON text elsewhere": "tests/db/test_db_setup.py",
    # These need files that differ and a git repository with history: made there.
    "`safety-profile diff`": "tests/git/test_readme_diff.py",
    "Against git: `--git REV [PATH...]`": "tests/git/test_readme_diff.py",
    "The pre-commit hook `safety-profile-loosening`": "tests/git/test_readme_diff.py",
    "In a pull request (GitHub Actions)": "tests/git/test_readme_diff.py",
    "In `resolve`": "tests/git/test_readme_diff.py",
    # Installs from a clone of this repository at a commit, into new environments.
    "Install": "tests/project/test_install_routes.py",
    "In a database": "tests/project/test_install_routes.py",
    "Editors: `safety-profile lsp`": "tests/project/test_install_routes.py (its pip line)",
    # Builds the .vsix and installs it into a real VS Code (code-server, whose
    # --install-extension is code's).
    "VS Code": "tests/editors/test_editor_vscode.py",
    "The VS Code extension and its test": "tests/editors/test_editor_vscode.py "
    "(.ci/run installs first)",
    # A release commits and tags: run in a temporary clone.
    "Checklist": "tests/project/test_release.py",
    # Builds a floor package into a wheel and commits in a second repository with pre-commit.
    "What a developer sees": "tests/project/test_walkthroughs.py",
    # docs/installation.md gathers install lines the routes above test (a test keeps each
    # line one of theirs).
    "The command and the Python package: pip": "tests/project/test_walkthroughs.py",
    "The command on its own: pipx": "tests/project/test_walkthroughs.py",
    "The extras": "tests/project/test_walkthroughs.py",
    "In VS Code: the extension's `.vsix`": "tests/project/test_walkthroughs.py",
}


def all_blocks() -> list[tuple[str, str, str]]:
    """(heading, language, text) of every fenced block of every page, under its nearest heading
    (a `# comment` inside a block is not a heading)."""
    blocks = []
    for page in documentation_pages():
        text = page.read_text(encoding="utf-8")
        prose = FENCED_BLOCK.sub(lambda block: re.sub(r"[^\n]", " ", block.group(0)), text)
        headings = [
            (match.start(), match.group(1).strip())
            for match in re.finditer(r"^#{1,3} (.*)$", prose, flags=re.MULTILINE)
        ]
        for match in FENCED_BLOCK.finditer(text):
            heading = [title for start, title in headings if start < match.start()][-1]
            blocks.append((heading, match.group(2), match.group(3)))
    return blocks


def runnable(language: str) -> list[tuple[str, str]]:
    return [
        (heading, text)
        for heading, block_language, text in all_blocks()
        if block_language == language and heading not in ELSEWHERE
    ]


def shell_blocks() -> list[str]:
    return [text for _, text in runnable("sh") if not text.startswith(tuple(NOT_RUN_HERE))]


@pytest.fixture(scope="module")
def repository_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout's files (tracked and new, not ignored), with this venv as `.venv`."""
    copy = tmp_path_factory.mktemp("repository")
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPO_ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name, follow_symlinks=False)
    (copy / ".venv").symlink_to(Path(sys.prefix))
    return copy


def bash(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"},
        capture_output=True,
        text=True,
        check=False,
    )


def test_every_block_is_run_here_or_elsewhere() -> None:
    languages = {language for _, language, _ in all_blocks()}
    # Files to create (yaml, json, ini), SQL and sample output are checked by the tests that
    # use them; code is run here, or by tests/db/test_db_setup.py.
    # Editors' configuration (lua, toml, elisp) is shown for the editors that
    # tests/editors/test_editor_*.py run.
    assert languages <= {
        *("sh", "console", "pycon", "python", "yaml", "json", "ini", "sql", "text"),
        *("lua", "toml", "elisp"),
    }
    python_outside = [
        heading for heading, language, _ in all_blocks()
        if language == "python" and heading not in {*ELSEWHERE, "Reading and writing"}
    ]  # fmt: skip
    assert python_outside == [], "Python examples are pycon sessions, so that doctest runs them"
    skipped = [text for _, text in runnable("sh") if text.startswith(tuple(NOT_RUN_HERE))]
    assert len(skipped) == len(NOT_RUN_HERE)


def test_no_block_run_here_installs_into_the_suites_environment() -> None:
    # The copy's .venv is this environment: a pip line run here would replace the package
    # under test (an editable install from the copy once broke every later test of a run).
    installing = [
        script
        for script in shell_blocks() + [command for command, _ in console_sessions()]
        if re.search(r"\bpip3? +install\b|\bpip +uninstall\b", script)
    ]
    assert installing == [], "run these elsewhere (ELSEWHERE) or by hand (NOT_RUN_HERE)"


@pytest.mark.parametrize("script", shell_blocks(), ids=lambda script: script.splitlines()[0][:60])
def test_shell_example_runs_from_the_repository_root(script: str, repository_copy: Path) -> None:
    result = bash(script, repository_copy)
    assert result.returncode == 0, f"{script}\n{result.stdout}{result.stderr}"


def console_sessions() -> list[tuple[str, str]]:
    """(command, expected output) of every `$ command` in a console block."""
    sessions = []
    for _, text in runnable("console"):
        for chunk in re.split(r"^\$ ", text, flags=re.MULTILINE)[1:]:
            lines = chunk.splitlines(keepends=True)
            command = lines.pop(0)
            while command.rstrip("\n").endswith("\\"):
                command += lines.pop(0)
            sessions.append((command.strip(), "".join(lines)))
    return sessions


@pytest.mark.parametrize(
    ("command", "expected"),
    [pytest.param(command, expected, id=command[:60]) for command, expected in console_sessions()],
)
def test_console_example_prints_what_the_readme_shows(
    command: str, expected: str, repository_copy: Path
) -> None:
    result = bash(command, repository_copy)
    assert result.returncode in (0, 1), result.stderr  # 1: the example shows invalid files
    assert result.stdout == expected


@pytest.mark.parametrize(
    "session", [text for _, text in runnable("pycon")], ids=lambda text: text.split("\n")[0][4:60]
)
def test_python_session_prints_what_the_readme_shows(
    session: str, repository_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repository_copy)
    test = doctest.DocTestParser().get_doctest(session, {}, "README.md", "README.md", 0)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    assert runner.tries == len(test.examples) > 0


def test_readme_persistence_steps_are_run_by_the_setup_test() -> None:
    steps = code_blocks("Persistence (optional [db] extra)", "A new application, step by step")
    setup_test = (REPO_ROOT / "tests" / "db" / "test_db_setup.py").read_text(encoding="utf-8")
    assert steps
    assert 'STEPS = "A new application, step by step"' in setup_test
