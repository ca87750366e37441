"""`lean_typing` makes what typing makes: the same class body written with its `NamedTuple` and
with typing's gives classes that behave alike (fields, defaults, docstring, methods,
properties, pickling, the errors), and `final` and `overload` do what typing's do when the
program runs. Not imported typing on `check`'s path is tests/cli/test_command_imports.py's."""

from __future__ import annotations

import pickle
import sys
import typing
from types import ModuleType
from typing import Any

import pytest

from cleveragents.reading import lean_typing

BODY = '''
from __future__ import annotations

class Point(NamedTuple):
    """A point, with a label."""

    x: int
    y: int = 0
    label: str | None = None

    @property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self, by: int) -> Point:
        return self._replace(x=self.x + by)

    @classmethod
    def origin(cls) -> Point:
        return cls(0)

    @staticmethod
    def unit() -> int:
        return 1

    ORIGIN_NAME = "origin"
'''


def _made_with(named_tuple: Any, module_name: str, body: str = BODY) -> ModuleType:
    """A module holding `body`, run with `named_tuple` as its `NamedTuple` (registered, so
    that its classes pickle)."""
    module = ModuleType(module_name)
    module.NamedTuple = named_tuple  # type: ignore[attr-defined]
    sys.modules[module_name] = module
    exec(compile(body, module_name, "exec"), module.__dict__)
    return module


@pytest.fixture(scope="module")
def points() -> tuple[Any, Any]:
    ours = _made_with(lean_typing.NamedTuple, "lean_points").Point
    theirs = _made_with(typing.NamedTuple, "typing_points").Point
    return ours, theirs


def test_a_class_is_made_as_typing_makes_it(points: tuple[Any, Any]) -> None:
    ours, theirs = points
    assert issubclass(ours, tuple)
    assert ours.__mro__[1:] == theirs.__mro__[1:] == (tuple, object)
    for attribute in ("_fields", "_field_defaults", "__doc__", "__qualname__", "ORIGIN_NAME"):
        assert getattr(ours, attribute) == getattr(theirs, attribute), attribute
    assert ours.__module__ == "lean_points"
    assert list(ours.__annotations__) == list(theirs.__annotations__) == ["x", "y", "label"]
    assert ours.__annotations__["label"] == "str | None"  # as written: nothing evaluates it
    # Less the bases as written, which typing's `NamedTuple` (a function) leaves for its own
    # introspection (`types.get_original_bases`), which nothing here uses.
    assert set(vars(ours)) == set(vars(theirs)) - {"__orig_bases__"}


def test_its_values_behave_as_typing_s(points: tuple[Any, Any]) -> None:
    ours, theirs = points
    for point in (ours, theirs):
        made = point(3, -4, label="a")
        assert made == (3, -4, "a")
        assert (made.x, made.y, made.label, made.norm) == (3, -4, "a", 7)
        assert made.moved(2) == point(5, -4, "a")
        assert point.origin() == point(0, 0, None) == point._make([0, 0, None])
        assert point.unit() == 1
        assert made._asdict() == {"x": 3, "y": -4, "label": "a"}
        assert pickle.loads(pickle.dumps(made)) == made
        with pytest.raises(AttributeError):
            made.x = 1  # type: ignore[misc]
        with pytest.raises(TypeError):
            point()
    assert repr(ours(1)) == repr(theirs(1)) == "Point(x=1, y=0, label=None)"


@pytest.mark.parametrize(
    "body",
    [
        "class Bad(NamedTuple):\n    a: int = 1\n    b: int = 2\n    c: int\n",
        "class Bad(NamedTuple):\n    a: int\n    def _make(self): ...\n",
        "class Bad(NamedTuple):\n    a: int\n    __slots__ = ()\n",
    ],
)
def test_what_typing_refuses_is_refused_with_its_words(body: str) -> None:
    raised = []
    for named_tuple in (lean_typing.NamedTuple, typing.NamedTuple):
        with pytest.raises((TypeError, AttributeError)) as error:
            _made_with(named_tuple, "refused", body)
        raised.append((type(error.value), str(error.value)))
    assert raised[0] == raised[1]


def test_another_base_is_refused() -> None:
    with pytest.raises(TypeError, match="can only inherit from a NamedTuple type"):
        _made_with(lean_typing.NamedTuple, "two_bases", "class Bad(NamedTuple, dict): pass\n")


def test_final_and_overload_do_what_typing_s_do_at_run_time() -> None:
    class Ours:
        pass

    class Theirs:
        pass

    assert lean_typing.final(Ours) is Ours
    assert typing.final(Theirs) is Theirs
    assert Ours.__final__ is Theirs.__final__ is True  # type: ignore[attr-defined]

    def function() -> int:
        return 1

    assert lean_typing.overload(function) is function
    assert lean_typing.TYPE_CHECKING is typing.TYPE_CHECKING is False
