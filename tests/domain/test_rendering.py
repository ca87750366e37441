"""`rendering.json_text` writes what `json.dumps(value, ensure_ascii=False)` writes, for every
value a document can hold and more (every float, every code point, keys of each JSON kind):
`diff` and `show` print values with it, without importing json."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.domain.models.core.rendering import json_text, yaml_value

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(st.characters(codec=None))  # lone surrogates, controls, bidi marks too
)
KEYS = st.text(st.characters(codec=None)) | st.integers() | st.floats() | st.booleans() | st.none()
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(KEYS, inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(deadline=None)
@given(VALUES)
def test_json_text_is_json_dumps(value: Any) -> None:
    assert json_text(value) == json.dumps(value, ensure_ascii=False)


@pytest.mark.parametrize("value", [{1, 2}, b"bytes", object(), {(1, 2): 3}])
def test_what_json_refuses_is_refused(value: Any) -> None:
    with pytest.raises(TypeError):
        json.dumps(value)
    with pytest.raises(TypeError):
        json_text(value)


def test_a_value_on_a_terminal_is_escaped_json() -> None:
    assert yaml_value(["a\u202eb", 'q"\\', 1.5, None]) == '["a\\u202eb", "q\\"\\\\", 1.5, null]'


def test_values_are_written_without_importing_json() -> None:
    script = (
        "import sys\n"
        "from cleveragents.domain.models.core.rendering import yaml_value\n"
        "yaml_value({'a': [1, 2.5, None, True, 'x\\n']})\n"
        "print('json' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert result.stdout == "False\n", result.stderr
