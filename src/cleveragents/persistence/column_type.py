"""`SafetyProfileJSON`: the SQLAlchemy type of the `safety_profile_json` column.

Python `SafetyProfile` <-> JSONB on PostgreSQL, JSON text elsewhere; SQL NULL <-> `None`. A
stored value that cannot be read back raises `StoredSafetyProfileError`, never a silent default.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Column, Dialect, Table, Text, event
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import TypeDecorator, TypeEngine

from cleveragents.domain.models.core.safety_profile import SafetyProfile

from .stored_json import (
    UnreadableProfileJSON,
    profile_from_stored,
    profile_to_json,
    profile_to_mapping,
)

__all__ = ["RowKey", "SafetyProfileJSON", "StoredSafetyProfileError"]

RowKey = tuple[tuple[str, Any], ...]
"""A row's primary key as (column name, value) pairs: `(("id", 7),)`."""

_FIX = "fix the stored JSON, or set the field to NULL for no profile"


def render_row_key(row_key: RowKey) -> str:
    """`id=7` (`a=1, b='x'` for a composite key)."""
    return ", ".join(f"{name}={value!r}" for name, value in row_key)


class StoredSafetyProfileError(ValueError):
    """A stored safety profile cannot be read back: says where (table, row key, field) and why.

    `column` is the Column the value came from when the type knows it; `row_keys` are the
    primary keys of the rows holding the value, filled in by `naming_rows`."""

    def __init__(
        self,
        reason: str,
        stored_value: object,
        column: Column[Any] | None,
        row_keys: Sequence[RowKey] = (),
    ) -> None:
        self.reason = reason
        self.stored_value = stored_value
        self.column = column
        self.row_keys: tuple[RowKey, ...] = tuple(row_keys)
        super().__init__(f"{self._where()}: {reason}; {_FIX}")

    @property
    def table_name(self) -> str | None:
        table = getattr(self.column, "table", None)
        return table.fullname if isinstance(table, Table) else None

    @property
    def field_name(self) -> str | None:
        return self.column.name if self.column is not None else None

    def _where(self) -> str:
        if self.table_name is None or self.field_name is None:
            return "a stored safety profile (its table and row are not known here)"
        if not self.row_keys:
            return (
                f"table {self.table_name}, field {self.field_name}, row not known here "
                "(read inside `with naming_rows(session):` to name it)"
            )
        rows = "; ".join(render_row_key(key) for key in self.row_keys)
        label = "row" if len(self.row_keys) == 1 else "rows"
        return f"table {self.table_name}, {label} {rows}, field {self.field_name}"

    def at_rows(self, row_keys: Sequence[RowKey]) -> StoredSafetyProfileError:
        """The same error, naming the rows that hold the value."""
        return StoredSafetyProfileError(self.reason, self.stored_value, self.column, row_keys)


def stored_type(dialect: Dialect) -> TypeEngine[Any]:
    """The column's type in `dialect`'s database: JSONB on PostgreSQL (the server checks the
    JSON and can index and query it), text elsewhere. `none_as_null`: `None` is SQL NULL, never
    the JSON `null`."""
    if dialect.name == "postgresql":
        return JSONB(none_as_null=True)
    return Text()


def _storable_in_jsonb(stored: dict[str, Any]) -> dict[str, Any]:
    """`stored`, unless a string in it holds U+0000, which PostgreSQL cannot store in JSONB:
    then a ValueError naming the field, instead of the driver's error after the round trip.
    (Profiles read from YAML never hold it: the loader refuses control characters.)"""
    for field, value in stored.items():
        items = enumerate(value) if isinstance(value, list) else [(None, value)]
        for index, item in items:
            if isinstance(item, str) and "\x00" in item:
                where = field if index is None else f"{field}[{index}]"
                raise ValueError(
                    f"a safety_profile_json value cannot hold the character U+0000 ({where}): "
                    "PostgreSQL cannot store it in JSONB; remove it from the profile"
                )
    return stored


class SafetyProfileJSON(TypeDecorator[SafetyProfile]):
    """Stores a `SafetyProfile`: JSONB on PostgreSQL, its `model_dump_json()` text elsewhere;
    NULL is `None`.

    `mapped_column(SafetyProfileJSON)` or `Column("safety_profile_json", SafetyProfileJSON)`.
    Reading validates with `SafetyProfile.model_validate`; a value that is not valid JSON or no
    longer valid against the schema raises `StoredSafetyProfileError`. Writing stores only what
    reads back as the same profile (a `model_construct` one may not: `UnwritableProfile`)."""

    impl = Text
    cache_ok = True

    # The columns this type object is attached to (see `_remember_column`): the type alone
    # does not know where a value came from, and an error must say.
    _columns: tuple[Column[Any], ...] = ()

    @property
    def python_type(self) -> type[SafetyProfile]:
        return SafetyProfile

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        return dialect.type_descriptor(stored_type(dialect))

    def process_bind_param(self, value: SafetyProfile | None, dialect: Dialect) -> object:
        if value is None:
            return None
        if not isinstance(value, SafetyProfile):
            raise TypeError(
                f"a safety_profile_json value must be a SafetyProfile or None, not "
                f"{type(value).__name__}; build one with SafetyProfile.from_config(...)"
            )
        if dialect.name == "postgresql":
            # JSONB's own processor turns the mapping into JSON.
            return _storable_in_jsonb(profile_to_mapping(value))
        return profile_to_json(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> SafetyProfile | None:
        if value is None:
            return None
        try:
            return profile_from_stored(value)
        except UnreadableProfileJSON as error:
            raise StoredSafetyProfileError(str(error), value, self._source_column()) from None

    def _source_column(self) -> Column[Any] | None:
        in_tables = [
            column for column in self._columns if getattr(column, "table", None) is not None
        ]
        # One type object shared by several table columns cannot tell which one a value is from.
        return in_tables[0] if len(in_tables) == 1 else None


@event.listens_for(SafetyProfileJSON, "after_parent_attach")
def _remember_column(column_type: SafetyProfileJSON, column: Column[Any]) -> None:
    column_type._columns = (*column_type._columns, column)
