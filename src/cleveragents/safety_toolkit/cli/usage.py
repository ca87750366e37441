"""A usage error found by a command's own option checks (what argparse cannot check): the CLI
reports it as argparse reports its own, with the command's usage, and exits 2."""

from __future__ import annotations

__all__ = ["UsageError"]


class UsageError(Exception):
    """The options given do not go together; the message says how to write them."""
