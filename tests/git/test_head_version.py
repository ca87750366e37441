"""`head_version.blob_id`: the id git gives a blob, for both object formats, as `git
hash-object` computes it in a repository of that format (the language server compares it
with HEAD's entry to skip reading HEAD's blob)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cleveragents.safety_toolkit.git.head_version import blob_id

CONTENTS = [b"", b"require_sandbox: true\n", bytes(range(256)) * 300]


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_a_blob_id_is_git_s(tmp_path: Path, object_format: str) -> None:
    subprocess.run(
        ["git", "init", "-q", f"--object-format={object_format}", str(tmp_path)], check=True
    )
    for data in CONTENTS:
        said = subprocess.run(
            ["git", "hash-object", "--stdin"],
            cwd=tmp_path,
            input=data,
            capture_output=True,
            check=True,
        ).stdout.decode()
        assert blob_id(data, len(said.strip())) == said.strip()


def test_an_id_of_another_length_has_no_blob_id() -> None:
    assert blob_id(b"x", 12) is None
