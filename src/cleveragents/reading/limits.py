"""Resource bounds for reading one document (documented in the README)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LoadLimits:
    """Resource bounds for one document."""

    max_bytes: int = 1024 * 1024
    max_depth: int = 64
    max_nodes: int = 100_000


DEFAULT_LIMITS = LoadLimits()
