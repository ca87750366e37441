"""Coverage-guided fuzzing of the whole check path with atheris (run outside CI).

    .venv/bin/pip install atheris
    mkdir -p build/fuzz-corpus
    .venv/bin/python fuzz/fuzz_check.py -atheris_runs=1000000 -artifact_prefix=build/ \
        build/fuzz-corpus examples/valid examples/invalid examples/actions/valid

The example folders seed it; libFuzzer writes new inputs only to the first folder. The oracle
is the test suite's (tests/fuzz_oracle.py): a crash is any exception escaping the check, or a
document the schema rejects loaded as a valid model.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

with atheris.instrument_imports():
    from fuzz_oracle import assert_accepted_means_the_same_to_every_reader


if __name__ == "__main__":
    atheris.Setup(sys.argv, assert_accepted_means_the_same_to_every_reader)
    atheris.Fuzz()
