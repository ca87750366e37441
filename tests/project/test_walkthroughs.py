"""The documentation can be followed as written: each walkthrough's blocks, taken from the page
(never retyped here), run as a reader pastes them, with the real tools (git, pip, pre-commit,
Neovim), and print what the page shows; and the pages cover every command and setting.

- docs/floor.md, "What a developer sees": a floor package built into a wheel, reached by
  pre-commit through `PIP_FIND_LINKS`, refusing a commit (one hook environment: ~15 s).
- docs/loosening.md, "Against git": the repository the `diff --git HEAD` example ran in.
- docs/editors.md, "Neovim 0.7 to 0.10": the configuration in Debian's Neovim. (Emacs is tested
  only where `emacs` is installed: not on these machines.)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_ROOT, missing_tool
from git_repos import committed_copy_of_this_repository
from readme import code_blocks

from cleveragents.safety_toolkit.cli.parser import build_parser

BIN = Path(sys.executable).parent
GIT_ENV = {
    "GIT_AUTHOR_NAME": "A Newcomer",
    "GIT_AUTHOR_EMAIL": "newcomer@example.invalid",
    "GIT_COMMITTER_NAME": "A Newcomer",
    "GIT_COMMITTER_EMAIL": "newcomer@example.invalid",
}


def reader_environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A shell as a reader has one: this project's tools (safety-profile, pip, pre-commit) first
    on PATH, a git identity, pre-commit's cache of its own."""
    return {
        **os.environ,
        **GIT_ENV,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "NO_COLOR": "1",
        **extra,
    }


