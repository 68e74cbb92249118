"""Forms of the score-sheet screens: one sheet row, a penalty, the paper totals.

They parse what a secretary typed into a *game mapping* (see `tournaments.games`) and
never score: the rules engine, called through `games`, decides value, score and whether
the row is valid. A `UserError` from a service is put back on the form with
`add_user_error`, so the typed values stay and the reason shows next to its field.

Terms: a *row* is one deal of the sheet; *signed matadors* are typed as one number, "2" for
"with 2" and "-2" for "without 2" (the `without` box says the same for a positive number).
"""

from django import forms
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

import scoring
from tournaments.errors import UserError
from tournaments.formats import bdi, isolated
from tournaments.models import (
    PENALTY_LIMIT,
    GameType,
    PenaltyLaw,
    RamschResult,
    RuleSet,
    Seat,
    Table,
    Tournament,
    Trump,
)

ISPA_GAMES = scoring.ISPA_GAMES
NA_GAMES = scoring.NA_GAMES
SUITS_AND_GRAND = ("diamonds", "hearts", "spades", "clubs", "grand")

# Which game types each field belongs to (the screen hides the others while typing, so that
# Tab only stops where it matters). Which combinations are *valid* is the engine's business.
FIELD_GAMES: dict[str, tuple[str, ...]] = {
    "declarer": (*ISPA_GAMES[:-1], *NA_GAMES),
    "trump": ("tournee", "passt_mir_nicht", "solo"),
    "ramsch": ("ramsch",),
    "ramsch_tie": ("ramsch",),
    "matadors": (
        *SUITS_AND_GRAND,
        "tournee",
        "passt_mir_nicht",
        "solo",
        "grand_guckser",
        "grand_ouvert",
    ),
    "card_points": (
        *SUITS_AND_GRAND,
        "tournee",
        "passt_mir_nicht",
        "solo",
        "grand_guckser",
        "grand_ouvert",
    ),
    "won": (*ISPA_GAMES[:-1], *NA_GAMES[:-1]),
    "bid": (*ISPA_GAMES[:-1], *NA_GAMES[:-1]),
    "without": (
        *SUITS_AND_GRAND,
        "tournee",
        "passt_mir_nicht",
        "solo",
        "grand_guckser",
        "grand_ouvert",
    ),
    "hand": (*SUITS_AND_GRAND, "null"),
    "ouvert": (*SUITS_AND_GRAND, "null"),
    "schneider_announced": (*SUITS_AND_GRAND, "solo"),
    "schwarz_announced": (*SUITS_AND_GRAND, "solo"),
    "schneider": (
        *SUITS_AND_GRAND,
        "tournee",
        "passt_mir_nicht",
        "solo",
        "grand_guckser",
        "grand_ouvert",
    ),
    "schwarz": (
        *SUITS_AND_GRAND,
        "tournee",
        "passt_mir_nicht",
        "solo",
        "grand_guckser",
        "grand_ouvert",
    ),
    "kontra": (*SUITS_AND_GRAND, "null"),
    "re": (*SUITS_AND_GRAND, "null"),
}
FLAG_FIELDS = (
    "without",
    "hand",
    "ouvert",
    "schneider_announced",
    "schwarz_announced",
    "schneider",
    "schwarz",
    "kontra",
    "re",
)
ISPA_ONLY = ("hand", "ouvert", "kontra", "re")
NA_ONLY = ("trump", "ramsch")

WON_CHOICES = [("", "—"), ("won", _("won")), ("lost", _("lost"))]


def seat_label(seat: Seat) -> str:
    """The seat as "1 Anna Schmidt": the number first, so typing the digit picks it."""
    return f"{seat.number} {isolated(seat.player.name)}"


def seats_of(table: Table) -> list[Seat]:
    return list(table.seats.select_related("player").order_by("number"))


