"""Reads of the money desk: what each player owes, paid and won; the pot and the cash summary.

Definitions (rules §4 "Money"; shown on the money page and the prize list as well):
- *Fees due* per player: the entry fee, the table (card) fee × the series the player was
  seated in, and the lost-game fees of each series from the games actually entered
  (`SeatLine.lost`: the games the player declared and lost, overbid included, provisional
  rows included). Tiered: with `lost_game_fee_from` = k, lost games 1 … k−1 of a series
  cost `lost_game_fee` and every further one `lost_game_fee_high`.
- *Pot* = every registered player's entry fee + every lost-game fee. The table fees stay
  with the club. A share prize is share % × pot in whole cents, shared out by the
  largest-remainder method (`shares_of_pot`, the only place where money is rounded): the
  shares never add up to more than their part of the pot; *remainder* = pot − the whole
  prize plan (the club's part of the pot; negative when the plan promises more than the
  pot holds).
- Only players who played (at least one series) win prizes; a prize's rank counts them.
- *Prize winners* are the players at the prize's rank of its ranking (overall standings,
  one series, or one category's standings) once that ranking has games entered; a rank
  beyond the number of players has no winner. One player can win several prizes (overall
  and ladies, say): each is listed and paid on its own.
- *Ties*: players equal on every tie-break share their rank and the places it spans. The
  prizes of those places have no winner until the director draws lots (`tied` names the
  players), or, with the tournament's `prizes_split_ties`, their sum is split evenly among
  the tied players (whole cents, the odd cents to the first in the list): each gets a line
  of its own with the shared rank.
- *Payments* are stored signed from the cash box's view: fees paid in are positive, prize
  payouts and refunds negative (`money.services.payment_record` takes positive amounts and
  signs them by kind). *Balance* = fees due − fees paid (net of refunds) − prizes not yet
  paid out: positive, the player still owes the club; negative, the club owes the player.
Amounts are `Decimal` with two places throughout; payments are summed in Python, not in
SQL, so that no database turns them into floats on the way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal

from django.db.models import Count
from django.utils.translation import gettext

from tournaments.models import Category, Game, Payment, Prize, Registration, Tournament
from tournaments.phrases import prize_title, ranking_label
from tournaments.standings.selectors import (
    StandingRow,
    category_standings_from,
    series_standings_from,
    tournament_standings,
)

CENT = Decimal("0.01")


ZERO = Decimal("0.00")


def cents(value) -> Decimal:
    """`value` (a Decimal, an int or a numeric string, never a float) with two places."""
    if isinstance(value, float):
        raise TypeError("money is kept in Decimals, never in floats")
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def lost_game_fees(tournament: Tournament, lost: int) -> Decimal:
    """The fee for `lost` lost games in one series (flat, or tiered from the k-th game on)."""
    fee = cents(tournament.lost_game_fee or 0)
    start = tournament.lost_game_fee_from
    if start is None or tournament.lost_game_fee_high is None:
        return lost * fee
    high = cents(tournament.lost_game_fee_high)
    return min(lost, start - 1) * fee + max(0, lost - start + 1) * high


def shares_of_pot(shares: Sequence[Decimal], pot: Decimal) -> list[Decimal]:
    """The pot shared out in whole cents by the largest-remainder method, in order.

    Each share first gets its exact part rounded down to the cent; the cents left over go
    one each to the largest remainders, and on equal remainders to the earlier share (the
    higher-placed prize: pass the shares in rank order). So the shares never add up to more
    than their part of the pot, and a plan of 100 % pays out exactly the pot.
    """
    pot_cents = int(cents(pot) / CENT)
    exact = [cents(share) * pot_cents / 100 for share in shares]
    whole = [int(e.to_integral_value(rounding=ROUND_FLOOR)) for e in exact]
    total = cents(sum((cents(s) for s in shares), ZERO))
    # The cents the whole plan's shares are owed together, rounded down (never above).
    owed = int((total * pot_cents / 100).to_integral_value(rounding=ROUND_FLOOR))
    left = max(0, owed - sum(whole))
    order = sorted(range(len(shares)), key=lambda i: (-(exact[i] - whole[i]), i))
    for i in order[:left]:
        whole[i] += 1
    return [Decimal(c) * CENT for c in whole]


SCOPE_ORDER = {Prize.Scope.OVERALL: 0, Prize.Scope.SERIES: 1, Prize.Scope.CATEGORY: 2}


CATEGORY_ORDER = {value: index for index, value in enumerate(Category.values)}


@dataclass
class PrizeLine:
    """One line of the prize plan: its amount in cents and, once games are in, its winner."""

    prize_id: int
    scope: str
    series_number: int
    category: str
    rank: int
    amount: Decimal
    share: Decimal | None = None  # % of the pot; None for a fixed amount
    player_id: int | None = None
    player_name: str = ""
    registration_id: int | None = None
    points: int | None = None  # the winner's points in that ranking
    tied: list[str] = field(default_factory=list)  # unresolved tie: the players' names
    split: int = 1  # the prize is one of `split` even parts of the tied places' prizes

    @property
    def ranking(self) -> tuple[str, int, str]:
        return (self.scope, self.series_number, self.category)

    @property
    def sort_key(self):
        return (
            SCOPE_ORDER.get(self.scope, 9),
            self.series_number,
            CATEGORY_ORDER.get(self.category, 99),
            self.rank,
        )

    @property
    def ranking_label(self) -> str:
        return ranking_label(self.scope, self.series_number, self.category)

    @property
    def title(self) -> str:
        """The rank and the ranking: 1. Overall, 2. Ladies, 1. Series 3."""
        return prize_title(self.rank, self.scope, self.series_number, self.category)

    @property
    def awarded(self) -> bool:
        return self.player_id is not None

    @property
    def status(self) -> str:
        """The winner as the prize list shows it: the name, a tie to resolve, or nobody."""
        if self.awarded:
            if self.split > 1:
                return gettext("%(name)s (shared by %(n)s)") % {
                    "name": self.player_name,
                    "n": self.split,
                }
            return self.player_name
        if self.tied:
            return gettext("tied: draw lots between %(names)s") % {"names": ", ".join(self.tied)}
        return gettext("no winner yet")


@dataclass
class MoneyRow:
    """One registered player's money: fees due, payments, prizes, balance."""

    registration_id: int
    player_id: int
    player_name: str
    club: str
    category: str
    series_played: int = 0
    lost_games: int = 0
    lost_by_series: dict[int, int] = field(default_factory=dict)
    entry_fee: Decimal = ZERO
    table_fees: Decimal = ZERO
    lost_game_fees: Decimal = ZERO
    paid_in: Decimal = ZERO  # fees paid (payments of kind "fees")
    refunded: Decimal = ZERO  # paid back to the player (a positive figure)
    prizes_paid: Decimal = ZERO  # prize money handed out (a positive figure)
    prizes: list[PrizeLine] = field(default_factory=list)

    @property
    def total_due(self) -> Decimal:
        return self.entry_fee + self.table_fees + self.lost_game_fees

    @property
    def paid(self) -> Decimal:
        """Fees paid, net of refunds."""
        return self.paid_in - self.refunded

    @property
    def prizes_won(self) -> Decimal:
        return sum((p.amount for p in self.prizes), ZERO)

    @property
    def fees_open(self) -> Decimal:
        """Fees still to pay (negative: paid too much)."""
        return self.total_due - self.paid

    @property
    def prizes_open(self) -> Decimal:
        return self.prizes_won - self.prizes_paid

    @property
    def balance(self) -> Decimal:
        """Positive: the player owes the club; negative: the club owes the player."""
        return self.fees_open - self.prizes_open

    @property
    def next_payment(self) -> tuple[str, Decimal]:
        """The payment the desk most likely records next (kind, positive amount)."""
        if self.fees_open > 0:
            return Payment.Kind.FEES, self.fees_open
        if self.prizes_open > 0:
            return Payment.Kind.PRIZE, self.prizes_open
        if self.fees_open < 0:
            return Payment.Kind.REFUND, -self.fees_open
        return Payment.Kind.FEES, ZERO


