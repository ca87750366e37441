"""A finding becomes words in one function (`labelled`): `loosens: FIELD: old → new` after the
place in text (and in the editor), `FIELD loosens: old → new` in GitHub annotations and SARIF
results, which are shown under their file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cleveragents.reading.problems import labelled
from cleveragents.safety_toolkit.cli.main import main
from cleveragents.safety_toolkit.formats import format_names

DETAIL = "100.0 → null (no limit)"


def _diff(tmp_path: Path, capsys: pytest.CaptureFixture[str], output_format: str) -> str:
    old, new = tmp_path / "old.safety_profile.yaml", tmp_path / "new.safety_profile.yaml"
    old.write_text("max_total_cost: 100.0\n", encoding="utf-8")
    new.write_text("max_total_cost: null\n", encoding="utf-8")
    assert main(["diff", "--format", output_format, str(old), str(new)]) == 1
    return capsys.readouterr().out


@pytest.mark.parametrize("output_format", format_names("diff"))
def test_every_format_words_a_finding_with_the_one_function(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output_format: str
) -> None:
    out = _diff(tmp_path, capsys, output_format)
    if output_format == "json":  # for scripts: the parts, not the words
        change = json.loads(out)["changes"][0]
        assert (change["path"], change["change"], change["message"]) == (
            "max_total_cost",
            "loosens",
            DETAIL,
        )
        return
    field_first = output_format in ("github", "sarif")
    words = labelled("loosens", "max_total_cost", DETAIL, field_first=field_first)
    if output_format == "sarif":
        assert json.loads(out)["runs"][0]["results"][0]["message"]["text"] == words
    elif output_format == "github":
        assert out.endswith(f"::{words}\n")
    else:
        assert out.splitlines()[0].endswith(f":1:17: {words} [loosens.max_total_cost]")


def test_the_two_shapes() -> None:
    assert labelled("loosens", "max_total_cost", DETAIL) == f"loosens: max_total_cost: {DETAIL}"
    assert labelled("loosens", "max_total_cost", DETAIL, field_first=True) == (
        f"max_total_cost loosens: {DETAIL}"
    )
    assert labelled("added", "", "a profile", field_first=True) == "added: a profile"
    assert labelled("added", "", "a profile") == "added: a profile"
