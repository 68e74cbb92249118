"""A player's hand-built history for the career tests (selectors, page, API).

Seats are written with their stored totals (`sheets.totals` writes them from the games on
the site), so that every figure is known by hand:

- `P` is a member of two clubs, Altenburg (home) and Zeitz;
- "Frühjahr" (Altenburg, 1 Mar 2025, finished): series 1 at a 4-table of 48 games, P 900,
  Q 1000, R 500, S 300; series 2 at a 3-table of 36 games, P 900, Q 900 (a tie), R 100.
  Totals P 1800, Q 1900, R 600, S 300: P is 2nd of 4;
- "Mai" (Zeitz, 2 May 2026, running): series 1 at a 3-table of 36 games, P 720, Q 600, R 0;
- "Geheim" (Altenburg, 5 Jun 2026, finished, not published): P 2000, Q 100 at a 3-table.

Scaled to 48 games: 900, 900 × 48 / 36 = 1200, 720 × 48 / 36 = 960; the average
(900 + 1200 + 960) / 3 = 1020; by year 2025 (900 + 1200) / 2 = 1050, 2026 960.
P against Q (public): below, tied, above; with "Geheim" one more above.
"""

import datetime
from dataclasses import dataclass

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.models import Membership, Player, Seat, Series, Table, Tournament


def seat_table(tournament, number: int, results: list[tuple[Player, int]], games: int) -> Table:
    """Series `number` of `tournament` with one table of `results` (player, list points),
    every seat having played `games` games."""
    series, _ = Series.objects.get_or_create(
        tournament=tournament, number=number, defaults={"draw_seed": number}
    )
    table = Table.objects.create(
        series=series, number=series.tables.count() + 1, size=len(results)
    )
    for seat, (player, points) in enumerate(results, start=1):
        Seat.objects.create(
            table=table,
            series=series,
            number=seat,
            player=player,
            table_size=table.size,
            list_points=points,
            games_played=games,
            won=max(points, 0) // 100,
        )
    return table


@dataclass
class History:
    p: Player
    q: Player
    r: Player
    s: Player
    spring: Tournament
    may: Tournament
    secret: Tournament


def build_history(club) -> History:
    zeitz = ClubFactory(name="Skatclub Zeitz")
    p = PlayerFactory(club=club, name="Paula Pohl")
    Membership.objects.create(player=p, club=zeitz)
    q = PlayerFactory(club=club, name="Quirin Quast")
    r = PlayerFactory(club=zeitz, name="Rita Roth")
    s = PlayerFactory(club=club, name="Sven Sauer")
    finished = Tournament.Status.FINISHED
    spring = TournamentFactory(
        club=club, name="Frühjahr", date=datetime.date(2025, 3, 1), status=finished
    )
    may = TournamentFactory(
        club=zeitz, name="Mai", date=datetime.date(2026, 5, 2), status=Tournament.Status.RUNNING
    )
    secret = TournamentFactory(
        club=club, name="Geheim", date=datetime.date(2026, 6, 5), status=finished, published=False
    )
    for tournament, players in ((spring, (p, q, r, s)), (may, (p, q, r)), (secret, (p, q))):
        for player in players:
            RegistrationFactory(tournament=tournament, player=player)
    seat_table(spring, 1, [(p, 900), (q, 1000), (r, 500), (s, 300)], 48)
    seat_table(spring, 2, [(p, 900), (q, 900), (r, 100)], 36)
    seat_table(may, 1, [(p, 720), (q, 600), (r, 0)], 36)
    seat_table(secret, 1, [(p, 2000), (q, 100), (s, 0)], 36)
    return History(p, q, r, s, spring, may, secret)
