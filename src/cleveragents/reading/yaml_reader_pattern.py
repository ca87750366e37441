"""PyYAML's import made cheaper by a seventeenth of a `check`: its pure-Python reader compiles,
when `yaml` is imported, a character class of the whole of Unicode (`Reader.NON_PRINTABLE`),
which `re` compiles character by character (~4 ms). We read with libyaml and never use that
reader; but `yaml` cannot be imported without it.

`seed()`, called before anything imports `yaml` (`cleveragents.reading`'s `__init__`), puts in
`re`'s cache, under PyYAML's pattern, the same set of characters written as four classes of at
most two ranges each, which `re` compiles in a fraction of the time. It matches exactly the
same characters (tests/reading/test_yaml_reader_pattern.py checks every code point); only its
`.pattern` differs. Where `re` keeps no such cache (another Python), nothing is seeded and
PyYAML compiles its own, as before."""

from __future__ import annotations

import re
import sys

__all__ = ["NON_PRINTABLE", "SAME_CHARACTERS", "seed"]

# `yaml.reader.Reader.NON_PRINTABLE`'s pattern, as PyYAML 6 writes it: what YAML 1.1 allows.
NON_PRINTABLE = "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
# Its complement in Unicode: C0 controls but tab and line breaks, DEL and C1 controls but NEL,
# surrogates, U+FFFE and U+FFFF.
SAME_CHARACTERS = "[\x00-\x08\x0b\x0c]|[\x0e-\x1f\x7f-\x84]|[\x86-\x9f]|[\ud800-\udfff\ufffe\uffff]"


def seed() -> None:
    """Let `re.compile(NON_PRINTABLE)` return `SAME_CHARACTERS` compiled, if `yaml` is not
    imported yet and `re` caches compiled patterns by (type, pattern, flags)."""
    cache = getattr(re, "_cache", None)
    if "yaml" in sys.modules or not isinstance(cache, dict):
        return
    cache.setdefault((str, NON_PRINTABLE, 0), re.compile(SAME_CHARACTERS))
