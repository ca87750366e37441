"""The `safety-profile` CLI, run for real in a subprocess, as users and pre-commit run it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import (
    EXAMPLES,
    INVALID_PROFILES,
    PROFILE_SCHEMA_PATH,
    REPO_ROOT,
    VALID_PROFILES,
    console_script,
    expected_output_path,
    relative,
    valid_output,
)
from field_lists import SCHEMA_FIELDS
from programs import run_on_a_terminal, run_program

from cleveragents.domain.models.core.safety_profile import ProfileFileError, SafetyProfile

CLI = console_script("safety-profile")


def run(*args: str, cwd: Path = REPO_ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    return run_program("safety-profile", *args, cwd=cwd, env=env)


def problem_lines(output: str) -> str:
    """The report without its closing summary line."""
    return "".join(line + "\n" for line in output.splitlines()[:-1])


# -- check: data-driven over the example folders -----------------------------------------------
# Each invalid example's exact output is checked through the API in test_yaml_loading.py and
# here through the CLI, all files in one run.
def test_valid_examples_pass() -> None:
    result = run("check", *map(relative, VALID_PROFILES))
    # No error; a valid example's warnings, if any, are its `.expected` file.
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        valid_output(VALID_PROFILES),
        "",
    )


def test_one_valid_file() -> None:
    result = run("check", relative(VALID_PROFILES[0]))
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        valid_output(VALID_PROFILES[:1]),
        "",
    )


def test_one_invalid_file() -> None:
    example = EXAMPLES / "invalid" / "typo_key.safety_profile.yaml"
    result = run("check", relative(example))
    assert result.returncode == 1
    assert problem_lines(result.stdout) == expected_output_path(example).read_text("utf-8")
    assert result.stdout.splitlines()[-1] == "1 of 1 file invalid"
    assert result.stderr == ""


def test_every_problem_of_every_file_sorted_by_file_and_line() -> None:
    files = [relative(path) for path in reversed(INVALID_PROFILES + VALID_PROFILES)]
    result = run("check", *files)
    assert result.returncode == 1
    expected = "".join(  # the errors, and the valid files' warnings, if any
        expected_output_path(path).read_text("utf-8")
        for path in sorted(INVALID_PROFILES + VALID_PROFILES)
        if expected_output_path(path).is_file()
    )
    assert problem_lines(result.stdout) == expected
    summary = f"{len(INVALID_PROFILES)} of {len(files)} files invalid"
    assert result.stdout.splitlines()[-1] == summary


def test_python_dash_m_runs_the_same_cli() -> None:
    example = relative(INVALID_PROFILES[0])
    module = subprocess.run(
        [sys.executable, "-m", "cleveragents.safety_toolkit", "check", example],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (module.returncode, module.stdout) == (1, run("check", example).stdout)


# -- output formats ----------------------------------------------------------------------------
def test_json_format() -> None:
    typo = "examples/invalid/typo_key.safety_profile.yaml"
    result = run("check", "--format", "json", typo, "examples/valid/crlf.safety_profile.yaml")
    assert result.returncode == 1
    assert json.loads(result.stdout) == [
        {
            "file": typo,
            "line": 2,
            "column": 1,
            "path": "allow_unsafe_tool",
            "message": "unknown field 'allow_unsafe_tool'; did you mean 'allow_unsafe_tools'?",
            "rule": "schema.extra-forbidden",
            "severity": "error",
        }
    ]


def test_json_format_of_valid_files_is_an_empty_array() -> None:
    result = run("check", "--format", "json", relative(VALID_PROFILES[0]))
    assert (result.returncode, json.loads(result.stdout)) == (0, [])


def test_github_format() -> None:
    result = run(
        "check", "--format", "github", "examples/invalid/retries_above_maximum.safety_profile.yaml"
    )
    assert result.returncode == 1
    assert result.stdout == (
        "::error file=examples/invalid/retries_above_maximum.safety_profile.yaml,line=1,col=23,"
        "title=schema.less-than-equal::max_retries_per_step: 500 is above the maximum 100\n"
    )


# -- files that cannot be checked: one line, exit 1, never a traceback -------------------------
def test_missing_directory_fifo_and_binary_files(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.safety_profile.yaml"
    os.mkfifo(fifo)
    binary = tmp_path / "binary.safety_profile.yaml"
    binary.write_bytes(b"\x00\x01\x02\xff")
    result = run("check", "absent.yaml", str(tmp_path), str(fifo), str(binary), cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == ""
    assert result.stdout == (
        f"{tmp_path}: error: is a directory; pass the YAML files inside it [file.directory]\n"
        f"{binary}:1:1: error: the file is binary, not YAML text [yaml.binary]\n"
        f"{fifo}: error: cannot be read (not a regular file); pass a regular YAML file "
        "[file.unreadable]\n"
        "absent.yaml: error: no such file; check the path [file.missing]\n"
        "4 of 4 files invalid\n"
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_file_without_read_permission(tmp_path: Path) -> None:
    locked = tmp_path / "locked.safety_profile.yaml"
    locked.write_text("require_sandbox: true\n")
    locked.chmod(0)
    result = run("check", str(locked))
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.startswith(f"{locked}: error: permission denied; make the file readable")


def test_file_whose_read_fails() -> None:
    # A regular file whose read fails for every user, root included.
    result = run("check", "/proc/self/mem")
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.startswith("/proc/self/mem: error: cannot be read (input/output error)")


def test_symlink_to_a_profile_is_followed(tmp_path: Path) -> None:
    link = tmp_path / "link.safety_profile.yaml"
    link.symlink_to(REPO_ROOT / "examples/invalid/typo_key.safety_profile.yaml")
    result = run("check", str(link))
    assert result.returncode == 1
    assert f"{link}:2:1: error: allow_unsafe_tool:" in result.stdout


def test_check_never_writes_to_the_files_it_checks(tmp_path: Path) -> None:
    files = []
    for example in INVALID_PROFILES + VALID_PROFILES:
        copy = tmp_path / example.name
        copy.write_bytes(example.read_bytes())
        files.append(copy)
    before = {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in files}
    run("check", *map(str, files))
    assert before == {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in files}


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("check",),
        ("check", "--kind", "nonsense", "x.yaml"),
        ("--bogus",),
        ("frobnicate",),
        ("check", "--format", "xml", "x.yaml"),
    ],
)
def test_usage_errors_exit_2_without_traceback(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert "usage:" in result.stderr
    assert "Traceback" not in result.stderr


def test_help_shows_examples_and_exit_codes() -> None:
    result = run("check", "--help")
    assert result.returncode == 0
    assert "safety-profile check safety_profile.yaml" in result.stdout
    assert "exit status: 0 all files valid, 1" in result.stdout


def test_version() -> None:
    from importlib.metadata import version

    result = run("--version")
    assert (result.returncode, result.stdout) == (
        0,
        f"safety-profile {version('cleveragents-safety-profile')}\n",
    )


# -- colour only on a terminal, and never with NO_COLOR ----------------------------------------
def _run_on_a_terminal(*args: str, **env: str) -> str:
    return run_on_a_terminal("safety-profile", *args, env=env).decode()


def test_errors_are_red_on_a_terminal_unless_no_color() -> None:
    typo = "examples/invalid/typo_key.safety_profile.yaml"
    assert "\033[31merror\033[0m" in _run_on_a_terminal("check", typo)
    plain = _run_on_a_terminal("check", typo, NO_COLOR="1")
    assert "\033[" not in plain
    assert ": error: allow_unsafe_tool:" in plain


# -- schema and show ---------------------------------------------------------------------------
def test_schema_prints_the_canonical_schema() -> None:
    result = run("schema")
    assert result.returncode == 0
    assert json.loads(result.stdout) == json.loads(PROFILE_SCHEMA_PATH.read_text("utf-8"))


def test_schema_path_is_the_installed_copy() -> None:
    result = run("schema", "--path")
    installed = Path(result.stdout.strip())
    assert installed.is_absolute()
    assert installed.read_bytes() == PROFILE_SCHEMA_PATH.read_bytes()


def test_show_fills_defaults_and_marks_where_each_value_came_from(tmp_path: Path) -> None:
    source = tmp_path / "safety_profile.yaml"
    source.write_text("max_retries_per_step: 7\nallowed_skill_categories: [' code', code]\n")
    result = run("show", str(source))
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"# Effective SafetyProfile for {source}"
    marks = {line.split(":")[0]: line.rsplit("# ", 1)[1] for line in lines[1:]}
    from_file = {"allowed_skill_categories", "max_retries_per_step"}
    assert marks == {
        name: "from file" if name in from_file else "default" for name in SCHEMA_FIELDS
    }
    # The output is itself a complete, valid profile equal to the input.
    shown = yaml.safe_load(result.stdout)
    assert SafetyProfile.from_config(shown) == SafetyProfile.from_yaml(source)
    assert shown["allowed_skill_categories"] == ["code"]


def test_show_of_an_invalid_file_reports_the_problems() -> None:
    result = run("show", "examples/invalid/typo_key.safety_profile.yaml")
    assert result.returncode == 1
    assert "did you mean 'allow_unsafe_tools'?" in result.stdout


def test_exit_status_survives_a_reader_that_went_away() -> None:
    # `safety-profile check ... | head -1` must still fail the pipeline's check.
    files = [relative(path) for path in INVALID_PROFILES]
    process = subprocess.Popen(
        [CLI, "check", *files], cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    process.stdout.close()  # before the report is written
    assert process.wait() == 1
    assert process.stderr is not None
    assert b"Traceback" not in process.stderr.read()


@pytest.mark.parametrize("where", ["before", "after"])
def test_traceback_option_before_or_after_the_command(where: str, tmp_path: Path) -> None:
    # Accepted in either place: a usage error would exit 2.
    existing = tmp_path / "safety_profile.yaml"
    existing.write_text("{}\n")
    args = ["init", str(existing)]
    args = ["--traceback", *args] if where == "before" else [*args, "--traceback"]
    result = run(*args)
    assert result.returncode == 1  # refused to overwrite: a user error, not an internal one
    assert "Traceback" not in result.stderr
    assert "already exists" in result.stderr


def test_a_file_over_the_size_limit_is_reported_with_its_true_size(tmp_path: Path) -> None:
    """Only the first MiB (and a byte) is read, yet the message gives the file's real size."""
    big = tmp_path / "big.safety_profile.yaml"
    big.write_bytes(b"# " + b"x" * 2_097_150 + b"\n:\n")  # 2,097,155 bytes
    result = run("check", "--format", "json", str(big))
    (problem,) = json.loads(result.stdout)
    assert result.returncode == 1
    assert problem["rule"] == "yaml.too-large"
    assert "2097155" in problem["message"].replace(",", "")
    assert "1048577" not in problem["message"]
    with pytest.raises(ProfileFileError) as raised:
        SafetyProfile.from_yaml(big)
    assert [p.rule for p in raised.value.problems] == ["yaml.too-large"]
    assert "2097155" in str(raised.value).replace(",", "")
