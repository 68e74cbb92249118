"""How every A–Z list of the site is ordered: the German way (DIN 5007, variant 1, the
dictionary order), the same on SQLite and PostgreSQL because it is done in Python.

A name's *sort key* folds what German readers file under the plain letter: Ä, Ö, Ü under
A, O, U, ß as ss, accents dropped (é, ł, ø), and case ignored; so "Öztürk" comes before
"Zimmermann" and "Ärger" next to "Arm", where a byte order (the databases' default
collation, or Python's `sorted`) puts every umlaut after z. Names equal when folded keep a
fixed order: the plain spelling first, then by the characters themselves.

Pure Python, no Django: `alpha_key(text)` for `sorted(..., key=...)`, and `alphabetical`
for the lists of players, clubs, teams and people the pages show.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

# Letters Unicode does not decompose into a base letter and a mark.
_FOLDED = str.maketrans(
    {
        "ß": "ss",
        "ẞ": "ss",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "ø": "o",
        "Ø": "o",
        "ł": "l",
        "Ł": "l",
        "đ": "d",
        "Đ": "d",
        "ı": "i",
    }
)


def fold(text: str) -> str:
    """The letters a German reader files `text` under: "Öztürk" -> "ozturk"."""
    text = " ".join(str(text).split()).translate(_FOLDED)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def alpha_key(text: str) -> tuple[str, str, str]:
    """Sort key of a name in German A–Z order (see the module's docstring)."""
    text = str(text or "")
    return fold(text), text.casefold(), text


def alphabetical(items: Iterable[T], key: Callable[[T], str] = str) -> list[T]:
    """`items` in German A–Z order of `key(item)` (their text by default)."""
    return sorted(items, key=lambda item: alpha_key(key(item)))


def name_of(item) -> str:
    """The key of a list of named things (players, clubs, leagues, teams)."""
    return item.name


def username_of(person) -> str:
    """The key of a list of people (accounts)."""
    return person.get_username()