@dataclass
class CashSummary:
    """The director's cash summary; every figure is a sum of the players' rows.

    Identities (tested): outstanding − prizes_to_pay = Σ balances, and
    cash + Σ balances = total_due − prizes_won = what the club keeps once all is settled.
    """

    lost_games: int
    entry_fees: Decimal
    table_fees: Decimal
    lost_game_fees: Decimal
    total_due: Decimal
    paid_in: Decimal
    refunds: Decimal
    outstanding: Decimal
    prizes_won: Decimal
    prizes_paid: Decimal
    prizes_to_pay: Decimal
    cash: Decimal
    balance: Decimal
    club_keeps: Decimal

    @property
    def paid(self) -> Decimal:
        """Fees paid, net of refunds."""
        return self.paid_in - self.refunds


@dataclass
class TournamentMoney:
    tournament: Tournament
    rows: list[MoneyRow]
    prizes: list[PrizeLine]
    pot: Decimal
    prizes_planned: Decimal
    shares_total: Decimal
    summary: CashSummary

    @property
    def remainder(self) -> Decimal:
        """pot − the whole prize plan: the club's part of the pot (negative: a warning)."""
        return self.pot - self.prizes_planned

    @property
    def unawarded(self) -> Decimal:
        return sum((p.amount for p in self.prizes if not p.awarded), ZERO)

    @property
    def has_money(self) -> bool:
        t = self.tournament
        fees = (t.entry_fee, t.table_fee, t.lost_game_fee, t.lost_game_fee_high or 0)
        return bool(self.prizes) or any(cents(f) != 0 for f in fees)

    def prize_groups(self) -> list[tuple[str, list[PrizeLine]]]:
        """The prize lines by ranking (overall, each series, each category), in rank order."""
        groups: dict[tuple, list[PrizeLine]] = {}
        for line in self.prizes:
            groups.setdefault(line.ranking, []).append(line)
        return [(lines[0].ranking_label, lines) for lines in groups.values()]

    def row_of(self, registration_id: int) -> MoneyRow | None:
        return next((r for r in self.rows if r.registration_id == registration_id), None)


