"""A usage error found by a command's own option checks (what argparse cannot check): an error of
the core, which the CLI reports as argparse reports its own, with the usage, and exit 2."""

from __future__ import annotations

__all__ = ["UsageError"]


class UsageError(Exception):
    """The options given do not go together; the message says how to write them."""
