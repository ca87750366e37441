"""Safety profiles in an application's database (the optional `[db]` extra).

* `SafetyProfileJSON`: the SQLAlchemy type of the `safety_profile_json` column;
* `StoredSafetyProfileError`: a stored value cannot be read back (table, row key, field, why);
* `naming_rows(session)`: reads inside it name the row keys in that error;
* `cleveragents.persistence.migrations`: migration `c4_001_safety_profile_column` for Alembic.
"""

from __future__ import annotations

try:
    import sqlalchemy  # noqa: F401
except ModuleNotFoundError as missing:  # pragma: no cover - depends on what is installed
    raise ModuleNotFoundError(
        "cleveragents.persistence needs SQLAlchemy: pip install 'cleveragents-safety-profile[db]'",
        name=missing.name,
    ) from missing

from .column_type import RowKey, SafetyProfileJSON, StoredSafetyProfileError
from .row_keys import naming_rows

__all__ = ["RowKey", "SafetyProfileJSON", "StoredSafetyProfileError", "naming_rows"]
