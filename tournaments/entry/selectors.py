"""Reads of entry at the tables: which table a link opens, the two copies of a sheet.

Terms: a table's *link* is its private address for entry on a phone; the *first copy* of
a sheet is its games (keyed by the first list keeper, a secretary or the director), the
*second copy* the second keeper's `SheetCopy` under double entry. Rules for counting:
- A provisional game (keyed on a phone, not yet confirmed) counts in the standings and
  the sheet's totals, and marks its players' rows `provisional`.
- Under double entry a game whose row the second copy has *differently* is *disputed*,
  whoever keyed the first copy (a phone, or the secretary's screen): it counts nowhere
  (standings, sheet totals) until the director chooses a version
  (`sheets.selectors.disputed_games`). A row the second keeper has not reached yet is not
  disputed, only provisional.
- A game confirmed (`entry.services.sheet_confirm`, which needs both copies to agree) is
  final: a later difference from the second copy changes nothing. A game keyed on the
  secretary's screen is never provisional, but it is not confirmed either: it is compared.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.games import game_build, game_mapping_of
from tournaments.models import Game, SheetCopy, Table
from tournaments.sheets.selectors import Sheet, disputed_games, sheet_of, unconfirmed
from tournaments.sheets.totals import PENALTY_FIGURES, seat_figures

_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def entry_link(token: str) -> tuple[Table, int] | None:
    """The table a private link opens and whose list keeper it is (1, or 2 under double
    entry); None for an unknown, revoked or malformed link."""
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        return None
    table = (
        Table.objects.select_related("series__tournament__club")
        .filter(Q(entry_token=token) | Q(entry_token_2=token))
        .first()
    )
    if table is None:
        return None
    if table.entry_token and secrets.compare_digest(table.entry_token, token):
        return table, 1
    second = table.entry_token_2
    if second and table.series.tournament.double_entry and secrets.compare_digest(second, token):
        return table, 2
    return None


@dataclass
class CopyRow:
    """One row of a sheet under double entry: the game and the second copy's row."""

    number: int
    dealer: int
    first: dict | None  # the game as a game mapping
    second: dict | None  # the second copy's game mapping
    first_game: Game | None
    # The second copy's row as an unsaved, computed Game (None if the engine now rejects it).
    second_game: Game | None
    confirmed: bool = False  # the game was confirmed: final, whatever the second copy says

    @property
    def equal(self) -> bool:
        return self.first == self.second

    @property
    def provisional(self) -> bool:
        """Not final yet: no game, a phone's provisional game, or a game keyed on the
        secretary's screen that no confirmation has made final."""
        return self.first_game is None or not self.confirmed

    @property
    def unsettled(self) -> bool:
        """The copies differ on a row that is not yet final: confirming must wait."""
        return not self.equal and self.provisional

    @property
    def disputed(self) -> bool:
        """Both copies have the row, differently: it does not count."""
        return self.unsettled and self.first is not None and self.second is not None

    @property
    def sides(self) -> list[tuple[str, Game | None, dict | None]]:
        return [("first", self.first_game, self.first), ("second", self.second_game, self.second)]


def _build(table: Table, number: int, data: dict) -> Game | None:
    try:
        return game_build(table=table, number=number, data=data)
    except UserError:
        return None


def sheet_copies_compare(table: Table) -> list[CopyRow]:
    """Both copies of a sheet row by row (as far as the longer one goes)."""
    games = {game.number: game for game in table.games.all()}
    open_ids = set(unconfirmed(table.games.all()).values_list("pk", flat=True))
    copy = SheetCopy.objects.filter(table=table).first()
    second = {row["number"]: row["data"] for row in (copy.rows if copy else [])}
    rows = []
    for number in range(1, max([*games, *second], default=0) + 1):
        game = games.get(number)
        data = second.get(number)
        rows.append(
            CopyRow(
                number=number,
                dealer=table.dealer_of(number),
                first=game_mapping_of(game) if game is not None else None,
                second=data,
                first_game=game,
                second_game=_build(table, number, data) if data is not None else None,
                confirmed=game is not None and game.pk not in open_ids,
            )
        )
    return rows


def copy_sheet(table: Table) -> Sheet:
    """The second keeper's copy laid out as a sheet (`sheets.selectors.sheet_of`): running
    totals and the summary block, its figures computed from its rows as the seats' totals
    are from games (`sheets.totals.seat_figures`, rules §2)."""
    seats = list(table.seats.select_related("player").order_by("number"))
    copy = SheetCopy.objects.filter(table=table).first()
    games = {
        row["number"]: _build(table, row["number"], row["data"])
        for row in (copy.rows if copy else [])
    }
    figures = seat_figures(
        size=table.size,
        games=[game for game in games.values() if game is not None],
        penalties=table.penalties.order_by().values_list(*PENALTY_FIGURES, named=True),
    )
    return sheet_of(table, seats=seats, games=games, figures=figures, last=max(games, default=0))


def provisional_counts(tables) -> dict[int, int]:
    """table id → how many of its games are provisional (one query)."""
    return dict(
        Game.objects.filter(table__in=tables, provisional=True)
        .values("table_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("table_id", "n")
    )


@dataclass(frozen=True)
class UnconfirmedTable:
    """A sheet whose games are not all final: provisional (a phone's) or disputed."""

    table_id: int
    series_number: int
    table_number: int
    provisional: int
    disputed: int


def unconfirmed_tables(tables) -> list[UnconfirmedTable]:
    """The tables of `tables` (a queryset) with provisional or disputed games, in order."""
    tables = list(tables.select_related("series").order_by("series__number", "number"))
    provisional = provisional_counts([t.pk for t in tables])
    disputed = disputed_games([t.pk for t in tables])
    return [
        UnconfirmedTable(
            table_id=t.pk,
            series_number=t.series.number,
            table_number=t.number,
            provisional=provisional.get(t.pk, 0),
            disputed=len(disputed.get(t.pk, ())),
        )
        for t in tables
        if provisional.get(t.pk) or disputed.get(t.pk)
    ]


def unconfirmed_error(found: list[UnconfirmedTable]) -> UserError:
    """Closing or finishing refused: the sheets whose games must be confirmed first."""
    where = ", ".join(
        _("series %(s)s table %(t)s") % {"s": u.series_number, "t": u.table_number} for u in found
    )
    error = UserError(
        _(
            "Games are still provisional or disputed (%(where)s): confirm or settle them "
            "first, or confirm all provisional games at once."
        )
        % {"where": where},
        code="unconfirmed",
    )
    error.tables = found
    return error


def check_all_confirmed(tables):
    """The one rule before a result becomes final (a series closed, a tournament finished,
    a league's match day confirmed): no game of `tables` (a queryset) is provisional or
    disputed; otherwise `unconfirmed_error` names the sheets to confirm or settle."""
    found = unconfirmed_tables(tables)
    if found:
        raise unconfirmed_error(found)