def pasted(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`script` run as a reader pastes it into bash (stopping at the first failure)."""
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-e", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def blocks(section: str, subsection: str | None = None) -> list[tuple[str, str]]:
    return code_blocks(section, subsection)


# --- every command and setting is documented ---------------------------------------------


def subcommands() -> list[str]:
    """The commands of `safety-profile`, from its argument parser."""
    parser = build_parser()
    (commands,) = (
        action
        for action in parser._actions  # argparse keeps its subparsers only here
        if isinstance(action, argparse._SubParsersAction)
    )
    return list(commands.choices)


def test_every_command_has_a_section_in_docs_cli_md() -> None:
    page = (REPO_ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    sections = re.findall(r"^### `safety-profile (\S+)`$", page, re.MULTILINE)
    assert len(subcommands()) >= 9
    assert sorted(sections) == sorted(subcommands())


def test_the_vs_code_settings_the_editors_page_names_are_the_extensions() -> None:
    """docs/editors.md names each setting the extension declares, and no other."""
    package: dict[str, Any] = json.loads(
        (REPO_ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8")
    )
    declared = set(package["contributes"]["configuration"]["properties"])
    commands = {command["command"] for command in package["contributes"]["commands"]}
    page = (REPO_ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    named = set(re.findall(r"safetyProfile\.\w+", page)) - commands
    assert named == declared


def test_the_installation_page_is_in_the_sites_index() -> None:
    index = (REPO_ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    toctree = index.split("```{toctree}", 1)[1].split("```", 1)[0]
    assert toctree.split().index("installation") < toctree.split().index("cli")
    assert (REPO_ROOT / "docs" / "installation.md").is_file()


def test_each_install_line_of_the_installation_page_is_a_tested_one() -> None:
    """docs/installation.md gathers the routes: each command is one a tested block of the
    README or another page runs (tests/project/test_install_routes.py,
    tests/editors/test_editor_vscode.py), the pipx line the tested pip line of the lsp extra, run
    by pipx."""
    page = REPO_ROOT / "docs" / "installation.md"
    lines = [
        line
        for match in re.finditer(r"^```sh\n(.*?)^```$", page.read_text("utf-8"), re.M | re.S)
        for line in match.group(1).splitlines()
    ]
    elsewhere = "\n".join(
        text
        for other in (REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md")))
        if other != page
        for text in re.findall(r"^```sh\n(.*?)^```$", other.read_text("utf-8"), re.M | re.S)
    ).splitlines()
    assert len(lines) == 5
    for line in lines:
        tested = line.replace("pipx install", "pip install", 1)
        assert tested in elsewhere, line


# --- docs/floor.md ----------------------------------------------------------------------


def test_the_floor_walkthrough_refuses_the_commit_as_the_page_shows(tmp_path: Path) -> None:
    script, commit, refused = blocks("What a developer sees")
    assert [script[0], commit[0], refused[0]] == ["sh", "sh", "text"]
    # The files the walkthrough writes are those the page explains above it.
    page = (REPO_ROOT / "docs" / "floor.md").read_text(encoding="utf-8")
    explained = re.findall(r"^```(?:toml|yaml)\n(.*?)^```$", page, re.MULTILINE | re.DOTALL)
    assert explained[0].startswith("# ACME's floor")
    assert explained[0] in script[1]  # the floor
    assert explained[1] in script[1]  # the package's pyproject.toml
    assert explained[2] in script[1]  # the repository's [tool.safety-profile]
    hooks = committed_copy_of_this_repository(tmp_path / "hooks")
    env = reader_environment(tmp_path, HOOKS=str(hooks))
    (tmp_path / "reader").mkdir()
    ran = pasted(script[1], tmp_path / "reader", env)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "ok: 1 file valid" in ran.stdout
    service = tmp_path / "reader" / "service"
    result = pasted(commit[1], service, env)
    assert result.returncode == 1
    # Exactly the page's text, and the blank line pre-commit ends a failed hook's output with.
    assert result.stdout + result.stderr == refused[1] + "\n"
    log = subprocess.run(
        ["git", "log", "--format=%s"], cwd=service, capture_output=True, text=True, check=True
    )
    assert log.stdout == "floor config\n"  # the profile was not committed


# --- docs/loosening.md --------------------------------------------------------------------


def test_the_diff_git_example_is_what_its_repository_gives(tmp_path: Path) -> None:
    section = "Does a change loosen a profile?"
    found = blocks(section, "Against git: `--git REV [PATH...]`")
    (language, script), (console_language, console) = found[:2]
    assert (language, console_language) == ("sh", "console")
    command, *shown = console.splitlines(keepends=True)
    assert command == "$ safety-profile diff --git HEAD\n"
    env = reader_environment(tmp_path)
    ran = pasted(script, tmp_path, env)
    assert ran.returncode == 0, ran.stderr
    result = pasted(command.removeprefix("$ "), tmp_path / "demo", env)
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout == "".join(shown)


# --- docs/editors.md ----------------------------------------------------------------------

# What the test adds to the reader's Neovim: wait for the server's diagnostics on the opened
# buffer, write them as JSON, quit.
OBSERVE = """
local buf = vim.api.nvim_get_current_buf()
vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local shown = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(shown, {line = d.lnum, column = d.col, message = d.message, rule = d.code})
end
vim.fn.writefile({vim.json.encode(shown)}, vim.env.SHOWN)
vim.cmd("qa!")
"""


def test_the_neovim_0_7_configuration_shows_checks_problems(tmp_path: Path) -> None:
    nvim = shutil.which("nvim")
    if nvim is None:
        missing_tool("nvim is not installed (Debian: apt-get install neovim)")
    (language, configuration), *_ = blocks("Neovim 0.7 to 0.10")
    assert language == "lua"
    (tmp_path / "init.lua").write_text(configuration, encoding="utf-8")
    (tmp_path / "observe.lua").write_text(OBSERVE, encoding="utf-8")
    profile = tmp_path / "team.safety_profile.yaml"
    profile.write_text("max_retries_per_step: 200\nrequire_sandbx: true\n", encoding="utf-8")
    env = reader_environment(tmp_path, SHOWN=str(tmp_path / "shown.json"))
    subprocess.run(
        [nvim, "--headless", "--clean", "-u", "init.lua", profile.name,
         "-c", "luafile observe.lua"],
        cwd=tmp_path, env=env, capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    shown = json.loads((tmp_path / "shown.json").read_text(encoding="utf-8"))
    checked = subprocess.run(
        [str(BIN / "safety-profile"), "check", "--format", "json", profile.name],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    expected = [
        {
            "line": problem["line"] - 1,
            "column": problem["column"] - 1,
            "message": problem["message"],
            "rule": problem["rule"],
        }
        for problem in json.loads(checked.stdout)
    ]
    assert len(expected) == 2
    assert sorted(shown, key=lambda p: (p["line"], p["column"])) == sorted(
        expected, key=lambda p: (p["line"], p["column"])
    )


def test_the_emacs_configuration_loads_where_emacs_is_installed(tmp_path: Path) -> None:
    emacs = shutil.which("emacs")
    if emacs is None:
        pytest.skip("emacs is not installed here (Debian: emacs-nox elpa-yaml-mode elpa-eglot)")
    (language, configuration), *_ = blocks("Emacs (eglot)")
    assert language == "elisp"
    (tmp_path / "init.el").write_text(
        "(require 'yaml-mode)\n(require 'eglot)\n" + configuration, encoding="utf-8"
    )
    loaded = subprocess.run(
        [emacs, "--batch", "-l", "init.el", "--eval",
         "(princ (assoc-default \"a.safety_profile.yaml\" auto-mode-alist #'string-match))"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout == "safety-profile-yaml-mode"
