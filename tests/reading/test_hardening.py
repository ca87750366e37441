"""Hardening: the checker must never be the weak point of a security control.

* fuzzing (hypothesis): no input makes the loader raise, and nothing the schema rejects is
  ever loaded as a SafetyProfile or an Action;
* the real CLI over a batch of random files: no traceback, only well-formed report lines;
* concurrency: several processes checking the same files agree and write nothing;
* no network: every `$ref` resolves from the installed package and the CLI works without one.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    EXAMPLES,
    INVALID_PROFILES,
    REPO_ROOT,
    VALID_PROFILES,
    relative,
)
from fuzz_oracle import assert_accepted_means_the_same_to_every_reader, installed_registry
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from programs import BIN, run_program

from cleveragents.reading.rules import Severity
from cleveragents.safety_toolkit.core.kinds import KINDS

ACTION_EXAMPLES = sorted((EXAMPLES / "actions").rglob("*.yaml"))
SEEDS = [path.read_bytes() for path in VALID_PROFILES + INVALID_PROFILES + ACTION_EXAMPLES]
SEVERITIES = "|".join(Severity)  # error, warning (a valid file's advice) or hint
REPORT_LINE = re.compile(
    rf"^(\S+:\d+:\d+: ({SEVERITIES}): \S+: .+|\S+: ({SEVERITIES}): .+|\d+ of \d+ files? invalid)$"
)


# -- schemas resolve offline from the installed package ----------------------------------------
def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [ref for value in node.values() for ref in _refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in _refs(value)]
    return []


def test_every_ref_in_the_shipped_schemas_resolves_from_the_installed_package() -> None:
    schemas = [
        json.loads(KINDS[kind].schema_path().read_text(encoding="utf-8")) for kind in sorted(KINDS)
    ]
    # The action's schema refers to the profile's and the automation profile's; the profile's
    # refers to nothing, so the action's refs are what this test resolves.
    refs = {schema["$id"]: _refs(schema) for schema in schemas}
    assert sum(map(len, refs.values())) >= 2, refs
    for base_uri, found in refs.items():
        resolver = installed_registry().resolver(base_uri=base_uri)
        for ref in found:
            resolver.lookup(ref)  # raises when it would need the network


# -- fuzzing the loader and the validation path ------------------------------------------------
yaml_alphabet = st.sampled_from(
    [
        *"abcdefnorstuy:-[]{},'\"!&*#?|>%@`~. \t\n\r0123456789eE+\x01\x7f\x85",
        *["\n  ", ": ", "- ", "---\n", "...\n", "<<: ", "!!python/", "&a ", "*a", "\ufeff", "\x00"],
    ]
)


@st.composite
def mutated_seed(draw: st.DrawFn) -> bytes:
    """A real example with a few bytes replaced, inserted or deleted."""
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 6))):
        position = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "replace", "delete"]))
        piece = draw(yaml_alphabet).encode("utf-8")
        if action == "insert" or not data:
            data[position:position] = piece
        elif action == "replace":
            data[position : position + len(piece)] = piece
        else:
            del data[position : position + draw(st.integers(1, 8))]
    return bytes(data)


FUZZ_SETTINGS = settings(
    max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@FUZZ_SETTINGS
@given(mutated_seed())
def test_fuzz_mutated_examples(data: bytes) -> None:
    assert_accepted_means_the_same_to_every_reader(data)


@FUZZ_SETTINGS
@given(st.binary(max_size=300))
def test_fuzz_random_bytes(data: bytes) -> None:
    assert_accepted_means_the_same_to_every_reader(data)


@FUZZ_SETTINGS
@given(st.lists(yaml_alphabet, max_size=60).map(lambda parts: "".join(parts).encode()))
def test_fuzz_yaml_shaped_text(data: bytes) -> None:
    assert_accepted_means_the_same_to_every_reader(data)


def test_cli_on_a_batch_of_random_files_never_shows_a_traceback(tmp_path: Path) -> None:
    rng = random.Random(7)
    files = []
    for index in range(300):
        data = bytearray(rng.choice(SEEDS))
        for _ in range(rng.randint(1, 4)):
            position = rng.randint(0, len(data))
            data[position:position] = rng.choice(
                [b":", b"- ", b"[", b"{", b"\t", b"yes", b"!!x ", b"&a ", b"*a", b"\xff", b"\n  "]
            )
        path = tmp_path / f"random{index:03d}.safety_profile.yaml"
        path.write_bytes(bytes(data))
        files.append(str(path))
    for kind in sorted(KINDS):
        result = run_program("safety-profile", "check", "--kind", kind, *files)
        assert result.returncode in (0, 1)
        assert result.stderr == ""
        for line in result.stdout.splitlines():
            assert REPORT_LINE.match(line), line


# -- bounds the issue found missing, through the real CLI ---------------------------------------
ACTION_HEAD = (
    "name: local/deploy\ndefinition_of_done: Deployed\n"
    "strategy_actor: local/default\nexecution_actor: local/default\n"
)


def _limited_to_one_gibibyte() -> None:
    """Run in the child before exec: an unbounded expansion fails with MemoryError here
    instead of taking the machine's memory."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))


