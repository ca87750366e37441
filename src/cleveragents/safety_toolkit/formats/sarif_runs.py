"""One SARIF log of several: the review action (`action.yml`) runs `check` and `diff` for each
kind, each writing a log of one run, and uploads one file. GitHub code scanning takes several
runs of one tool in a file only when each has a category of its own
(`automationDetails.id`): each run gets its log's file name as its category.

    python -m cleveragents.safety_toolkit.formats.sarif_runs FOLDER > review.sarif

reads every `*.sarif` in FOLDER (in name order; an empty file, from a command that stopped
before writing its report, is left out: its exit status says why) and writes the log.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .sarif_log import SARIF_SCHEMA

__all__ = ["combined_log", "main"]


def combined_log(logs: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The runs of each (category, log), each run given its category."""
    runs = []
    for category, log in logs:
        for run in log["runs"]:
            runs.append({**run, "automationDetails": {"id": f"safety-profile/{category}/"}})
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": runs}


def main(argv: Sequence[str] | None = None) -> int:
    (folder,) = sys.argv[1:] if argv is None else argv
    logs = [
        (path.stem, json.loads(text))
        for path in sorted(Path(folder).glob("*.sarif"))
        if (text := path.read_text(encoding="utf-8")).strip()
    ]
    sys.stdout.write(json.dumps(combined_log(logs), indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
