"""Names that are one file elsewhere: two names git keeps apart that a case-insensitive or
normalising file system (macOS, Windows) takes for one. A checkout there writes both to the one
file, and a program opening either reads whichever came last; so adding
`prod.safety_profile.yaml` (`{}`) beside a strict `Prod.safety_profile.yaml` loosens what an
agent on such a machine reads, though no file git holds changed.

`folded` gives a name as those file systems compare names, each component:

* Unicode canonical equivalence: NFC and NFD are one name (HFS+ stores NFD, APFS compares
  names normalisation-insensitively);
* case, by Unicode full case folding (`str.casefold`) after upper case: ASCII case, and
  beyond it as macOS's and Windows' tables fold (U+017F LONG S is `s`, U+212A KELVIN SIGN is
  `k`, and, as Windows' upcase table has it, U+0131 DOTLESS I is `i`); full folding also
  takes `ß` for `ss`, which some do not: a name it folds together is refused anyway, to fail
  closed;
* the code points HFS+ ignores in names (zero-width joiners, bidi marks, the BOM: the list git
  itself skips when it protects `.git` on HFS+, `is_hfs_dotgit`);
* trailing dots and spaces, which Windows drops (`prod.safety_profile.yaml.` is
  `prod.safety_profile.yaml` there).

Not covered: 8.3 short names (`PROD~1.YAM`) and NTFS streams (`name:stream`), which name an
existing file only on a volume that keeps them; git for Windows refuses to check out `:`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence

__all__ = [
    "collision_message",
    "collisions",
    "folded",
    "folded_names",
    "read_through_message",
    "twin_groups",
]

# The code points HFS+ ignores when it compares names (git's utf8.c, `next_hfs_char`).
_HFS_IGNORED = dict.fromkeys(
    [0x200C, 0x200D, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x206A, 0x2070), 0xFEFF]
)


def _folded_part(part: str) -> str:
    text = unicodedata.normalize("NFD", part).translate(_HFS_IGNORED)
    # Canonical caseless matching (Unicode D145): NFD(casefold(NFD(x))), after upper case as
    # Windows' upcase table compares names: it alone takes DOTLESS I for `I` (checked over
    # every code point: no other name casefold keeps apart does upper case bring together).
    return unicodedata.normalize("NFD", text.upper().casefold()).rstrip(". ")


def folded(path: str) -> str:
    """`path` (components joined by `/`) as a case-insensitive, normalising file system
    compares it: two names with the same `folded` are one file there."""
    return "/".join(_folded_part(part) for part in path.split("/"))


def collisions(
    path: str,
    children: Callable[[str], Mapping[str, Sequence[str]]],
    is_entry: Callable[[str], bool],
    fold: Callable[[str], str] | None = None,
) -> list[str]:
    """The other names one file system takes for `path` (components joined by `/`) or for a
    folder above it, where one of the two is a file or link (`is_entry`): `children(folder)`
    gives the names in a folder ("" the top) by their folded name (`folded_names`). Only the
    folders on the way are looked at, each folded once by its caller, so many names are
    checked against a large repository without folding it again for each. `fold`: how a
    caller that keeps each name's folded name gives it (`folded`, one component)."""
    fold = _folded_part if fold is None else fold
    parts = path.split("/")
    found: list[str] = []
    candidates = [""]  # the folders one file system takes for the path so far
    for depth, part in enumerate(parts):
        key = fold(part)
        matches = [
            f"{folder}/{name}" if folder else name
            for folder in candidates
            for name in children(folder).get(key, ())
        ]
        own = "/".join(parts[: depth + 1])
        others = [name for name in matches if name != own]
        last = depth == len(parts) - 1
        if others and (last or is_entry(own) or any(map(is_entry, others))):
            found += others
        candidates = [name for name in matches if not is_entry(name)]
    return sorted(set(found))


def folded_names(
    names: Iterable[str], fold: Callable[[str], str] | None = None
) -> dict[str, list[str]]:
    """The names of one folder by their folded name (`fold`: as `collisions` takes it)."""
    fold = _folded_part if fold is None else fold
    by_key: dict[str, list[str]] = {}
    for name in names:
        by_key.setdefault(fold(name), []).append(name)
    return by_key


def collision_message(name: str, others: Sequence[str]) -> str:
    """What `check` and `diff` say of a name that others fold to (names quoted as reports
    quote them)."""
    from .paths import quoted

    listed = ", ".join(quoted(other) for other in others)
    return (
        f"{quoted(name)} and {listed} are one name on a case-insensitive or normalising file "
        f"system (macOS, Windows){_how_they_differ(name, others)}: a checkout there holds only "
        "one of them, whichever git writes last; rename one"
    )


def read_through_message(name: str, through: str, others: Sequence[str]) -> str:
    """What `check` and `diff` say of a name read through `through` (the file its link leads
    to, or a folder on its way) when others fold to `through`."""
    from .paths import quoted

    twins = collision_message(through, others)
    return f"{quoted(name)} is read through {quoted(through)}, and {twins}"


def _how_they_differ(name: str, others: Sequence[str]) -> str:
    """Names that print alike (composed and decomposed accents, invisible code points) say
    how they differ."""
    nfc = unicodedata.normalize("NFC", name)
    if all(unicodedata.normalize("NFC", other) == nfc for other in others):
        return " (the same text, its accents composed in one and decomposed in the other: NFC, NFD)"
    if all(other.translate(_HFS_IGNORED) == name.translate(_HFS_IGNORED) for other in others):
        return " (they differ in invisible code points that HFS+ ignores)"
    return ""


def twin_groups(entries: Iterable[str]) -> list[tuple[str, ...]]:
    """Each set of two or more names (files, links and the folders that hold them) that one
    file system would take for one, where at least one is a file or link in `entries`: two
    folders alone are one folder there, and what they hold is compared name by name."""
    by_key: dict[str, set[str]] = {}
    is_entry: set[str] = set()
    folders: dict[str, str] = {"": ""}  # folder -> its folded name, each folded once
    for path in entries:
        is_entry.add(path)
        folder, _, name = path.rpartition("/")
        parents = []
        while folder not in folders:
            parents.append(folder)
            folder = folder.rpartition("/")[0]
        for parent in reversed(parents):  # the nearest last: its own parent is folded first
            above, _, own = parent.rpartition("/")
            key = f"{folders[above]}/{_folded_part(own)}" if above else _folded_part(own)
            folders[parent] = key
            by_key.setdefault(key, set()).add(parent)
        above = path.rpartition("/")[0]
        key = f"{folders[above]}/{_folded_part(name)}" if above else _folded_part(name)
        by_key.setdefault(key, set()).add(path)
    return [
        tuple(sorted(names)) for names in by_key.values() if len(names) > 1 and names & is_entry
    ]
