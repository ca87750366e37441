"""Name the rows behind a `StoredSafetyProfileError`.

A column type sees one value, never its row; the row keys are found afterwards by looking up
which rows store exactly that text. Costs nothing while every value reads back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Column, Connection, LargeBinary, select, type_coerce
from sqlalchemy.orm import Session

from .column_type import RowKey, StoredSafetyProfileError, stored_type

__all__ = ["naming_rows"]

_MAX_ROWS_NAMED = 10


def _rows_storing(
    bind: Session | Connection, column: Column[Any], stored_value: object
) -> list[RowKey]:
    key_columns = list(column.table.primary_key.columns)
    if not key_columns:
        return []
    # The connection of the session's transaction: no autoflush, sees the same rows.
    connection = bind.connection({"clause": column.table}) if isinstance(bind, Session) else bind
    # Compare the raw stored value (text, or JSONB's dict), bypassing SafetyProfileJSON's own
    # conversion.
    raw_type = LargeBinary() if isinstance(stored_value, bytes) else stored_type(connection.dialect)
    raw = type_coerce(column, raw_type)
    query = select(*key_columns).where(raw == stored_value).limit(_MAX_ROWS_NAMED)
    names = [key.name for key in key_columns]
    return [tuple(zip(names, row, strict=True)) for row in connection.execute(query)]


@contextmanager
def naming_rows(bind: Session | Connection) -> Iterator[None]:
    """Reads inside this block raise `StoredSafetyProfileError` naming the row keys.

    with naming_rows(session):
        actions = session.scalars(select(Action)).all()
    """
    try:
        yield
    except StoredSafetyProfileError as error:
        if error.row_keys or error.column is None:
            raise
        row_keys = _rows_storing(bind, error.column, error.stored_value)
        if not row_keys:
            raise
        raise error.at_rows(row_keys).with_traceback(error.__traceback__) from None