class SeatSelect(forms.Select):
    """A select whose `disabled_values` cannot be picked (the dealer at a 4-table)."""

    def __init__(self, *args, disabled_values=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.disabled_values = {str(v) for v in disabled_values}

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if str(value) in self.disabled_values:
            option["attrs"]["disabled"] = True
        return option


class FormErrorsMixin:
    def add_user_error(self, error: UserError):
        """Show a service's UserError on its field (or above the form)."""
        self.add_error(self.error_field(error), str(error))

    def error_field(self, error: UserError) -> str | None:
        # services name the field (tournaments.errors maps every engine code to one).
        return error.field if error.field in self.fields else None


class GameRowForm(FormErrorsMixin, forms.Form):
    """One sheet row, with the fields of the tournament's rule set only.

    `number` is the row's game number (default: the next row); it says who deals, and the
    dealer of a 4-table cannot be chosen as declarer.
    """

    declarer = forms.TypedChoiceField(
        label=_("Declarer"), coerce=int, empty_value=None, required=False
    )
    game = forms.ChoiceField(label=_("Game"))
    trump = forms.ChoiceField(label=_("Trump"), required=False)
    ramsch = forms.ChoiceField(label=_("Ramsch result"), required=False)
    ramsch_tie = forms.TypedChoiceField(
        label=_("Tied seat"),
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("a tie for the fewest points: this seat scores the same"),
    )
    matadors = forms.IntegerField(
        label=_("Matadors"),
        required=False,
        help_text=_("2 = with 2, -2 = without 2"),
        widget=forms.NumberInput(attrs={"class": "short"}),
    )
    card_points = forms.IntegerField(
        label=_("Card points"),
        required=False,
        help_text=_("the declarer's, with the skat"),
        widget=forms.NumberInput(attrs={"class": "short"}),
    )
    # Won / lost comes after the bid: with card points it is optional, and a field that
    # stays in one place keeps the Tab order the same from game to game.
    bid = forms.IntegerField(
        label=_("Bid"), required=False, widget=forms.NumberInput(attrs={"class": "short"})
    )
    won = forms.ChoiceField(
        label=_("Won / lost"),
        choices=WON_CHOICES,
        required=False,
        help_text=_("from the card points when left empty; a null game needs it"),
    )
    without = forms.BooleanField(label=_("without"), required=False)
    hand = forms.BooleanField(label=_("Hand"), required=False)
    ouvert = forms.BooleanField(label=_("Ouvert"), required=False)
    schneider_announced = forms.BooleanField(label=_("Schneider announced"), required=False)
    schwarz_announced = forms.BooleanField(label=_("Schwarz announced"), required=False)
    schneider = forms.BooleanField(label=_("Schneider"), required=False)
    schwarz = forms.BooleanField(label=_("Schwarz"), required=False)
    kontra = forms.BooleanField(label=_("Kontra"), required=False)
    re = forms.BooleanField(label=_("Re"), required=False)

    def __init__(
        self,
        data=None,
        *,
        table: Table,
        tournament: Tournament,
        number: int | None = None,
        seats: list[Seat] | None = None,
        **kwargs,
    ):
        super().__init__(data, **kwargs)
        self.table = table
        self.tournament = tournament
        if number is None:
            number = (max(table.games.values_list("number", flat=True), default=0)) + 1
        self.number = number
        self.dealer = table.dealer_of(number)
        seats = seats if seats is not None else seats_of(table)
        # rules §4: the dealer of a 4-table; rules §3.6: two seats at an NA 5-table.
        sitting_out = sorted(scoring.sitting_out(number, table.size))

        na = tournament.rules == RuleSet.NA
        ramsch = tournament.ramsch  # "" when the tournament plays no ramsch
        for name in ISPA_ONLY if na else NA_ONLY:
            if not (name == "ramsch" and ramsch):
                del self.fields[name]
        if na or not tournament.kontra_allowed:
            self.fields.pop("kontra", None)
            self.fields.pop("re", None)

        declarer = self.fields["declarer"]
        declarer.choices = [("", "—")] + [(s.number, seat_label(s)) for s in seats]
        declarer.widget = SeatSelect(choices=declarer.choices, disabled_values=sitting_out)
        declarer.help_text = (
            _("Ramsch: the player whose result is entered")
            if na
            else _("empty for a passed-in deal")
        )
        games = NA_GAMES if na else ISPA_GAMES + (("ramsch",) if ramsch else ())
        self.fields["game"].choices = [("", "—")] + [(g, GameType(g).label) for g in games]
        if na:
            self.fields["trump"].choices = [("", "—"), *Trump.choices]
        # A tie for the fewest points shares the result (Gewinner-Ramsch, or the NA option).
        if ramsch == "gewinner" or (ramsch and tournament.ramsch_tie_both_win):
            self.fields["ramsch_tie"].choices = [("", "—")] + [
                (s.number, seat_label(s)) for s in seats
            ]
            self.fields["ramsch_tie"].widget = SeatSelect(
                choices=self.fields["ramsch_tie"].choices, disabled_values=sitting_out
            )
        else:
            del self.fields["ramsch_tie"]
        if ramsch:
            # The results the tournament's ramsch rule scores (`scoring.variants`).
            results = scoring.ramsch_results(str(tournament.rules), ramsch)
            self.fields["ramsch"].choices = [("", "—")] + [
                (result, RamschResult(result).label) for result in results
            ]

        for name, field in self.fields.items():
            if name in FIELD_GAMES:
                field.widget.attrs["data-games"] = " ".join(FIELD_GAMES[name])
        self.fields["declarer"].widget.attrs["data-off"] = "dim"
        self.fields["declarer"].widget.attrs["autofocus"] = True
        # A phone's digit keypad; the matadors keep the full one for the minus sign.
        for name in ("card_points", "bid"):
            self.fields[name].widget.attrs["inputmode"] = "numeric"

    # Layout: the main line in Tab order, then the boxes.
    def main_fields(self):
        return [self[name] for name in self.fields if name not in FLAG_FIELDS]

    def flag_fields(self):
        return [self[name] for name in self.fields if name in FLAG_FIELDS]

    def set_focus(self):
        """Autofocus the first field with an error (the declarer when all is well)."""
        wrong = [name for name in self.fields if name in self.errors]
        if not wrong:
            return
        self.fields["declarer"].widget.attrs.pop("autofocus", None)
        self.fields[wrong[0]].widget.attrs["autofocus"] = True

    def game_mapping(self) -> dict:
        """The row as the services' game mapping; empty fields are left out."""
        data = self.cleaned_data
        mapping: dict = {}
        if data.get("declarer") is not None:
            mapping["declarer"] = data["declarer"]
        mapping["game"] = data["game"]
        for name in ("trump", "ramsch"):
            if data.get(name):
                mapping[name] = data[name]
        matadors = data.get("matadors")
        if matadors is not None:
            mapping["matadors"] = abs(matadors)
        if (matadors is not None and matadors < 0) or data.get("without"):
            mapping["without"] = True
        for name in FLAG_FIELDS:
            if name != "without" and data.get(name):
                mapping[name] = True
        if data.get("won"):
            mapping["won"] = data["won"] == "won"
        for name in ("card_points", "bid", "ramsch_tie"):
            if data.get(name) is not None:
                mapping[name] = data[name]
        return mapping

    @staticmethod
    def initial_from(mapping: dict) -> dict:
        """Form initial values for a stored row (`games.game_mapping_of`)."""
        initial = {k: v for k, v in mapping.items() if k not in ("without", "won", "matadors")}
        if mapping.get("matadors") is not None:
            m = mapping["matadors"]
            initial["matadors"] = -m if mapping.get("without") else m
        elif mapping.get("without"):
            initial["without"] = True
        if mapping.get("won") is not None:
            initial["won"] = "won" if mapping["won"] else "lost"
        return initial


class GameCorrectForm(GameRowForm):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=200,
        required=False,
        help_text=_('Kept in the game\'s history, e.g. "typed 70 instead of 78".'),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A correction starts where the mistake is, not at the declarer.
        self.fields["declarer"].widget.attrs.pop("autofocus", None)

    def main_fields(self):
        return [f for f in super().main_fields() if f.name != "reason"]


class PenaltyForm(FormErrorsMixin, forms.Form):
    """A fixed fine in points, or (North American tournaments) a penalty law of 1908 charged
    at the value of an entered game: then the engine gives the points."""

    seat = forms.TypedChoiceField(label=_("Seat"), coerce=int)
    points = forms.IntegerField(
        label=_("Points"),
        required=False,
        min_value=-PENALTY_LIMIT,
        max_value=PENALTY_LIMIT,
        help_text=_("e.g. -10 for a misdeal"),
        widget=forms.NumberInput(attrs={"class": "short"}),
    )
    reason = forms.CharField(label=_("Reason"), max_length=120, required=False)
    law = forms.TypedChoiceField(
        label=_("or a law at a game's value"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "—"), *PenaltyLaw.choices],
    )
    game = forms.IntegerField(
        label=_("Game no."),
        required=False,
        min_value=1,
        widget=forms.NumberInput(attrs={"class": "short"}),
    )

    def __init__(self, data=None, *, seats: list[Seat], na: bool = False, **kwargs):
        super().__init__(data, **kwargs)
        self.fields["seat"].choices = [(s.number, seat_label(s)) for s in seats]
        if not na:  # the 1908 laws are North American
            del self.fields["law"]
            del self.fields["game"]

    def clean(self):
        data = super().clean()
        if data.get("law"):
            if data.get("game") is None:
                self.add_error("game", _("Name the game whose value the law charges."))
            if data.get("points") is not None:
                self.add_error("points", _("A law's points come from the game: leave empty."))
        elif data.get("points") is None and "points" not in self.errors:
            self.add_error("points", _("Enter the points, or choose a law and a game."))
        return data


class PaperTotalsForm(FormErrorsMixin, forms.Form):
    """One optional total per seat, as written on the paper list."""

    def __init__(self, data=None, *, seats: list[Seat], **kwargs):
        super().__init__(data, **kwargs)
        self.seats = seats
        for seat in seats:
            self.fields[f"seat_{seat.number}"] = forms.IntegerField(
                label=format_html("{} {}", seat.number, bdi(seat.player.name)),
                required=False,
                widget=forms.NumberInput(attrs={"class": "short", "inputmode": "numeric"}),
            )

        self.fields["short_reason"] = forms.CharField(
            label=_("Reason to close it short"),
            max_length=200,
            required=False,
            help_text=_("Only when the table played fewer games than the series length."),
        )

    def paper_totals(self) -> dict[int, int]:
        return {
            seat.number: self.cleaned_data[f"seat_{seat.number}"]
            for seat in self.seats
            if self.cleaned_data.get(f"seat_{seat.number}") is not None
        }
