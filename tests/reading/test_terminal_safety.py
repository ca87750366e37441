"""What a person sees when files are hostile (issue 11, cases 1 and 2): keys, values and file
names holding terminal escapes, control, bidi or format characters, or bytes that are not
UTF-8, through the real CLI, and on a real terminal (a pty read by the pyte emulator)."""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path

import pyte
import pytest
from programs import run_on_a_terminal, run_program

from cleveragents.domain.models.core.safety_profile import SafetyProfile
from cleveragents.reading.problems import ProfileFileError

# The issue's two files, byte for byte.
BAD = b"allow_unsafe_tools: yes\n"
EVIL = b'"\\e[2J\\e[H\\e[2Kok: 2 files valid\\n\\e]0;": 1\n'
EVIL_KEY = "\x1b[2J\x1b[H\x1b[2Kok: 2 files valid\n\x1b]0;"
STRICT_UTF8 = {"PYTHONIOENCODING": "utf-8:strict"}


def hidden_characters(text: str) -> list[str]:
    """Characters a terminal acts on or hides: controls (but line ends), format characters
    (bidi controls, zero-width ones), line and paragraph separators, undecodable bytes."""
    return [
        character
        for character in text
        if character != "\n" and unicodedata.category(character) in {"Cc", "Cf", "Cs", "Zl", "Zp"}
    ]


def run(folder: Path, *args: str, **env: str) -> tuple[int, str, str]:
    result = run_program("safety-profile", *args, cwd=folder, env=env)
    return result.returncode, result.stdout, result.stderr


def screen_after(output: bytes) -> pyte.Screen:
    """The screen of a terminal (VT100/xterm, 500 columns) after it received `output`."""
    screen = pyte.Screen(500, 24)
    pyte.ByteStream(screen).feed(output)
    return screen


def shown_lines(screen: pyte.Screen) -> list[str]:
    return [line.rstrip() for line in screen.display if line.strip()]


@pytest.fixture
def issue_files(tmp_path: Path) -> Path:
    (tmp_path / "bad.yaml").write_bytes(BAD)
    (tmp_path / "evil.yaml").write_bytes(EVIL)
    return tmp_path


# -- case 1: the fake summary -------------------------------------------------------------------
def test_printed_raw_the_evil_key_would_hide_the_report_behind_a_fake_summary(
    issue_files: Path,
) -> None:
    """The attack, as the emulator sees it: the report lines as they were printed before the
    fix (taken from the exact JSON report), with the line ends a terminal gets (CR LF)."""
    _, stdout, _ = run(issue_files, "check", "--format", "json", "bad.yaml", "evil.yaml")
    raw_lines = [
        f"{p['file']}:{p['line']}:{p['column']}: error: {p['path']}: {p['message']}"
        for p in json.loads(stdout)
    ]
    raw_report = "\n".join([*raw_lines, "2 of 2 files invalid"]) + "\n"
    screen = screen_after(raw_report.replace("\n", "\r\n").encode())
    assert shown_lines(screen) == ["ok: 2 files valid"]


def test_on_a_terminal_a_person_sees_the_real_report(issue_files: Path) -> None:
    output = run_on_a_terminal("safety-profile", "check", "bad.yaml", "evil.yaml", cwd=issue_files)
    screen = screen_after(output)
    lines = shown_lines(screen)
    assert len(lines) == 3, lines
    assert lines[0].startswith("bad.yaml:1:")
    assert "allow_unsafe_tools" in lines[0]
    assert lines[1].startswith(
        "evil.yaml:1:1: error: \\x1b[2J\\x1b[H\\x1b[2Kok: 2 files valid\\n\\x1b]0;: unknown field"
    )
    assert lines[2] == "2 of 2 files invalid"
    assert not any(line.startswith("ok:") for line in lines)
    assert screen.title == ""  # the OSC 0 sequence did not set the window title
    # Colour still works: the reporter's own `error` labels are red, the file's text is not.
    label = lines[1].index("error")
    assert [screen.buffer[1][label + i].fg for i in range(5)] == ["red"] * 5
    assert screen.buffer[1][label + len("error: ")].fg == "default"


def test_check_exits_1_and_prints_no_hidden_characters(issue_files: Path) -> None:
    code, stdout, stderr = run(issue_files, "check", "bad.yaml", "evil.yaml")
    assert code == 1
    assert hidden_characters(stdout + stderr) == []
    assert stdout.splitlines()[-1] == "2 of 2 files invalid"


def test_json_stays_exact_and_ascii(issue_files: Path) -> None:
    result = run_program(
        "safety-profile", "check", "--format", "json", "evil.yaml", cwd=issue_files
    )
    assert result.stdout.isascii()
    (problem,) = json.loads(result.stdout)
    assert problem["path"] == EVIL_KEY
    assert problem["rule"] == "schema.extra-forbidden"


