"""How figures and games read on pages, PDFs, workbooks and messages (no computing).

Shared by the views, the django-tables2 tables, the exporters and the template tags (which
only wrap these for templates), so that a figure reads the same everywhere:
- `format_money`: an amount in the active language, "1,50 €" in German, "€1.50" in
  English; it formats the exact Decimal it is given (two places, thousands grouped) and
  never rounds through a float. `percent`: a share of the pot.
- `format_points`, `format_match_points`: league match-day points as people write them,
  3:0, 2½:½ (rules §4). Teams that tie on a match day share the points of their places,
  so the points can be halves (and, added up over a season, any number of halves): the
  exact Fraction the selectors give is written with a fraction sign, the same in every
  language, never rounded through a float.
- `describe`: a stored game as a sheet row in words, "♣ Clubs with 2, hand — 95 pts".
- `surname_key`: how a list of players is ordered A–Z, by surname (the German way,
  `tournaments.collation`).
- `public_name`: the name a public output shows of a player (a player not listed publicly,
  `Player.listed`, by `name_initials` where the output shows initials,
  `permissions.names_by_initials`); `public_player_name` the same for a `Player`.
- `bdi`, `isolated`: user text (a name, a title, a note) as a page shows it, isolated from
  the text around it, so that a right-to-left override (U+202E) or an Arabic or Hebrew
  name reorders nothing after it: in HTML a <bdi>, where no element can be (a page's
  <title>, an <option>, a message) between the plain-text isolates FSI and PDI.
"""

import re
from decimal import Decimal
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _

from tournaments.collation import fold
from tournaments.models import Game, GameType, RamschResult, Trump

MINUS = "−"
NBSP = "\u00a0"

# --------------------------------------------------------------------------------------
# Money
# --------------------------------------------------------------------------------------

SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "CAD": "CA$", "AUD": "A$", "PLN": "zł"}


def _german() -> bool:
    return (get_language() or "en").startswith("de")


def format_money(amount, currency: str = "EUR", *, sign: bool = False) -> str:
    """`amount` in `currency`; `sign` puts a plus before positive amounts."""
    if amount is None or amount == "":
        return ""
    value = Decimal(amount).quantize(Decimal("0.01"))
    number = number_format(abs(value), decimal_pos=2, force_grouping=True)
    symbol = SYMBOLS.get(currency, currency)
    if _german():
        text = f"{number}{NBSP}{symbol}"
    else:
        text = f"{symbol}{number}" if len(symbol) < 3 else f"{symbol}{NBSP}{number}"
    if value < 0:
        return MINUS + text
    if sign and value > 0:
        return "+" + text
    return text


def percent(share) -> str:
    """A share of the pot: 50 → "50 %" (de) / "50%" (en); 12.5 → "12,5 %" / "12.5%"."""
    if share is None:
        return ""
    value = Decimal(share).normalize()
    places = max(0, -value.as_tuple().exponent)
    number = number_format(value, decimal_pos=places)
    return f"{number}{NBSP}%" if _german() else f"{number}%"


# --------------------------------------------------------------------------------------
# League match-day points
# --------------------------------------------------------------------------------------

VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


def format_points(value) -> str:
    """3 → "3"; 5/2 → "2½"; 1/2 → "½"; a fraction without its own sign → "1 3/8"."""
    if value is None or value == "":
        return ""
    value = Fraction(value)
    sign = MINUS if value < 0 else ""
    whole, rest = divmod(abs(value), 1)
    if not rest:
        return f"{sign}{whole}"
    head = str(whole) if whole else ""
    tail = VULGAR.get(rest) or f"{' ' if head else ''}{rest.numerator}/{rest.denominator}"
    return f"{sign}{head}{tail}"


def format_match_points(won, lost) -> str:
    """Match points won and lost: "2½:½"."""
    return f"{format_points(won)}:{format_points(lost)}"


# --------------------------------------------------------------------------------------
# Ratings
# --------------------------------------------------------------------------------------


def format_rating(rating: int, uncertainty: int) -> str:
    """A shown rating with its uncertainty (`ratings.method.shown`): "1,530 ± 84" (en),
    "1.530 ± 84" (de); the ± kept with its figures on one line."""
    number = number_format(rating, force_grouping=True)
    return f"{number}{NBSP}±{NBSP}{number_format(uncertainty, force_grouping=True)}"


# --------------------------------------------------------------------------------------
# A game in words
# --------------------------------------------------------------------------------------

SUIT_SYMBOLS = {"diamonds": "♦", "hearts": "♥", "spades": "♠", "clubs": "♣"}


def describe(game) -> str:
    """A sheet row in words: "♣ with 2, hand, schneider — 95 pts, bid 30"."""
    kind = game.game
    if kind == GameType.PASSED:
        return _("passed in")
    if kind == GameType.RAMSCH:
        text = f"Ramsch: {RamschResult(game.ramsch).label}" if game.ramsch else "Ramsch"
        if getattr(game, "ramsch_tie", None):
            text += " " + _("(tied with seat %(seat)s)") % {"seat": game.ramsch_tie}
        return text
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


