"""Which two revisions a GitHub Actions run reviews (the action's `base` and `head` inputs
when given, else the event's), for the action's fetch step (`action.yml`):

    python -m cleveragents.safety_toolkit.github_event BASE HEAD

prints the base revision, the head revision and the commit the head must merge, one a line:
the base empty for the empty tree (a push that creates a branch); the last empty but for a pull
request, whose head revision is GitHub's merge commit of the head commit the event names. The
action checks the merge commit it fetched against that commit: `refs/pull/N/merge` moves when
the pull request is pushed again, and GitHub updates it some time after the push, so the ref
may merge another head than the one the event (and the check's result) is about.

The event's values come from GitHub (`GITHUB_EVENT_NAME`, the payload at `GITHUB_EVENT_PATH`,
`GITHUB_SHA`), never from the pull request's files: commit ids, and `refs/pull/N/merge`, which
GitHub writes; no branch name, which the pull request's author chooses, is ever used.

* `pull_request`: the pull request's base commit, and the merge commit GitHub made of it
  (`GITHUB_SHA`): exactly what merging would change;
* `pull_request_target`: the same base, and `refs/pull/N/merge` (`GITHUB_SHA` is the base
  branch's commit there);
* `merge_group`: the merge group's base and head commits;
* `push`: `before` and `after` (a new branch: the empty tree, so every profile is added).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["main", "merged_head", "revisions"]

_COMMIT = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?")
_NO_COMMIT = re.compile(r"0{40}(0{24})?")


class EventError(Exception):
    """The event does not say which revisions to compare; the message says what to give."""


def _commit(value: Any, what: str) -> str:
    if not isinstance(value, str) or not _COMMIT.fullmatch(value):
        raise EventError(f"the event's {what} is not a commit id: {value!r}")
    return value


def revisions(environ: Mapping[str, str], event: Mapping[str, Any]) -> tuple[str, str]:
    """(base, head) for the event `environ` names, `event` its payload; base "" for the empty
    tree. EventError for an event without two revisions."""
    name = environ.get("GITHUB_EVENT_NAME", "")
    if name in ("pull_request", "pull_request_target"):
        request = event.get("pull_request") or {}
        base = _commit((request.get("base") or {}).get("sha"), "pull_request.base.sha")
        if name == "pull_request":
            return base, _commit(environ.get("GITHUB_SHA"), "GITHUB_SHA")
        number = request.get("number")
        if not isinstance(number, int) or number < 1:
            raise EventError(f"the event's pull_request.number is not a number: {number!r}")
        return base, f"refs/pull/{number}/merge"
    if name == "merge_group":
        group = event.get("merge_group") or {}
        return (
            _commit(group.get("base_sha"), "merge_group.base_sha"),
            _commit(group.get("head_sha"), "merge_group.head_sha"),
        )
    if name == "push":
        before = event.get("before")
        new_branch = isinstance(before, str) and _NO_COMMIT.fullmatch(before) is not None
        base = "" if new_branch else _commit(before, "before")
        return base, _commit(event.get("after"), "after")
    raise EventError(
        f"a {name or 'run without an event'} event names no two revisions to compare; give the "
        "action's base and head inputs"
    )


def merged_head(environ: Mapping[str, str], event: Mapping[str, Any]) -> str:
    """The commit the event's head revision must merge (its second parent): a pull request's
    head commit; "" for the other events, whose head is the commit itself. EventError for a
    pull request event without one."""
    if environ.get("GITHUB_EVENT_NAME", "") not in ("pull_request", "pull_request_target"):
        return ""
    head = ((event.get("pull_request") or {}).get("head") or {}).get("sha")
    return _commit(head, "pull_request.head.sha")


def main(argv: Sequence[str] | None = None) -> int:
    base, head = [*(sys.argv[1:] if argv is None else argv), "", ""][:2]
    merges = ""  # a head given as an input is taken as it is
    try:
        if not (base and head):
            path = os.environ.get("GITHUB_EVENT_PATH", "")
            with open(path, encoding="utf-8") as file:
                event = json.load(file)
            from_event = revisions(os.environ, event)
            if not head:
                merges = merged_head(os.environ, event)
            base, head = base or from_event[0], head or from_event[1]
    except (OSError, ValueError, EventError) as error:
        print(f"safety-profile review: {error}", file=sys.stderr)
        return 2
    print(f"{base}\n{head}\n{merges}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
