"""PyYAML's reader pattern, seeded in `re`'s cache by `cleveragents.reading` (see
`reading/yaml_reader_pattern.py`): the same characters, and still the pattern PyYAML compiles.
Not timed: benchmarks/check_speed.py measures."""

from __future__ import annotations

import re
import subprocess
import sys

from cleveragents.reading.yaml_reader_pattern import NON_PRINTABLE, SAME_CHARACTERS


def _in_a_fresh_process(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def test_the_seeded_pattern_finds_exactly_the_characters_pyyaml_refuses() -> None:
    """Every code point, surrogates included: the two patterns find the same ones."""
    every = "".join(map(chr, range(sys.maxunicode + 1)))
    # With the flag str patterns have anyway: another cache key, so compiled as written.
    original = re.compile(NON_PRINTABLE, re.UNICODE)
    found = [match.start() for match in original.finditer(every)]
    assert found == [match.start() for match in re.finditer(SAME_CHARACTERS, every)]
    assert 0x85 not in found
    assert {0x0, 0x7F, 0xD800, 0xFFFF} <= set(found)


def test_pyyaml_still_compiles_the_pattern_that_is_seeded() -> None:
    """Imported alone, PyYAML's reader compiles NON_PRINTABLE as written here (else the seed
    would sit unused: update it from yaml/reader.py)."""
    code = (
        "import yaml\n"
        "from cleveragents.reading.yaml_reader_pattern import NON_PRINTABLE\n"
        "print(yaml.reader.Reader.NON_PRINTABLE.pattern == NON_PRINTABLE)"
    )
    # `cleveragents.reading` is imported after `yaml` here: nothing is seeded.
    assert _in_a_fresh_process(code) == "True"


def test_the_reading_package_seeds_it_before_yaml_is_imported() -> None:
    code = (
        "import cleveragents.reading, yaml\n"
        "from cleveragents.reading.yaml_reader_pattern import SAME_CHARACTERS\n"
        "print(yaml.reader.Reader.NON_PRINTABLE.pattern == SAME_CHARACTERS)"
    )
    assert _in_a_fresh_process(code) == "True"
