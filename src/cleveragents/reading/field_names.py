"""Which field an unknown key most likely misspells ("did you mean"): the closest by spelling,
never one that means the opposite. `disallow_unsafe_tools` is one edit from
`allow_unsafe_tools` and `min_retries_per_step` two from `max_retries_per_step`, but renaming
either keeps its value and turns the author's intent around: `disallow_unsafe_tools: true`
would become `allow_unsafe_tools: true`. The CLI's message and the editor's quick fix take
the suggestion from here, so both refuse the same keys.

A list of opposites is never complete (`ban_unsafe_tools`, `bypass_checkpoints`,
`lowest_cost_per_plan`, `ignorecheckpoints`), so a suggestion also needs evidence for it: every
word of the key is a word of the field, in order, misspelt at most as a typo misspells a word
(`aligns`). A word the field lacks (`ban`, `no`, `least`) may be what turns the meaning
around, so a key with one gets no suggestion; a word of the field left out only makes the key
incomplete (`max_retries` for `max_retries_per_step`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

__all__ = ["ANTONYMS", "NEGATIONS", "aligns", "closest_field", "opposes"]

# Words whose meaning is the other's opposite, in either order.
ANTONYMS: frozenset[frozenset[str]] = frozenset(
    frozenset(pair)
    for pair in (
        ("allow", "disallow"),
        ("allow", "deny"),
        ("allow", "forbid"),
        ("allow", "block"),
        ("allow", "prohibit"),
        ("allow", "reject"),
        ("allowed", "disallowed"),
        ("allowed", "denied"),
        ("allowed", "forbidden"),
        ("allowed", "blocked"),
        ("allowed", "prohibited"),
        ("permit", "deny"),
        ("permit", "forbid"),
        ("permitted", "forbidden"),
        ("accept", "reject"),
        ("grant", "deny"),
        ("min", "max"),
        ("minimum", "maximum"),
        ("least", "most"),
        ("lower", "upper"),
        ("floor", "ceiling"),
        ("require", "skip"),
        ("require", "optional"),
        ("required", "optional"),
        ("require", "waive"),
        ("requires", "skips"),
        ("mandatory", "optional"),
        ("enable", "disable"),
        ("enabled", "disabled"),
        ("safe", "unsafe"),
        ("secure", "insecure"),
        ("include", "exclude"),
        ("with", "without"),
        ("on", "off"),
        ("yes", "no"),
        ("true", "false"),
        ("always", "never"),
    )
)
# Words that say "not" whatever they stand beside.
NEGATIONS = frozenset(
    {
        "no",
        "not",
        "non",
        "never",
        "dont",
        "without",
        "disable",
        "disabled",
        "disallow",
        "disallowed",
        "deny",
        "denied",
        "forbid",
        "forbidden",
        "skip",
        "skipped",
        "ignore",
        "ignored",
        "unless",
        "except",
        "off",
        "false",
        "optional",
    }
)
_NEGATING_PREFIXES = ("dis", "non", "un", "in", "im", "de", "no", "not")
_SIMILAR = 0.75  # how close a misspelt word must be to read as the word


def _words(key: str) -> list[str]:
    """The words of a key: split at anything not a letter or digit and at camelCase humps.
    Letters of any script are letters, after compatibility forms are folded (NFKC: `min` in
    fullwidth letters is `min`): a word in other letters is a word the field lacks, never
    nothing (`disallow_unsafe_tools` in fullwidth letters but its last two words was read as
    `unsafe_tools`, allow_unsafe_tools misspelt)."""
    import unicodedata

    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", unicodedata.normalize("NFKC", key))
    return re.findall(r"[^\W\d_]+|\d+", spaced.lower())


def _similarity(a: str, b: str) -> float:
    import difflib  # only needed for a misspelt key; keeps start-up lean

    return difflib.SequenceMatcher(None, a, b).ratio()


def _opposites(word: str) -> Iterable[str]:
    for pair in ANTONYMS:
        if word in pair:
            yield from pair - {word}


def _reads_as(word: str, meant: str, nearest: float) -> bool:
    """Whether a misspelt `word` reads as `meant` rather than as any word of the other name
    (the closest of which is `nearest` to it): the same letters in another order (`mni`: min),
    or closer in spelling."""
    if sorted(word) == sorted(meant):
        return True
    closeness = _similarity(word, meant)
    return closeness >= 0.5 and closeness > nearest


def _negates(word: str, others: Sequence[str], misspelt: bool) -> bool:
    """Whether `word` reads as the opposite of one of `others`: a negation, an antonym, or the
    word with a negating prefix (`unsafe`, `disallow`); a `misspelt` word (the unknown key's)
    also when it reads as one of these rather than as the word it stands beside."""
    if word in others:
        return False
    if word in NEGATIONS:
        return True
    nearest = max((_similarity(word, other) for other in others), default=0.0)
    if misspelt and any(_reads_as(word, negation, nearest) for negation in NEGATIONS):
        return True  # `o_require_...`: a misspelt `no`
    for other in others:
        for opposite in _opposites(other):
            if word == opposite or (misspelt and _reads_as(word, opposite, nearest)):
                return True
        for prefix in _NEGATING_PREFIXES:
            rest = word[len(prefix) :]
            if not word.startswith(prefix) or not rest:
                continue
            if rest == other or (misspelt and _similarity(rest, other) >= _SIMILAR + 0.1):
                return True
    return False


def _flat_opposition(key: str, field: str) -> bool:
    """Antonyms written without separators (`disallowunsafetools`, `minretries`): one name
    holds a word of a pair where the other holds its opposite."""
    for pair in ANTONYMS:
        first, second = sorted(pair)
        if min(len(first), len(second)) < 3:
            continue  # `on`, `no`: inside too many words
        if (first in key) != (first in field) and (second in key) != (second in field):
            return True
    return False


def opposes(key: str, field: str) -> bool:
    """Whether renaming `key` to `field` would turn its meaning around (see the module)."""
    key_words, field_words = _words(key), _words(field)
    if any(_negates(word, field_words, misspelt=True) for word in key_words):
        return True
    if any(_negates(word, key_words, misspelt=False) for word in field_words):
        return True
    return _flat_opposition("".join(key_words), "".join(field_words))


def _edits(a: str, b: str) -> int:
    """The letters to delete, insert, replace or swap with the next to make `a` into `b`."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            current[j] = min(
                previous[j] + 1,
                current[j - 1] + 1,
                previous[j - 1] + (a[i - 1] != b[j - 1]),
            )
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def _stem(word: str) -> str:
    """`word` without the ending of a plural or a past (`categories`: category, `retrys`:
    retry, `allowed`: allow): one word however it is inflected."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    for ending in ("ed", "s"):
        if word.endswith(ending) and not word.endswith("ss") and len(word) > len(ending) + 2:
            return word[: -len(ending)]
    return word


def _misspells(written: str, meant: str, typos: int = 1) -> bool:
    """Whether `written` is `meant` inflected otherwise (`_stem`) or with a typo: `typos`
    letters wrong at most (deleted, inserted, replaced, or swapped with the next), none of
    them a letter added before the word: that is a prefix, and a prefix may negate it
    (`nrequire`, a misspelt `unrequire`)."""
    if written == meant or _stem(written) == _stem(meant):
        return True
    edits = _edits(written, meant)
    return edits <= typos and _edits(written[1:], meant) >= edits  # no letter added before


def aligns(key: str, field: str) -> bool:
    """Whether every word of `key` is a word of `field`, in the field's order, each at most
    misspelt (`_misspells`; two typos in a word of seven letters or more that keeps its last
    letter too: `sandobx`, `retires`). Where the words are not split as the field's are
    (several written together, `allowunsafetools`; one split by a stray separator,
    `requi_e`), the letters of the words together differ by one typo at most. The field's
    words may be left out, never added to."""
    key_words, field_words = _words(key), _words(field)

    def from_(k: int, f: int) -> bool:
        if k == len(key_words):
            return True
        for k_end in range(k + 1, len(key_words) + 1):
            written = "".join(key_words[k:k_end])
            for start in range(f, len(field_words)):  # the words before `start` left out
                for end in range(start + 1, len(field_words) + 1):
                    meant = "".join(field_words[start:end])
                    one = k_end == k + 1 and end == start + 1
                    long = one and len(meant) >= 7 and written[-1:] == meant[-1:]
                    if _misspells(written, meant, 2 if long else 1) and from_(k_end, end):
                        return True
        return False

    return bool(key_words) and from_(0, 0)


def closest_field(key: str, known: Sequence[str]) -> str | None:
    """The field an unknown key most likely misspells ("did you mean"), if one is close, the
    key's words are its words (`aligns`) and it does not mean the opposite (else there is no
    suggestion: the author must choose)."""
    import difflib

    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    if not close or not aligns(key, close[0]) or opposes(key, close[0]):
        return None
    return close[0]
