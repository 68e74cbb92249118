"""Template helpers for Skat sheets: how a stored game reads on the sheet (no scoring)."""

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.models import GameType, RamschResult, Trump

register = template.Library()

SUIT_SYMBOLS = {"diamonds": "♦", "hearts": "♥", "spades": "♠", "clubs": "♣"}


@register.filter
def get_item(mapping, key):
    try:
        return mapping.get(key, "")
    except AttributeError:
        return ""


def describe(game) -> str:
    """A sheet row in words: "♣ with 2, hand, schneider — 95 pts, bid 30"."""
    kind = game.game
    if kind == GameType.PASSED:
        return _("passed in")
    if kind == GameType.RAMSCH:
        return f"Ramsch: {RamschResult(game.ramsch).label}" if game.ramsch else "Ramsch"
    if kind in SUIT_SYMBOLS:
        parts = [f"{SUIT_SYMBOLS[kind]} {GameType(kind).label}"]
    elif kind == GameType.NULL:
        parts = [pgettext("skat", "Null")]
    else:
        label = str(GameType(kind).label)
        if game.trump:
            trump = SUIT_SYMBOLS.get(game.trump) or str(Trump(game.trump).label)
            label = f"{label} {trump}"
        parts = [label]
    if game.matadors:
        parts.append(
            (_("without %(n)s") if game.without else _("with %(n)s")) % {"n": game.matadors}
        )
    for flag, label in (
        ("hand", _("hand")),
        ("ouvert", _("ouvert")),
        ("schneider_announced", _("schneider announced")),
        ("schwarz_announced", _("schwarz announced")),
        ("schneider", _("schneider")),
        ("schwarz", _("schwarz")),
        ("kontra", "Kontra"),
        ("re", "Re"),
    ):
        if getattr(game, flag):
            parts.append(str(label))
    text = ", ".join(parts)
    facts = []
    if game.card_points is not None:
        facts.append(_("%(n)s pts") % {"n": game.card_points})
    elif game.won is not None:
        facts.append(_("won") if game.won else _("lost"))
    if game.bid:
        facts.append(_("bid %(n)s") % {"n": game.bid})
    if game.overbid:
        facts.append(_("overbid"))
    if facts:
        text += " — " + ", ".join(facts)
    return text


@register.simple_tag
def game_description(game):
    return describe(game)
