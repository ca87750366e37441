"""Write the profile schema's starter snippet from the schema's own properties.

The top-level `defaultSnippets[0].bodyText` of schema/safety_profile.schema.json lists every
field at its default, each a numbered tab stop (`${1:[]}`, `${2:true}`, ...). This writes it from
`properties` (their order and `default`), so a new field needs no hand-numbered edit:

    .venv/bin/python scripts/generate_snippets.py

tests/schema/test_schema_snippets.py fails when the committed schema differs from what this writes.
Only the one `bodyText` string is replaced; the rest of the file keeps its layout. After running
it, `pip install -e .` again (the environment holds a copy of schema/).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROFILE_SCHEMA = ROOT / "schema" / "safety_profile.schema.json"
# The first "bodyText" of the file is the top-level starter snippet's.
_BODY_TEXT = re.compile(r'"bodyText": "(?:[^"\\]|\\.)*"')


def starter_body(schema: dict[str, Any]) -> str:
    """Every property at its default (as YAML flow text), one numbered tab stop each."""
    return "\n".join(
        f"{name}: ${{{number}:{json.dumps(prop['default'])}}}"
        for number, (name, prop) in enumerate(schema["properties"].items(), start=1)
    )


def with_starter_snippet(text: str) -> str:
    """The schema file's text with its starter snippet's body written from its properties."""
    body = json.dumps(starter_body(json.loads(text)), ensure_ascii=False)
    return _BODY_TEXT.sub(lambda _: f'"bodyText": {body}', text, count=1)


def main() -> int:
    text = PROFILE_SCHEMA.read_text(encoding="utf-8")
    PROFILE_SCHEMA.write_text(with_starter_snippet(text), encoding="utf-8")
    print(f"wrote the starter snippet of {PROFILE_SCHEMA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