def _give(line: PrizeLine, row: StandingRow, registration_of: dict):
    line.player_id = row.player_id
    line.player_name = row.player_name
    line.registration_id = registration_of.get(row.player_id)
    line.points = row.list_points


def _award(
    lines: list[PrizeLine], standings: list[StandingRow], registration_of: dict, *, split: bool
) -> list[PrizeLine]:
    """The ranking's prize lines with their winners (see "Ties" above for shared places)."""
    # Only players who played (a series result) win: a registered no-show has a row with 0
    # points that would rank above every negative score. Ranks count the players who played.
    played = [row for row in standings if row.series]
    places: dict[int, list[StandingRow]] = {}  # first place of a group → its players
    place = 0
    for index, row in enumerate(played):
        if index and played[index - 1].rank_key() == row.rank_key():
            places[place].append(row)
        else:
            place = index + 1
            places[place] = [row]
    by_rank = {line.rank: line for line in lines}
    result = []
    done = set()
    for first, group in places.items():
        spanned = [by_rank[r] for r in range(first, first + len(group)) if r in by_rank]
        done.update(line.rank for line in spanned)
        if not spanned:
            continue
        if len(group) == 1:
            _give(spanned[0], group[0], registration_of)
            result.append(spanned[0])
        elif not split:
            for line in spanned:
                line.tied = [row.player_name for row in group]
            result.extend(spanned)
        else:
            total = sum((line.amount for line in spanned), ZERO)
            each = (total / len(group)).quantize(CENT, rounding=ROUND_FLOOR)
            odd = int((total - each * len(group)) / CENT)
            template = spanned[0]
            for index, row in enumerate(group):
                line = PrizeLine(
                    prize_id=template.prize_id,
                    scope=template.scope,
                    series_number=template.series_number,
                    category=template.category,
                    rank=first,
                    amount=each + (CENT if index < odd else ZERO),
                    split=len(group),
                )
                _give(line, row, registration_of)
                result.append(line)
    result.extend(line for line in lines if line.rank not in done)
    return result


