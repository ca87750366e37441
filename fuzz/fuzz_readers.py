"""Grammar-based differential fuzzing of the loader against the other readers (run outside CI).

    .venv/bin/python fuzz/fuzz_readers.py 100000

Documents are built from pieces of YAML syntax that readers tend to disagree on (tabs, quotes,
flow indicators, anchors, tags, block scalar headers, number spellings, document markers). For
each document the loader accepts, PyYAML's safe_load, PyYAML on libyaml and check-jsonschema's
loader must read the same value (tests/fuzz_oracle.py); every document where one does not is
printed with what each reader made of it. The exit status is 1 when any was found.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzz_oracle import readers_that_disagree

PIECES = [
    *("a", "b", "key", "0", "1", "010", "0x1F", "1.5", "1e3", ".inf", "true", "yes", "~"),
    *("null", "-", "?", ":", "::", ",", "[", "]", "{", "}", "#", " #c", "'", '"', "\\"),
    *("\\t", "\\n", "\\/", "\t", " ", "  ", "\n", "\r\n", "\n  ", "\n- ", "\n  - ", ": "),
    *("- ", "? ", "&x ", "*x", "!!str ", "!!int ", "! ", "|", ">", "|-", ">+", "|2", "..."),
    *("\n---", "%", "@", "`", "=", "<<", "é", "\u00a0", "\u3000", "\\u00e9", "\\x41", "\\N"),
    *("\\_", "'' ", '"" ', "\n...", "\n--- ", "\n#", "\t#", "  #", "\\\n", '"\n', "'\n"),
    *("\n\n", " \t", "\t\n", "0o7", "0b1", "1_0", "1:2", "+1", "-0", ".5", "5.", "1e+3"),
    *("1.0e+3", "!!float ", "!!bool ", "!!null ", "y", "n", "on", "Off", "~:", "2001-01-01"),
]
DOCUMENTS = st.lists(st.sampled_from(PIECES), min_size=1, max_size=25).map("".join)


def main(examples: int) -> int:
    found: list[tuple[str, dict[str, str]]] = []

    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate],
        database=None,
    )
    @given(DOCUMENTS)
    def run(text: str) -> None:
        disagreeing = readers_that_disagree(text.encode("utf-8"))
        if disagreeing:
            found.append((text, disagreeing))

    run()
    for text, disagreeing in found:
        print(repr(text), {reader: read[:100] for reader, read in disagreeing.items()})
    print(f"{examples} documents, {len(found)} read otherwise by another reader")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000))