# --------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------


def surname_key(name: str) -> tuple[str, str]:
    """("schmidt", "anna") for "Anna Schmidt" and for "Schmidt, Anna": surname first, as
    a hall's list of players is read (the last word is the surname; "von" stays with the
    given names, as in a German phone book)."""
    name = " ".join(name.split())
    if "," in name:
        surname, _comma, given = name.partition(",")
    else:
        given, _space, surname = name.rpartition(" ")
    return fold(surname.strip()), fold(given.strip())


# Name particles that keep their small letter among the initials ("Ludwig van Beethoven":
# "L. v. B."); any other word's initial is a capital.
PARTICLES = frozenset(
    {
        *("al", "d", "da", "das", "de", "del", "della", "den", "der", "des", "di", "do"),
        *("dos", "du", "el", "la", "le", "ten", "ter", "van", "von", "y", "zu", "zum", "zur"),
    }
)


def name_initials(name: str) -> str:
    """A name by its initials, given names first: "Hans Müller" and "Müller, Hans" →
    "H. M."; "Hans-Peter Müller" → "H.-P. M."; "Ludwig van Beethoven" → "L. v. B."; a
    single name "Hans" → "H.". Words without a letter or digit (a dash) are left out."""
    name = " ".join(str(name).split())
    if "," in name:
        surname, _comma, given = name.partition(",")
        words = given.split() + surname.split()
    else:
        words = name.split()
    shown = []
    for word in words:
        letters = [next((c for c in part if c.isalnum()), "") for part in word.split("-")]
        letters = [letter for letter in letters if letter]
        if not letters:
            continue
        if word.casefold() not in PARTICLES:
            letters = [letter.upper() for letter in letters]
        shown.append("-".join(f"{letter}." for letter in letters))
    return " ".join(shown)


def public_name(name: str, *, listed: bool, initials: bool) -> str:
    """The name a public output shows: the one decision of every public page, answer and
    download. A player not listed publicly (`listed` False) by `name_initials` where the
    output shows initials (`permissions.names_by_initials`); everyone else by name."""
    if listed or not initials:
        return name
    return name_initials(name)


def public_player_name(player, *, initials: bool) -> str:
    """`public_name` of a `Player` (anything with `name` and `listed`)."""
    return public_name(player.name, listed=player.listed, initials=initials)


# Under the standings wherever a figure may include phone games not yet confirmed (the
# results PDF, the workbook).
PROVISIONAL_LEGEND = gettext_lazy(
    "* provisional: includes games entered at the table, not yet confirmed"
)
# What the standings' mark of a sheet closed short means, above its notes, on every output.
CLOSED_SHORT_LEGEND = gettext_lazy(
    "These rows include a sheet closed short: a result of fewer games than a full sheet, "
    "ranked with the others."
)

# The heading of every output of a finished tournament's standings (the results PDF, the
# standings page, the projector, a player's page): nothing in them changes until the
# tournament is reopened (`lifecycle`).
FINAL_RESULTS = gettext_lazy("Final results")


FSI, PDI = "\u2068", "\u2069"  # FIRST STRONG ISOLATE, POP DIRECTIONAL ISOLATE


# What can reorder the text around it: right-to-left letters (Hebrew, Arabic, Syriac,
# Thaana, N'Ko ... and their presentation forms, and the historic scripts of the SMP) and
# the explicit direction marks, embeddings, overrides and isolates. A name without any of
# them is left as it is: an <option> whose text began with FSI would no longer be picked by
# typing its first letter.
_BIDI = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\U00010800-\U00010fff\U0001e800-\U0001efff]"
)


def needs_isolation(text) -> bool:
    return bool(_BIDI.search(str(text)))


def bdi(text) -> SafeString | str:
    """User text in HTML, escaped; in a <bdi> where it holds right-to-left letters or
    direction controls (nothing for none)."""
    if text is None or text == "":
        return ""
    if not needs_isolation(text):
        return conditional_escape(text)
    return format_html("<bdi>{}</bdi>", text)


def isolated(text) -> str:
    """User text in plain text, between FSI and PDI where it holds right-to-left letters or
    direction controls (nothing for none): not escaped."""
    if text is None or text == "":
        return ""
    if not needs_isolation(text):
        return str(text)
    return f"{FSI}{text}{PDI}"


CHOICE_LABELS = {"game": GameType, "trump": Trump, "ramsch": RamschResult}


def game_field_label(name: str) -> str:
    """A game field's name in words (its verbose name), for a history line."""
    return str(Game._meta.get_field(name).verbose_name)


def game_value_shown(name: str, value) -> str:
    """A game field's stored value in words: "won", "yes", a game type's label, "—" for none;
    the game history on the pages and the message of a stale correction alike."""
    if value is None or value == "":
        return "—"
    if name == "won":
        return _("won") if value else _("lost")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if name in CHOICE_LABELS:
        try:
            return str(CHOICE_LABELS[name](value).label)
        except ValueError:
            return str(value)
    return str(value)
