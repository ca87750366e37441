"""Completion and hover for the language server: what to offer at a place in a buffer, and
what to say of the field under the cursor (no pygls here; lines and columns are 0-based code
points, as `editor_fixes` has them).

Everything said comes from elsewhere, never a copy: descriptions, defaults and which fields
exist from the kind's JSON Schema (the installed `schema/` file), which way is stricter from the
rule catalogue (`STRICTER`) and the strictness rules (`STRICTNESS_RULES`), the floor's values
from the floors `check` finds for the file. The buffer is read line by line, not parsed: a
buffer being typed into is seldom valid YAML, and completion is wanted most then.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from cleveragents.domain.models.core.rendering import value_text, yaml_value
from cleveragents.domain.models.core.strictness import STRICTNESS_RULES, Change
from cleveragents.reading.rules import STRICTER

from ..core.kinds import KINDS, YAML_NAME
from .editor_fixes import lines_of

if TYPE_CHECKING:
    from ..floor import Floor

__all__ = [
    "Completion",
    "Field",
    "Hover",
    "categories_in",
    "completions",
    "fields_of",
    "hover",
    "workspace_categories",
]

CATEGORIES = "allowed_skill_categories"
_KEY = r"[A-Za-z_][A-Za-z0-9_]*"
_KEY_LINE = re.compile(rf"^( *)({_KEY}) *:(?=\s|$)")
_TYPED_KEY = re.compile(rf"^( *)({_KEY})?$")
_TYPED_VALUE = re.compile(rf"^( *)({_KEY}) *: +([^\s\[#]*)$")
# Each pattern takes time in proportion to the line, whatever it holds (a line of a file from
# anywhere may be megabytes): no lazy group before a group that may fail after a long run
# (`\[(.*?)(\w*)$` on `[xxx...x ` tries every split), which is quadratic. The flow item: what
# comes before the word being typed ends at the last separator, if any, then the word.
_TYPED_FLOW_ITEM = re.compile(rf"^( *)({_KEY}) *: *\[((?:[^\]#]*[\s,\[])?)([^\s,\[\]#]*)$")
_TYPED_BLOCK_ITEM = re.compile(r"^( *)- +([^\s#]*)$")
_BLOCK_ITEM = re.compile(r"^( *)- +([^#]*)")  # the item: up to a comment, less trailing spaces
# A category as a plain scalar that reads back as the same string in YAML 1.1 and 1.2.
_PLAIN_CATEGORY = re.compile(r"^[A-Za-z][A-Za-z0-9_./-]*$")
_RESERVED = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"})


class Field(NamedTuple):
    """One field of a mapping, as its schema describes it."""

    name: str
    title: str
    description: str
    schema: Mapping[str, Any]
    required: bool
    in_profile: bool  # a safety profile field (its strictness and floor apply)

    @property
    def has_default(self) -> bool:
        return "default" in self.schema

    @property
    def types(self) -> tuple[str, ...]:
        kind = self.schema.get("type", ())
        return (kind,) if isinstance(kind, str) else tuple(kind)


class Completion(NamedTuple):
    """An item to offer: `label`, replacing the line's characters `start` to `end` with
    `insert` (or `snippet`, with tab stops, for clients that take snippets)."""

    label: str
    kind: str  # "field" or "value"
    detail: str
    documentation: str
    start: int
    end: int
    insert: str
    snippet: str
    sort: str


class Hover(NamedTuple):
    """What to show for the field on `line`, columns `start` to `end` (its key)."""

    markdown: str
    line: int
    start: int
    end: int


@cache
def _schema(kind: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(KINDS[kind].schema_path().read_text(encoding="utf-8"))
    return schema


def _fields(schema: Mapping[str, Any], in_profile: bool) -> dict[str, Field]:
    required = set(schema.get("required", ()))
    return {
        name: Field(
            name,
            str(sub.get("title", name)),
            str(sub.get("description", "")),
            sub,
            name in required,
            in_profile,
        )
        for name, sub in schema.get("properties", {}).items()
    }


def fields_of(kind: str, parent: str | None) -> dict[str, Field]:
    """The fields of the mapping at `parent` (None: the document's top level) of a document of
    `kind`, by name; empty where the schema names none (an action's extra keys)."""
    if kind == "profile":
        return _fields(_schema("profile"), True) if parent is None else {}
    if parent is None:
        return _fields(_schema(kind), False)
    if parent == KINDS[kind].profile_field:
        return _fields(_schema("profile"), True)
    return {}


# -- where the cursor is ---------------------------------------------------------------------


def _indent(line: str) -> int | None:
    """The indentation of a line that holds something (None: blank or a comment)."""
    stripped = line.lstrip(" ")
    if not stripped or stripped.startswith("#"):
        return None
    return len(line) - len(stripped)


def _parent(lines: Sequence[str], line: int, indent: int) -> tuple[str | None, int] | None:
    """The key whose mapping a key at `indent` on `line` belongs to, and that key's line
    (None, -1: the top level); None when it is no mapping of a key (a list, a flow)."""
    if indent == 0:
        return None, -1
    for above in range(line - 1, -1, -1):
        found = _indent(lines[above])
        if found is None or found >= indent:
            continue
        key = _block_key(lines[above])
        if key is None or found != 0:
            return None  # only a top-level key opens a mapping our schemas describe
        return key, above
    return None


def _block_key(line: str) -> str | None:
    """The key of a line `key:` with nothing after it but a comment: a block follows."""
    key = _KEY_LINE.match(line)
    if key is None or line[key.end() :].split("#", 1)[0].strip():
        return None
    return key.group(2)


def _keys_present(lines: Sequence[str], parent_line: int, indent: int, skip: int) -> set[str]:
    """The keys written in the mapping that starts below `parent_line` at `indent`."""
    present = set()
    for number in range(parent_line + 1, len(lines)):
        found = _indent(lines[number])
        if found is None or number == skip:
            continue
        if found < indent or (parent_line >= 0 and found == 0):
            break
        key = _KEY_LINE.match(lines[number])
        if key and found == indent:
            present.add(key.group(2))
    return present


def _mapping_at(
    lines: Sequence[str], line: int, indent: int, kind: str
) -> tuple[dict[str, Field], int] | None:
    parent = _parent(lines, line, indent)
    if parent is None:
        return None
    name, parent_line = parent
    return fields_of(kind, name), parent_line


# -- what the values mean ----------------------------------------------------------------------


def _floor_values(field: Field, floors: Sequence[Floor]) -> list[tuple[Any, str]]:
    """The floors' values for a profile field (a floor's absent key is its default)."""
    if not field.in_profile:
        return []
    return [(floor.profile[field.name], floor.source) for floor in floors]


def _strictness(field: Field, value: Any, floors: Sequence[Floor]) -> list[str]:
    """Words for `value` of a profile field: the default, stricter or looser than the
    field's other values, below a floor."""
    words = []
    if field.has_default and field.schema["default"] == value:
        words.append("the default")
    rule = STRICTNESS_RULES.get(field.name) if field.in_profile else None
    if rule is not None and isinstance(value, bool):
        words.append("stricter" if rule.compare(not value, value) is Change.TIGHTENS else "looser")
    if rule is not None and value is None:
        words.append("the loosest")
    for floor_value, source in _floor_values(field, floors):
        if rule is not None and rule.compare(floor_value, value) is Change.LOOSENS:
            words.append(f"looser than the floor ({source})")
    return words


def field_text(field: Field, floors: Sequence[Floor]) -> str:
    """What a field is, in markdown: what it does, its default, which way is stricter, the
    floors' values."""
    lines = [f"**{field.name}**: {field.title}", "", field.description, ""]
    facts = []
    if field.required:
        facts.append("Required")
    if field.has_default:
        facts.append(f"Default: {value_text(field.schema['default'], field.name)}")
    if field.in_profile and field.name in STRICTER:
        facts.append(f"Stricter: {STRICTER[field.name]}")
    for value, source in _floor_values(field, floors):
        facts.append(f"Floor ({source}): {value_text(value, field.name)}")
    lines += [f"- {fact}" for fact in facts]
    return "\n".join(lines).strip() + "\n"


# -- completion --------------------------------------------------------------------------------


def _field_items(
    fields: Mapping[str, Field],
    present: set[str],
    start: int,
    end: int,
    *,
    with_colon: bool,
    floors: Sequence[Floor],
) -> list[Completion]:
    items = []
    for order, field in enumerate(fields.values()):
        if field.name in present:
            continue
        insert = snippet = field.name
        if with_colon:
            insert = f"{field.name}: "
            if "$ref" in field.schema:  # a mapping of its own: its fields go below it
                insert = snippet = f"{field.name}:\n  "
            elif field.has_default:
                default = yaml_value(field.schema["default"])
                snippet = f"{field.name}: ${{1:{default}}}"
            else:
                snippet = f"{field.name}: $1"
        detail = field.title
        if field.has_default:
            detail += f" (default {yaml_value(field.schema['default'])})"
        items.append(
            Completion(
                field.name,
                "field",
                detail,
                field_text(field, floors),
                start,
                end,
                insert,
                snippet,
                f"{order:03}",
            )
        )
    return items


def _values_of(field: Field) -> list[Any]:
    """The values to offer for a field: its booleans, null for a limit, else its default."""
    values: list[Any] = []
    if "boolean" in field.types:
        values += [True, False]
    if "null" in field.types:
        values.append(None)
    if field.has_default and field.schema["default"] not in values and field.name != CATEGORIES:
        values.append(field.schema["default"])
    return values


def _value_items(
    field: Field, typed: str, start: int, end: int, floors: Sequence[Floor]
) -> list[Completion]:
    items = []
    for order, value in enumerate(_values_of(field)):
        text = yaml_value(value)
        if not text.startswith(typed):
            continue
        detail = "; ".join(_strictness(field, value, floors))
        documentation = f"`{field.name}: {text}`" + (f": {detail}" if detail else "")
        items.append(
            Completion(text, "value", detail, documentation, start, end, text, text, f"{order:03}")
        )
    return items


def _category_text(category: str) -> str:
    plain = _PLAIN_CATEGORY.match(category) and category.lower() not in _RESERVED
    return category if plain else yaml_value(category)


def _category_items(
    categories: Iterable[str], listed: set[str], typed: str, start: int, end: int
) -> list[Completion]:
    return [
        Completion(
            category,
            "value",
            "a category used in this workspace",
            f"Allowed in another profile of this workspace: `{_category_text(category)}`",
            start,
            end,
            _category_text(category),
            _category_text(category),
            category,
        )
        for category in sorted(set(categories) - listed)
        if category.startswith(typed)
    ]


def _flow_items(text: str) -> set[str]:
    return {item.strip().strip("'\"") for item in text.split(",") if item.strip()}


def completions(
    text: str,
    line: int,
    column: int,
    kind: str,
    floors: Sequence[Floor] = (),
    categories: Callable[[], Iterable[str]] = tuple,
) -> list[Completion]:
    """What to offer at `line`, `column` of a document of `kind`: the fields its mapping there
    may still take (never one written already, never one its schema lacks), a field's values,
    or inside `allowed_skill_categories` the categories used in the workspace (`categories()`,
    called only there)."""
    lines = lines_of(text)
    if line >= len(lines):
        return []
    current = lines[line]
    before, after = current[:column], current[column:]

    if typed := _TYPED_KEY.match(before):
        indent, word = len(typed.group(1)), typed.group(2) or ""
        mapping = _mapping_at(lines, line, indent, kind)
        if mapping is None:
            return []
        fields, parent_line = mapping
        rest = re.match(rf"^{_KEY}?", after)
        end = column + (rest.end() if rest else 0)
        has_colon = re.match(rf"^{_KEY}? *:", after) is not None
        present = _keys_present(lines, parent_line, indent, skip=line)
        items = _field_items(fields, present, indent, end, with_colon=not has_colon, floors=floors)
        return [item for item in items if item.label.startswith(word)]

    if flow := _TYPED_FLOW_ITEM.match(before):
        if flow.group(2) != CATEGORIES or _field(lines, line, flow, kind) is None:
            return []
        typed_word = flow.group(4)
        return _category_items(
            categories(), _flow_items(flow.group(3)), typed_word, column - len(typed_word), column
        )

    if value := _TYPED_VALUE.match(before):
        field = _field(lines, line, value, kind)
        if field is None or field.name == CATEGORIES:
            return []
        typed_word = value.group(3)
        return _value_items(field, typed_word, column - len(typed_word), column, floors)

    if item := _TYPED_BLOCK_ITEM.match(before):
        owner = _list_owner(lines, line, len(item.group(1)))
        if owner is None or owner[:2] != (CATEGORIES, KINDS[kind].profile_field):
            return []
        listed = _block_items(lines, owner[2], skip=line)
        typed_word = item.group(2)
        return _category_items(categories(), listed, typed_word, column - len(typed_word), column)
    return []


def _field(lines: Sequence[str], line: int, match: re.Match[str], kind: str) -> Field | None:
    mapping = _mapping_at(lines, line, len(match.group(1)), kind)
    return None if mapping is None else mapping[0].get(match.group(2))


def _list_owner(lines: Sequence[str], line: int, indent: int) -> tuple[str, str | None, int] | None:
    """The key a block list item at `indent` belongs to, its parent key and the key's line."""
    for above in range(line - 1, -1, -1):
        found = _indent(lines[above])
        if found is None or (found == indent and _BLOCK_ITEM.match(lines[above])):
            continue
        if found > indent:
            continue
        key = _block_key(lines[above])
        parent = None if key is None else _parent(lines, above, found)
        if key is None or parent is None:
            return None
        return key, parent[0], above
    return None


def _block_items(lines: Sequence[str], key_line: int, skip: int) -> set[str]:
    items = set()
    for number in range(key_line + 1, len(lines)):
        if number == skip or _indent(lines[number]) is None:
            continue
        item = _BLOCK_ITEM.match(lines[number])
        if item is None:
            break
        items.add(item.group(2).rstrip().strip("'\""))
    return items


# -- hover -------------------------------------------------------------------------------------


def hover(
    text: str, line: int, column: int, kind: str, floors: Sequence[Floor] = ()
) -> Hover | None:
    """The field whose key or value `line`, `column` is on, described (None: no field there)."""
    lines = lines_of(text)
    if line >= len(lines):
        return None
    key = _KEY_LINE.match(lines[line])
    if key is None or column < len(key.group(1)):
        return None
    field = _field(lines, line, key, kind)
    if field is None:
        return None
    return Hover(field_text(field, floors), line, key.start(2), key.end(2))


# -- categories used in the workspace ------------------------------------------------------------

# Folders no profile of the repository lives in: tools' own and installed packages.
_SKIPPED_FOLDERS = frozenset({".git", "node_modules", ".venv", "venv", ".tox", "__pycache__"})
MAX_FILES = 2000  # profiles and actions read for their categories, at most
# Files and folders looked at, at most: the walk is on the server's only thread, and a folder
# opened in an editor may hold millions (a home folder, an unpacked archive made to).
MAX_ENTRIES = 50_000


def categories_in(document: Any, kind: str) -> list[str]:
    """The categories a loaded document (its top-level mapping) allows."""
    profile_field = KINDS[kind].profile_field
    profile = document.get(profile_field) if profile_field else document
    found = profile.get(CATEGORIES) if isinstance(profile, dict) else None
    if not isinstance(found, list):
        return []
    return [
        item.strip()
        for item in found
        if isinstance(item, str) and item.isprintable() and item.strip()
    ]


def _checked_files(
    root: str, kind_of: Callable[[str], str | None], max_entries: int = MAX_ENTRIES
) -> Iterator[tuple[str, str]]:
    """Each file below `root` (links not followed) a hook checks, with its kind (`kind_of` a
    file's path, as the hooks see its name), among the first `max_entries` files and folders
    walked (each folder's names in order)."""
    seen = 0
    for folder, folders, files in os.walk(root):
        seen += len(folders) + len(files)
        if seen > max_entries:
            return
        folders[:] = sorted(name for name in folders if name not in _SKIPPED_FOLDERS)
        for name in sorted(files):
            path = os.path.join(folder, name)
            if YAML_NAME.search(name) and (kind := kind_of(path)) is not None:
                yield path, kind


def workspace_categories(
    root: str,
    kind_of: Callable[[str], str | None],
    max_files: int = MAX_FILES,
    max_entries: int = MAX_ENTRIES,
) -> set[str]:
    """The categories allowed by the profiles and actions under `root` (read as `check` reads
    them: regular files only, the loader's limits; files that do not load are skipped)."""
    from cleveragents.reading.loaded_file import load_file

    found: set[str] = set()
    for count, (path, kind) in enumerate(_checked_files(root, kind_of, max_entries)):
        if count >= max_files:
            break
        if os.path.islink(path):
            continue
        loaded = load_file(path)
        if loaded.mapping is not None:
            found.update(categories_in(loaded.mapping, kind))
    return found