def test_a_4000_digit_integer_is_refused_and_every_other_file_is_still_reported(
    tmp_path: Path,
) -> None:
    huge = tmp_path / "huge.safety_profile.yaml"
    huge.write_text("max_retries_per_step: 0x" + "f" * 4000 + "\n")
    other = tmp_path / "other.safety_profile.yaml"
    other.write_text("max_retries_per_step: 500\n")
    result = run_program("safety-profile", "check", str(huge), str(other))
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.splitlines() == [
        f"{huge}:1:23: error: max_retries_per_step: an integer of 4000 digits is longer than "
        "the limit of 40 digits; write a shorter number [yaml.integer-too-long]",
        f"{other}:1:23: error: max_retries_per_step: 500 is above the maximum 100 "
        "[schema.less-than-equal]",
        "2 of 2 files invalid",
    ]


@pytest.mark.parametrize("command", ["check", "show"])
def test_a_600_kb_string_expanded_64000_times_is_refused_in_bounded_memory(
    tmp_path: Path, command: str
) -> None:
    # Under 100,000 values, so the value bound alone let it through: 38 GB of text for `show`.
    text = ACTION_HEAD + 'notes: &n "' + "x" * 600_000 + '"\n'
    text += "one: &a [" + ", ".join(["*n"] * 40) + "]\n"
    text += "two: &b [" + ", ".join(["*a"] * 40) + "]\n"
    text += "three: [" + ", ".join(["*b"] * 40) + "]\n"
    path = tmp_path / "deploy.yaml"
    path.write_text(text)
    result = subprocess.run(
        [str(BIN / "safety-profile"), command, "--kind", "action", str(path)],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=_limited_to_one_gibibyte,
    )
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.splitlines() == [
        f"{path}:6:1: error: one: the document's text expands to more than 1048576 characters "
        "through aliases (an alias bomb?); simplify it [yaml.too-much-text]",
        "1 of 1 file invalid",
    ]


# -- concurrency: pre-commit runs several processes at once ------------------------------------
def test_parallel_processes_agree_and_write_nothing(tmp_path: Path) -> None:
    files = []
    for example in INVALID_PROFILES + VALID_PROFILES:
        copy = tmp_path / example.parent.name / example.name
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(example.read_bytes())
        files.append(copy)
    before = {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in files}
    command = [str(BIN / "safety-profile"), "check", *map(str, files)]
    processes = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    outputs = {(*process.communicate(), process.returncode) for process in processes}
    assert len(outputs) == 1
    ((stdout, stderr, returncode),) = outputs
    assert (returncode, stderr) == (1, "")
    assert stdout.count(": error: ") >= len(INVALID_PROFILES)
    assert before == {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in files}
    assert sorted(tmp_path.rglob("*.*")) == sorted(files)  # no cache or temporary files left


# -- no network ----------------------------------------------------------------------------------
def _without_network(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a new network namespace (no interface but a down loopback)."""
    return subprocess.run(
        ["unshare", "--net", str(BIN / "safety-profile"), *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def _network_namespaces_available() -> bool:
    probe = subprocess.run(["unshare", "--net", "true"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.skipif(not _network_namespaces_available(), reason="needs unshare --net (root)")
@pytest.mark.parametrize(
    "args",
    [
        ("check", *map(relative, VALID_PROFILES + INVALID_PROFILES)),
        ("check", "--kind", "action", *map(relative, ACTION_EXAMPLES)),
        (
            "show",
            "--kind",
            "action",
            relative(sorted((EXAMPLES / "actions/valid").glob("*.yaml"))[0]),
        ),
        ("schema", "--kind", "action"),
    ],
    ids=["profiles", "actions", "show-action", "schema"],
)
def test_the_cli_works_the_same_with_no_network(args: tuple[str, ...]) -> None:
    offline = _without_network(*args)
    online = run_program("safety-profile", *args)
    assert (offline.returncode, offline.stdout, offline.stderr) == (
        online.returncode,
        online.stdout,
        online.stderr,
    )


def test_checking_opens_no_socket(tmp_path: Path) -> None:
    # Belt and braces beside the namespace test: any socket the process opens is an error.
    (tmp_path / "sitecustomize.py").write_text(
        "import socket\n"
        "class NoSocket(socket.socket):\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        raise OSError('network used during a check')\n"
        "socket.socket = NoSocket\n"
        "socket.create_connection = lambda *a, **k: NoSocket()\n",
        encoding="utf-8",
    )
    files = [*map(relative, VALID_PROFILES + INVALID_PROFILES)]
    result = run_program("safety-profile", "check", *files, env={"PYTHONPATH": str(tmp_path)})
    assert result.returncode == 1
    assert "network used" not in result.stdout + result.stderr
    assert result.stdout == run_program("safety-profile", "check", *files).stdout