def test_github_annotations_cannot_be_forged(issue_files: Path) -> None:
    code, stdout, _ = run(issue_files, "check", "--format", "github", "bad.yaml", "evil.yaml")
    assert code == 1
    lines = stdout.splitlines()
    assert len(lines) == 2
    assert all(line.startswith("::error file=") for line in lines)
    assert lines[1].startswith(
        "::error file=evil.yaml,line=1,col=1,title=schema.extra-forbidden::"
        "\\x1b[2J\\x1b[H\\x1b[2Kok: 2 files valid\\n\\x1b]0;: "
    )
    assert hidden_characters(stdout) == []


def test_the_python_api_error_message_is_escaped_too(issue_files: Path) -> None:
    with pytest.raises(ProfileFileError) as raised:
        SafetyProfile.from_yaml(issue_files / "evil.yaml")
    assert hidden_characters(str(raised.value)) == []
    assert ": error: \\x1b[2J\\x1b[H" in str(raised.value)


# -- every kind of hidden character, in check, show and resolve ---------------------------------
# name: (how the YAML file writes it, how check shows it, how show and resolve show it inside
# a quoted YAML string)
HIDDEN = {
    "escape": ("\\e", "\\x1b", "\\u001b"),
    "carriage return": ("\\r", "\\r", "\\r"),
    "backspace": ("\\b", "\\x08", "\\b"),
    "bell": ("\\a", "\\x07", "\\u0007"),
    "tab": ("\\t", "\\t", "\\t"),
    "newline": ("\\n", "\\n", "\\n"),
    "delete": ("\\x7f", "\\x7f", "\\x7f"),
    "C1 control sequence introducer": ("\\x9b", "\\u009b", "\\u009b"),
    "right-to-left override": ("\\u202e", "\\u202e", "\\u202e"),
    "left-to-right isolate": ("\\u2066", "\\u2066", "\\u2066"),
    "zero width space": ("\\u200b", "\\u200b", "\\u200b"),
    "byte order mark": ("\\ufeff", "\\ufeff", "\\ufeff"),
    "line separator": ("\\L", "\\u2028", "\\u2028"),
    "paragraph separator": ("\\P", "\\u2029", "\\u2029"),
}


@pytest.fixture(scope="module")
def hidden_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """For each character: an invalid profile with it in a key, and a valid one with it in a
    category."""
    folder = tmp_path_factory.mktemp("hidden")
    for index, (written, _, _) in enumerate(HIDDEN.values()):
        (folder / f"key{index:02d}.yaml").write_text(f'"x{written}y": 1\n', encoding="utf-8")
        (folder / f"category{index:02d}.yaml").write_text(
            f'allowed_skill_categories: ["x{written}y"]\n', encoding="utf-8"
        )
    return folder


def test_check_shows_each_hidden_character_in_a_key_escaped(hidden_files: Path) -> None:
    files = [f"key{index:02d}.yaml" for index in range(len(HIDDEN))]
    code, stdout, stderr = run(hidden_files, "check", *files)
    assert code == 1
    assert hidden_characters(stdout + stderr) == []
    lines = stdout.splitlines()
    assert lines[-1] == f"{len(HIDDEN)} of {len(HIDDEN)} files invalid"
    for file, line, (_, shown, _) in zip(files, lines, HIDDEN.values(), strict=False):
        # An unknown field, or (for format characters) a key holding invisible characters.
        assert line.startswith(f"{file}:1:1: error: x{shown}y: "), line


@pytest.mark.parametrize("name", list(HIDDEN))
def test_show_and_resolve_show_a_hidden_character_in_a_value_escaped(
    hidden_files: Path, name: str
) -> None:
    file = f"category{list(HIDDEN).index(name):02d}.yaml"
    shown = HIDDEN[name][2]
    for command in (["show", file], ["resolve", "--project", file]):
        code, stdout, stderr = run(hidden_files, *command)
        assert code == 0, stderr
        assert hidden_characters(stdout + stderr) == []
        assert f'allowed_skill_categories: ["x{shown}y"]' in stdout


# -- case 2: file names that are not UTF-8 -------------------------------------------------------
def name_with_byte_ff(prefix: str, suffix: str) -> str:
    """A file name holding the byte 0xff, as Python's sys.argv and os.listdir hold it."""
    return os.fsdecode(prefix.encode() + b"\xff" + suffix.encode())


@pytest.fixture
def undecodable_names(tmp_path: Path) -> tuple[Path, str, str]:
    invalid = name_with_byte_ff("bad", "_safety_profile.yaml")
    valid = name_with_byte_ff("ok", ".safety_profile.yaml")
    (tmp_path / invalid).write_bytes(b"max_retries_per_step: 500\n")
    (tmp_path / valid).write_bytes(b"max_retries_per_step: 5\n")
    (tmp_path / "other.safety_profile.yaml").write_bytes(b"max_retries_per_step: 501\n")
    return tmp_path, invalid, valid


