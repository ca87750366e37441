"""What of `typing` the modules `check` imports need while they run, without importing typing:
that import is 3.5 ms of every `safety-profile check` (about a sixteenth of a pre-commit run of
one file), and `typing.NamedTuple` spends a further 50 µs on each class checking annotations
that `from __future__ import annotations` keeps as strings anyway.

A module on `check`'s path takes `TYPE_CHECKING` and `NamedTuple` from here and every other
name of typing inside `if TYPE_CHECKING:` (only annotations use them);
tests/cli/test_command_imports.py fails when a valid `check` imports typing.

* `TYPE_CHECKING` is False when the program runs; type checkers take any `TYPE_CHECKING` for
  true, so they read what such a block imports.
* `final` is `typing.final` to a type checker; when the program runs, it marks the class it
  decorates `__final__`, as typing's does, and gives it back.
* `overload` is `typing.overload` to a type checker; when the program runs, it gives back the
  function it decorates (whose definition the next one replaces, as with typing's; typing's
  also records it for `typing.get_overloads`, which nothing here asks).
* `NamedTuple` is `typing.NamedTuple` to a type checker. When the program runs, a class
  written `class Point(NamedTuple): ...` is made as typing makes it: `collections.namedtuple`
  with the annotated fields in order, the values given to the last of them as defaults, and the
  class's docstring, methods and properties; its `__annotations__` are the strings written.
  What typing refuses is refused here too (a field without a default after one with a default,
  overwriting a namedtuple attribute, another base); tests/reading/test_lean_typing.py holds
  the two to each other.
"""

from __future__ import annotations

import collections

TYPE_CHECKING = False

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["TYPE_CHECKING", "NamedTuple", "final", "overload"]

# As in typing: what a class body may not set, and what namedtuple sets itself.
_PROHIBITED = frozenset(
    {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults"}
    | {"_make", "_replace", "_asdict", "_source"}
)
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})
# (Through a name: mypy reads a call of namedtuple as a class its arguments spell.)
_namedtuple: Callable[..., type] = collections.namedtuple


class _NamedTupleMeta(type):
    """Makes each class written with `NamedTuple` as its base a namedtuple, as typing does."""

    def __new__(cls, typename: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> type:
        if not bases:  # `NamedTuple` itself
            return super().__new__(cls, typename, bases, namespace)
        if bases != (NamedTuple,):
            raise TypeError("can only inherit from a NamedTuple type")
        annotations: dict[str, Any] = namespace.get("__annotations__", {})
        with_default: list[str] = []
        for field in annotations:
            if field in namespace:
                with_default.append(field)
            elif with_default:
                raise TypeError(
                    f"Non-default namedtuple field {field} cannot follow default field"
                    f"{'s' if len(with_default) > 1 else ''} {', '.join(with_default)}"
                )
        defaults = [namespace[field] for field in with_default]
        module = namespace["__module__"]
        made = _namedtuple(typename, list(annotations), defaults=defaults, module=module)
        made.__annotations__ = made.__new__.__annotations__ = dict(annotations)
        for key, value in namespace.items():
            if key in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in _SPECIAL and key not in annotations:
                setattr(made, key, value)
        return made


if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
    from typing import final as final
    from typing import overload as overload
else:
    NamedTuple = _NamedTupleMeta("NamedTuple", (), {"__module__": __name__})

    def final(decorated):
        decorated.__final__ = True
        return decorated

    def overload(function):
        return function
