"""Sentences the site writes into the record itself, stored as what happened and put into
words when shown, in the reader's language (issue 27: no English on German pages).

A *phrase* is such a sentence: a penalty's reason under a 1908 law, a settling payment's
note, a history line's reason ("table link") or author ("list keeper 1 of table 3
(phone)"). The services build one with `phrase(code, **params)`; it is a `str` whose text
is the English wording, so it goes into the text field as before (the exports, the
interchange documents and the admin keep that stable English form), and
`phrases_of(field=value, ...)` gives what the model's `phrases` JSON field keeps:
{field name: {"code": ..., **params}}. Shown, `shown(obj, "reason")` says it in the active
language.

Text a person typed has no phrase and shows as typed. Rows written before phrases were
stored (their text only, English or in the language of the request that wrote them) are
recognised by their English wording (`recognise`), else shown as stored.
"""

from __future__ import annotations

import re

from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.choices import Category, PenaltyLaw

# The phrases without parameters, by code.
FIXED = {
    "table_link": _("table link"),
    "table_link_second": _("table link, second copy"),
    "taken_back": _("taken back on the phone"),
    "taken_back_second": _("taken back on the phone, second copy"),
    "sheet_confirmed": _("sheet confirmed"),
    "sheet_confirmed_second": _("sheet confirmed by the second list keeper"),
    "settled_second": _("settled: the second copy's version"),
    "settled_first_removed": _(
        "settled: the first copy's version (the second copy's row removed)"
    ),
    "settled_first_replaced": _(
        "settled: the first copy's version (the second copy's row replaced)"
    ),
    "player_list_import": _("player list import"),
    "settled": _("settled"),
}
KEEPER = _("list keeper %(k)s of table %(t)s (phone)")
GAME_NUMBER = _("(game %(number)s)")
PRIZE_NOTE_LIMIT = 120  # Payment.note


def ranking_label(scope: str, series_number: int, category: str) -> str:
    """A prize ranking's name in the active language: overall, series n, or the category
    (`Prize.Scope` values)."""
    if scope == "series":
        return gettext("Series %(number)s") % {"number": series_number}
    if scope == "category":
        return str(Category(category).label) if category in Category.values else category
    return gettext("Overall")


def prize_title(rank: int, scope: str, series_number: int, category: str) -> str:
    """A prize as its winner's payment note and the prize list name it: "1. Overall"."""
    return f"{rank}. {ranking_label(scope, series_number, category)}"


def _prize_note(prizes: list) -> str:
    """The prizes' titles ("1. Overall, 2. Ladies"), cut after a whole title to fit."""
    note = ", ".join(
        prize_title(rank, scope, series, category) for scope, series, category, rank in prizes
    )
    if len(note) <= PRIZE_NOTE_LIMIT:
        return note
    cut = note[: PRIZE_NOTE_LIMIT - 1]
    return (cut.rsplit(", ", 1)[0] if ", " in cut else cut) + "…"


def render(stored: dict) -> str:
    """A stored phrase in the active language ("" for a code this version does not know)."""
    code = stored.get("code")
    if code in FIXED:
        return str(FIXED[code])
    if code == "keeper":
        return str(KEEPER) % {"k": stored.get("keeper"), "t": stored.get("table")}
    if code == "penalty_law":
        law = stored.get("law")
        label = str(PenaltyLaw(law).label) if law in PenaltyLaw.values else str(law)
        return f"{label} {GAME_NUMBER % {'number': stored.get('game')}}"
    if code == "prizes":
        return _prize_note([tuple(p) for p in stored.get("prizes", [])])
    return ""


class Phrase(str):
    """A phrase: its English wording, with the code and parameters it was made from."""

    stored: dict

    def __new__(cls, stored: dict):
        with translation.override("en"):
            text = render(stored)
        phrase = super().__new__(cls, text)
        phrase.stored = stored
        return phrase


def phrase(code: str, **params) -> Phrase:
    if code not in FIXED and code not in ("keeper", "penalty_law", "prizes"):
        raise ValueError(f"unknown phrase {code!r}")
    return Phrase({"code": code, **params})


def phrases_of(**values) -> dict:
    """What a model's `phrases` field keeps for these field values: the phrases among them."""
    return {name: value.stored for name, value in values.items() if isinstance(value, Phrase)}


def _english_patterns():
    with translation.override("en"):
        fixed = {str(text): {"code": code} for code, text in FIXED.items()}
        laws = {str(label): law for law, label in PenaltyLaw.choices}
    return fixed, laws


KEEPER_EN = re.compile(r"list keeper (\d+) of table (\d+) \(phone\)")
PENALTY_EN = re.compile(r"(law \d+: .+) \(game (\d+)\)")


def recognise(text: str) -> dict | None:
    """The phrase an older row's text is the English wording of, else None."""
    if not text:
        return None
    fixed, laws = _english_patterns()
    if text in fixed:
        return fixed[text]
    if match := KEEPER_EN.fullmatch(text):
        return {"code": "keeper", "keeper": int(match[1]), "table": int(match[2])}
    if (match := PENALTY_EN.fullmatch(text)) and match[1] in laws:
        return {"code": "penalty_law", "law": laws[match[1]], "game": int(match[2])}
    return None


def shown_text(text: str, stored: dict | None = None) -> str:
    """A stored text as the reader sees it: its phrase in the active language, else the
    text as typed (or as an older row keeps it)."""
    stored = stored or recognise(text)
    return (render(stored) if stored else "") or text


def shown(obj, field: str) -> str:
    """The text of `obj.<field>` as the reader sees it (see `shown_text`)."""
    stored = (getattr(obj, "phrases", None) or {}).get(field)
    return shown_text(getattr(obj, field, "") or "", stored)
