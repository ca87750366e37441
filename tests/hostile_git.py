"""Repositories whose own configuration names commands, as a repository downloaded from anywhere
may: each command leaves a trace (a file named after it in a folder outside the repository), so
a test can assert that reading the repository ran none of them."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from git_repos import git, new_repository, write_files

STRICT = "require_sandbox: true\nmax_retries_per_step: 3\n"
# The same length as STRICT, so that only its content differs: git must read it (through its
# clean filter) to know it changed.
LOOSE_SAME_SIZE = "require_sandbox: fals\nmax_retries_per_step: 3\n"
assert len(LOOSE_SAME_SIZE) == len(STRICT)
ACTION = (
    "name: local/deploy\ndefinition_of_done: Deployed\nstrategy_actor: local/a\n"
    "execution_actor: local/a\nsafety_profile:\n  require_sandbox: true\n"
)
HOOKS = ("post-index-change", "reference-transaction", "post-checkout", "pre-commit")


def trace(traces: Path, name: str) -> str:
    """A shell command that leaves the trace `name` (and succeeds, printing nothing)."""
    return f"touch {shlex.quote(str(traces / name))}"


def traces_left(traces: Path) -> list[str]:
    return sorted(os.listdir(traces))


def configure_commands(repository: Path, traces: Path, prefix: str = "") -> None:
    """Set every command git can be told to run on a read in `repository`'s own config."""
    hooks = traces.parent / f"{prefix}hooks"
    hooks.mkdir(exist_ok=True)
    for hook in HOOKS:
        (hooks / hook).write_text(f"#!/bin/sh\n{trace(traces, prefix + 'hook-' + hook)}\n")
        (hooks / hook).chmod(0o755)
    settings = {
        "core.fsmonitor": trace(traces, prefix + "fsmonitor"),
        "core.hooksPath": str(hooks),
        "core.pager": trace(traces, prefix + "pager"),
        "pager.diff": trace(traces, prefix + "pager-diff"),
        "diff.external": trace(traces, prefix + "external-diff"),
        "diff.evil.textconv": trace(traces, prefix + "textconv") + "; cat",
        "diff.evil.command": trace(traces, prefix + "diff-command"),
        "filter.evil.clean": trace(traces, prefix + "clean") + "; cat",
        "filter.evil.smudge": trace(traces, prefix + "smudge") + "; cat",
        # A name with `=` in it: a `-c KEY=VALUE` override would cut it short.
        "filter.a=b.clean": trace(traces, prefix + "clean-a=b") + "; cat",
        "filter.a=b.required": "true",
        "filter.proc.process": trace(traces, prefix + "process"),
        "core.askPass": trace(traces, prefix + "askpass"),
        "credential.helper": "!" + trace(traces, prefix + "credential"),
        "gpg.program": trace(traces, prefix + "gpg"),
        "log.showSignature": "true",
    }
    for key, value in settings.items():
        git(repository, "config", key, value)


def hostile_repository(folder: Path, traces: Path) -> Path:
    """A repository with a profile and an action, every one of them under a filter, a diff
    driver and a process filter, configured to run commands; the profile is changed on disk
    (same size, so only reading it tells)."""
    attributes = (
        "*.yaml filter=evil diff=evil\nactions/*.yaml filter=a=b\n*.yml filter=proc diff=evil\n"
    )
    new_repository(
        folder,
        {
            ".gitattributes": attributes,
            "prod.safety_profile.yaml": STRICT,
            "other.safety_profile.yml": STRICT,
            "actions/deploy.yaml": ACTION,
        },
    )
    configure_commands(folder, traces)
    write_files(folder, {"prod.safety_profile.yaml": LOOSE_SAME_SIZE})
    os.utime(folder / "prod.safety_profile.yaml", (1, 1))
    # Unchanged, but git cannot tell without reading them (through their filters).
    os.utime(folder / "other.safety_profile.yml", (1, 1))
    os.utime(folder / "actions" / "deploy.yaml", (1, 1))
    return folder


def with_dirty_submodule(outer: Path, traces: Path) -> Path:
    """`outer` holding a submodule `sub` whose own configuration runs commands, with a file in
    its work tree changed (same size: git would filter it to know)."""
    inner = outer.parent / f"{outer.name}-inner"
    inner.mkdir()
    new_repository(
        inner, {".gitattributes": "*.yaml filter=evil\n", "a.safety_profile.yaml": STRICT}
    )
    git(outer, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
    git(outer, "commit", "-q", "-m", "a submodule")
    configure_commands(outer / "sub", traces, prefix="sub-")
    write_files(outer / "sub", {"a.safety_profile.yaml": LOOSE_SAME_SIZE})
    os.utime(outer / "sub" / "a.safety_profile.yaml", (1, 1))
    return outer


def partial_clone(folder: Path, traces: Path) -> Path:
    """A repository that says it is a partial clone whose promisor remotes are commands
    (`ext::`, and ssh through core.sshCommand), with HEAD's profile missing from its objects:
    reading it would fetch it from them."""
    new_repository(folder, {"prod.safety_profile.yaml": STRICT, "actions/deploy.yaml": ACTION})
    blob = git(folder, "rev-parse", "HEAD:prod.safety_profile.yaml").strip()
    (folder / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    ext = trace(traces, "ext").replace(" ", "% ")  # ext:: takes `% ` for a space
    settings = {
        "core.repositoryformatversion": "1",
        "extensions.partialClone": "origin",
        "remote.origin.url": f"ext::sh -c {ext}",
        "remote.origin.promisor": "true",
        "remote.other.url": "ssh://example.invalid/x",
        "remote.other.promisor": "true",
        "core.sshCommand": trace(traces, "ssh"),
        "protocol.allow": "always",
        "protocol.ext.allow": "always",
    }
    for key, value in settings.items():
        git(folder, "config", key, value)
    write_files(folder, {"prod.safety_profile.yaml": LOOSE_SAME_SIZE})
    return folder