def tournament_money(
    tournament: Tournament, *, standings: list[StandingRow] | None = None
) -> TournamentMoney:
    """Every player's money, the prize plan with its winners, the pot and the cash summary.

    A fixed number of queries for the players (the standings' aggregates, the payments, the
    prizes): the standings of each series and category that the prize plan names are taken
    from the tournament's (`standings`, when the caller has them already).
    """
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club")
        .order_by()
    )
    registration_of = {r.player_id: r.pk for r in registrations}
    if standings is None:
        standings = tournament_standings(tournament)
    results = {row.player_id: row for row in standings}
    entry_fee = cents(tournament.entry_fee or 0)
    table_fee = cents(tournament.table_fee or 0)
    rows = []
    for reg in registrations:
        player = reg.player
        row = MoneyRow(
            registration_id=reg.pk,
            player_id=player.pk,
            player_name=player.name,
            club=player.club.name if player.club else "",
            category=player.category,
            entry_fee=entry_fee,
        )
        result = results.get(player.pk)
        if result is not None:
            row.lost_by_series = {n: s.lost for n, s in sorted(result.series.items())}
            row.series_played = len(result.series)
            row.lost_games = sum(row.lost_by_series.values())
            row.table_fees = table_fee * row.series_played
            row.lost_game_fees = sum(
                (lost_game_fees(tournament, n) for n in row.lost_by_series.values()), ZERO
            )
        rows.append(row)
    rows.sort(key=lambda r: (r.player_name.casefold(), r.registration_id))
    by_registration = {r.registration_id: r for r in rows}
    for registration_id, kind, amount in Payment.objects.filter(
        registration__tournament=tournament
    ).values_list("registration_id", "kind", "amount"):
        row = by_registration[registration_id]
        amount = cents(amount)
        if kind == Payment.Kind.FEES:
            row.paid_in += amount
        elif kind == Payment.Kind.REFUND:
            row.refunded -= amount
        else:
            row.prizes_paid -= amount

    entry_total = sum((r.entry_fee for r in rows), ZERO)
    lost_total = sum((r.lost_game_fees for r in rows), ZERO)
    pot = entry_total + lost_total
    lines = [
        PrizeLine(
            prize_id=p.pk,
            scope=p.scope,
            series_number=p.series_number,
            category=p.category,
            rank=p.rank,
            amount=cents(p.amount) if p.share is None else ZERO,
            share=None if p.share is None else cents(p.share),
        )
        for p in Prize.objects.filter(tournament=tournament)
    ]
    lines.sort(key=lambda line: line.sort_key)
    shared = [line for line in lines if line.share is not None]
    for line, amount in zip(shared, shares_of_pot([x.share for x in shared], pot), strict=True):
        line.amount = amount
    played = dict(
        Game.objects.filter(table__series__tournament=tournament)
        .values_list("table__series__number")
        .annotate(n=Count("id"))
        .order_by()
    )
    rankings: dict[tuple, list[PrizeLine]] = {}
    for line in lines:
        rankings.setdefault(line.ranking, []).append(line)
    split = tournament.prizes_split_ties
    awarded = []
    for (scope, number, category), group in rankings.items():
        if scope == Prize.Scope.SERIES and played.get(number):
            series_standings = series_standings_from(standings, number)
            group = _award(group, series_standings, registration_of, split=split)
        elif scope == Prize.Scope.CATEGORY and played:
            category_standings = category_standings_from(standings, category)
            group = _award(group, category_standings, registration_of, split=split)
        elif scope == Prize.Scope.OVERALL and played:
            group = _award(group, standings, registration_of, split=split)
        awarded.extend(group)
    lines = sorted(awarded, key=lambda line: line.sort_key)
    for line in lines:
        if line.registration_id in by_registration:
            by_registration[line.registration_id].prizes.append(line)

    def total(attribute: str) -> Decimal:
        return sum((getattr(r, attribute) for r in rows), ZERO)

    total_due = total("total_due")
    paid_in, refunds = total("paid_in"), total("refunded")
    prizes_won, prizes_paid = total("prizes_won"), total("prizes_paid")
    summary = CashSummary(
        lost_games=sum(r.lost_games for r in rows),
        entry_fees=entry_total,
        table_fees=total("table_fees"),
        lost_game_fees=lost_total,
        total_due=total_due,
        paid_in=paid_in,
        refunds=refunds,
        outstanding=total_due - paid_in + refunds,
        prizes_won=prizes_won,
        prizes_paid=prizes_paid,
        prizes_to_pay=prizes_won - prizes_paid,
        cash=paid_in - refunds - prizes_paid,
        balance=total("balance"),
        club_keeps=total_due - prizes_won,
    )
    return TournamentMoney(
        tournament=tournament,
        rows=rows,
        prizes=lines,
        pot=pot,
        prizes_planned=sum((line.amount for line in lines), ZERO),
        shares_total=sum((line.share for line in lines if line.share is not None), ZERO),
        summary=summary,
    )