def test_check_reports_every_file_when_a_name_is_not_utf8(
    undecodable_names: tuple[Path, str, str],
) -> None:
    folder, invalid, _ = undecodable_names
    code, stdout, stderr = run(folder, "check", invalid, "other.safety_profile.yaml", **STRICT_UTF8)
    assert (code, stderr) == (1, "")
    assert stdout.splitlines() == [
        "bad\\xff_safety_profile.yaml:1:23: error: max_retries_per_step: 500 is above the "
        "maximum 100 [schema.less-than-equal]",
        "other.safety_profile.yaml:1:23: error: max_retries_per_step: 501 is above the maximum 100 "
        "[schema.less-than-equal]",
        "2 of 2 files invalid",
    ]


def test_show_and_resolve_of_a_valid_file_whose_name_is_not_utf8(
    undecodable_names: tuple[Path, str, str],
) -> None:
    folder, _, valid = undecodable_names
    code, stdout, stderr = run(folder, "show", valid, **STRICT_UTF8)
    assert (code, stderr) == (0, "")
    assert stdout.splitlines()[0] == "# Effective SafetyProfile for ok\\xff.safety_profile.yaml"
    code, stdout, stderr = run(folder, "resolve", "--project", valid, **STRICT_UTF8)
    assert (code, stderr) == (0, "")
    assert "#   project  ok\\xff.safety_profile.yaml" in stdout


def test_json_and_github_formats_with_a_name_that_is_not_utf8(
    undecodable_names: tuple[Path, str, str],
) -> None:
    folder, invalid, _ = undecodable_names
    code, stdout, _ = run(folder, "check", "--format", "json", invalid, **STRICT_UTF8)
    assert code == 1
    (problem,) = json.loads(stdout)
    assert os.fsencode(problem["file"]) == b"bad\xff_safety_profile.yaml"  # exact
    code, stdout, _ = run(folder, "check", "--format", "github", invalid, **STRICT_UTF8)
    assert code == 1
    assert stdout.startswith("::error file=bad\\xff_safety_profile.yaml,line=1,col=23,")


def test_init_names_a_file_that_is_not_utf8_escaped(tmp_path: Path) -> None:
    name = name_with_byte_ff("starter", ".yaml")
    code, stdout, stderr = run(tmp_path, "init", name, **STRICT_UTF8)
    assert (code, stderr) == (0, "")
    assert stdout.startswith("wrote starter\\xff.yaml; check it with: ")
    assert (tmp_path / name).is_file()
    code, _, stderr = run(tmp_path, "init", name, **STRICT_UTF8)
    assert code == 1
    assert stderr.startswith("safety-profile: starter\\xff.yaml already exists;")


# -- escapes read back one way only -------------------------------------------------------------
def test_a_literal_backslash_never_reads_as_an_escape(tmp_path: Path) -> None:
    names = {
        "a\x1b.safety_profile.yaml": "a\\x1b.safety_profile.yaml",  # an escape character
        "b\\x1b.safety_profile.yaml": "b\\\\x1b.safety_profile.yaml",  # backslash, x, 1, b
        "c\\p.safety_profile.yaml": "c\\p.safety_profile.yaml",  # reads as nothing else
    }
    for name in names:
        (tmp_path / name).write_bytes(b"max_retries_per_step: 500\n")
    code, stdout, _ = run(tmp_path, "check", *names)
    assert code == 1
    shown = [line.split(":1:23: ")[0] for line in stdout.splitlines()[:-1]]
    assert shown == list(names.values())


def test_usage_errors_show_arguments_escaped(tmp_path: Path) -> None:
    code, _, stderr = run(tmp_path, "check", "x.yaml", "--bogus\x1b[2J")
    assert code == 2
    assert "unrecognized arguments: --bogus\\x1b[2J" in stderr
    assert hidden_characters(stderr) == []


def test_init_messages_show_the_name_escaped(tmp_path: Path) -> None:
    name = "starter\x1b[2J\u202e.yaml"
    code, stdout, _ = run(tmp_path, "init", name)
    assert code == 0
    assert stdout == (
        "wrote starter\\x1b[2J\\u202e.yaml; check it with: "
        "safety-profile check starter\\x1b[2J\\u202e.yaml\n"
    )
    assert (tmp_path / name).is_file()
    code, _, stderr = run(tmp_path, "init", name)
    assert code == 1
    assert hidden_characters(stderr) == []
    assert "starter\\x1b[2J\\u202e.yaml already exists" in stderr
