"""What the reading and writing of `skat-tournament/1` documents share: the format's name,
its field lists and limits, the error with located messages, and small value helpers."""

from __future__ import annotations

import re
import unicodedata

from django.utils.translation import gettext as _

FORMAT = "skat-tournament/1"
# A document with a systematic mistake would otherwise report it for every game.
MAX_MESSAGES = 200
GAME_BATCH = 2000
SMALLINT_MAX = 32767  # PositiveSmallIntegerField: settings, series/table/game numbers.
NAME_MAX = 120  # Player.name, Player.team, Club.name, Penalty.reason
TOURNAMENT_NAME_MAX = 160

TOP_FIELDS = ("format", "tournament", "players", "series", "archive")
TOURNAMENT_FIELDS = (
    "name",
    "date",
    "rules",
    "list_scoring",
    "bonus",
    "games_per_series",
    "kontra",
    "ramsch_rule",
    "ramsch_tie_both_win",
)
BONUS_FIELDS = ("won", "lost", "others_3", "others_4")
PLAYER_FIELDS = ("id", "name", "club", "team")
SERIES_FIELDS = ("number", "tables")
TABLE_FIELDS = ("number", "seats", "games", "penalties")
PENALTY_FIELDS = ("seat", "points", "reason")
RAMSCH_ENTRY_FIELDS = ("seat", "result")
DATE_PATTERN = re.compile(r"\d{4}-\d{2}-\d{2}")


class InterchangeError(Exception):
    """A document that cannot be imported; `messages` name each problem and its place."""

    def __init__(self, messages):
        self.messages = [str(message) for message in messages]
        super().__init__("\n".join(self.messages))

    def __str__(self):
        return "\n".join(self.messages)


def _is_int(value) -> bool:
    return type(value) is int  # a JSON true is a bool, and bool is an int subclass


def _normal_name(name: str) -> str:
    """As `registry.services.player_create` stores a name."""
    return " ".join(name.split())


SHOWN_MAX = 40  # characters of a value a message quotes


def _shown(value) -> str:
    """A value from the document as a message quotes it: on one line (control characters
    escaped) and short (a long value cut, a list or object by its kind only)."""
    if value is None:
        return _("nothing")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    if isinstance(value, bool):
        return "true" if value else "false"
    text = value if isinstance(value, str) else str(value)  # a Decimal as in the file
    if len(text) > SHOWN_MAX:
        text = text[: SHOWN_MAX - 1] + "…"
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        text = ascii(text)[1:-1]
    return f"'{text}'" if isinstance(value, str) else text
