"""`safety-profile completion SHELL`: the scripts, loaded into the real shells, complete the
commands, options, choices and file names (bash and fish asked for completions as a user's
Tab asks; zsh registers the completion function through compinit)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import missing_tool
from programs import run_program

from cleveragents.reading.rules import Rule
from cleveragents.safety_toolkit.formats import format_names


def script(shell: str, folder: Path) -> Path:
    result = run_program("safety-profile", "completion", shell)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    path = folder / f"safety-profile.{shell}"
    path.write_text(result.stdout, encoding="utf-8")
    return path


def shell_program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        missing_tool(f"{name} is not installed (.ci/run installs it: Debian package {name})")
    return found


def bash_completions(completion: Path, line: str, cwd: Path) -> list[str]:
    """What Tab offers at the end of `line` in bash, as bash-completion calls the function."""
    program = (
        f"source {completion}\n"
        f'complete -p safety-profile | grep -q "_shtab_safety_profile safety-profile"\n'
        f"COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}\n"
        f"read -r -a COMP_WORDS <<< {line!r}\n"
        f'[[ {line!r} == *" " ]] && COMP_WORDS+=("")\n'
        "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
        '_shtab_safety_profile safety-profile "${COMP_WORDS[COMP_CWORD]}" ""\n'
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    result = subprocess.run(
        [shell_program("bash"), "--norc", "-c", program],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return sorted(filter(None, (word.strip() for word in result.stdout.splitlines())))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "prod.safety_profile.yaml").write_text("require_sandbox: true\n")
    (tmp_path / "profiles").mkdir()
    return tmp_path


def test_bash_completes_commands_options_choices_and_files(folder: Path) -> None:
    completion = script("bash", folder)
    assert bash_completions(completion, "safety-profile c", folder) == ["check", "completion"]
    assert bash_completions(completion, "safety-profile check --fo", folder) == ["--format"]
    assert bash_completions(completion, "safety-profile check --f", folder) == [
        "--floor",
        "--format",
    ]
    assert bash_completions(completion, "safety-profile check --format ", folder) == format_names(
        "check"
    )
    assert bash_completions(completion, "safety-profile completion ", folder) == [
        "bash",
        "fish",
        "zsh",
    ]
    assert bash_completions(completion, "safety-profile check pro", folder) == [
        "prod.safety_profile.yaml",
        "profiles",  # a folder: bash adds the slash itself (compopt -o filenames)
    ]
    assert "--project" in bash_completions(completion, "safety-profile resolve --", folder)
    # `rules ID`: the catalogue's ids.
    assert bash_completions(completion, "safety-profile rules yaml.ta", folder) == [
        "yaml.tab",
        "yaml.tag",
    ]
    assert len(bash_completions(completion, "safety-profile rules ", folder)) == len(Rule)


def test_fish_completes_commands_options_and_choices(folder: Path) -> None:
    completion = script("fish", folder)

    def complete(line: str) -> list[str]:
        result = subprocess.run(
            [
                shell_program("fish"),
                "--no-config",
                "-c",
                f"source {completion}; complete -C {line!r}",
            ],
            cwd=folder,
            capture_output=True,
            text=True,
            check=True,
        )
        return sorted(entry.split("\t")[0] for entry in result.stdout.splitlines())

    assert {"check", "completion", "diff", "init", "resolve", "schema", "show"} <= set(
        complete("safety-profile ")
    )
    assert complete("safety-profile check --format ") == format_names("check")
    assert "--staged" in complete("safety-profile diff --")
    assert "prod.safety_profile.yaml" in complete("safety-profile show pr")
    assert complete("safety-profile rules schema.less") == ["schema.less-than-equal"]


def test_zsh_registers_the_completion_function(folder: Path) -> None:
    completion = script("zsh", folder)
    shutil.copy(completion, folder / "_safety-profile")
    # Installed in $fpath, compinit maps the command to it; loaded, it knows every subcommand's
    # options and choices.
    result = subprocess.run(
        [
            shell_program("zsh"),
            "-f",
            "-c",
            f"fpath=({folder} $fpath); autoload -U compinit; compinit -u -d {folder}/zcompdump; "
            "print -r -- $_comps[safety-profile]; "
            f'eval "$(<{completion})"; print -r -- $_comps[safety-profile]; '
            "print -rl -- $_shtab_safety_profile_check_options $_shtab_safety_profile_options",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")
    registered, loaded, *specs = result.stdout.splitlines()
    assert (registered, loaded) == ("_safety-profile", "_shtab_safety_profile")
    formats = " ".join(format_names("check"))  # the registry's, sorted
    assert any(spec.endswith(f":output_format:({formats})") for spec in specs), specs
    assert any("--traceback" in spec for spec in specs), specs
