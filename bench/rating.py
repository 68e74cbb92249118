"""Benchmark of the Skat rating: does it find the strong players, and is it fast enough.

    python bench/rating.py [--players 300] [--series 30] [--unseen 5000] [--tables 100000]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/skat_rating python bench/rating.py

(a) Quality, in memory, no database: `--players` players with hidden strengths (normal,
mean 0, sd 1) each play `--series` series at random tables of 3 and 4. Each deal of a
series (48 at a 4-table, 36 at a 3-table, rules §4) has a declarer among the seats with
cards, drawn more often among the strong (weight e^(strength/2)), who wins with probability
1 / (1 + e^-(1.1 + strength - mean of the defenders' strengths)) (a player of average
strength wins three games in four, as on a real list); the game itself (suit or grand,
matadors, card points) is random. The sheet is then totalled by the rules engine
(`scoring.score_sheet`: real Seeger-Fabian list points) and the table rated in order by
the one rating method (`ratings.method.rate_table`). Printed: the Spearman rank correlation
of the final ratings (mu) with the hidden strengths (target ≥ 0.8), and of the players'
list-point averages for comparison; then on `--unseen` new tables of the same players
(not rated), how often the player with the highest rating, and the player with the
highest list-point average, wins the table (the most list points; a shared first place
counts for neither). Target: the rating predicts better.

(b) Speed, on the database of DATABASE_URL (default a SQLite file under bench/out/):
`--tables` closed tables (about 3.5 seats each, 2,000 players, tournaments of 200
players and 4 series, one game per table so that it counts as played) are generated once
and reused. Timed: `ratings_recompute` of all of them (target < 10 s), and the update
after one closed table as `sheets.services.table_close` makes it (`ratings_after_close`,
median of `--updates` tables of a tournament after all others: the fast path; target
< 50 ms); for information, a table of the middle of the order reopened and closed again
(the replay of everything after it).
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
os.environ.setdefault("DJANGO_DEBUG", "0")
(ROOT / "bench" / "out").mkdir(exist_ok=True)
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'bench' / 'out' / 'rating.sqlite3'}")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from scoring import dealer, score_sheet  # noqa: E402
from tournaments.models import (  # noqa: E402
    Club,
    Game,
    Player,
    RatingChange,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournaments.ratings.method import START, rate_table  # noqa: E402
from tournaments.ratings.services import (  # noqa: E402
    ratings_after_close,
    ratings_after_reopen,
    ratings_recompute,
)

GAMES = {3: 36, 4: 48}  # a series' deals at a table of 3 and of 4 (rules §4)
TRUMPS = ("diamonds", "hearts", "spades", "clubs", "grand")
BENCH_CLUB = "Rating benchmark"


# --------------------------------------------------------------------------------------
# (a) Quality
# --------------------------------------------------------------------------------------


def seat_players(rng: random.Random, players: list[int]) -> list[list[int]]:
    """One series' tables: everyone seated at tables of 4 and of 3 (a few of 3, at random)."""
    order = players[:]
    rng.shuffle(order)
    n = len(order)
    threes = [k for k in range(0, n // 3 + 1) if (n - 3 * k) % 4 == 0]
    small = [k for k in threes if 0 < k <= max(4, n // 20)] or threes
    k = rng.choice(small)
    sizes = [3] * k + [4] * ((n - 3 * k) // 4)
    rng.shuffle(sizes)
    tables, at = [], 0
    for size in sizes:
        tables.append(order[at : at + size])
        at += size
    return tables


def play_table(rng: random.Random, strengths: list[float]) -> list[int]:
    """A whole series at one table, drawn from the seats' strengths: the list points per
    seat, totalled by the rules engine."""
    size = len(strengths)
    rows = []
    for number in range(1, GAMES[size] + 1):
        out = {dealer(number, size)} if size == 4 else set()
        seats = [s for s in range(1, size + 1) if s not in out]
        weights = [math.exp(strengths[s - 1] / 2) for s in seats]
        declarer = rng.choices(seats, weights)[0]
        defenders = [strengths[s - 1] for s in seats if s != declarer]
        edge = 1.1 + strengths[declarer - 1] - sum(defenders) / len(defenders)
        won = rng.random() < 1 / (1 + math.exp(-edge))
        card_points = rng.randint(61, 89) if won else rng.randint(31, 60)
        game = {"game": rng.choice(TRUMPS), "matadors": rng.randint(1, 3)}
        rows.append((declarer, {**game, "card_points": card_points}))
    totals = score_sheet(rows, rules="ispa", table_size=size)
    return [totals[seat].list_points for seat in range(1, size + 1)]


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation: Pearson's of the ranks (ties: their mean rank)."""

    def ranks(values):
        order = sorted(range(len(values)), key=values.__getitem__)
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return result

    return statistics.correlation(ranks(xs), ranks(ys))


def quality(*, players: int, series: int, unseen: int, seed: int):
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(players)]
    skill = [START] * players
    points = [0] * players
    played = [0] * players
    everyone = list(range(players))
    start = time.perf_counter()
    for _series in range(series):
        for table in seat_players(rng, everyone):
            list_points = play_table(rng, [strength[p] for p in table])
            after = rate_table([skill[p] for p in table], list_points)
            for player, new, own in zip(table, after, list_points, strict=True):
                skill[player] = new
                points[player] += own
                played[player] += 1
    average = [points[p] / played[p] for p in everyone]
    mu = [s.mu for s in skill]
    print(
        f"(a) {players} players × {series} series at tables of 3 and 4 "
        f"({time.perf_counter() - start:.1f} s)"
    )
    print(f"    Spearman with the hidden strengths: rating {spearman(mu, strength):.3f}")
    print(f"      (target ≥ 0.8)            list-point average {spearman(average, strength):.3f}")
    hits = {"rating": 0, "average": 0}
    decided = 0
    while decided < unseen:
        for table in seat_players(rng, everyone):
            list_points = play_table(rng, [strength[p] for p in table])
            best = max(list_points)
            if list_points.count(best) > 1:
                continue
            winner = table[list_points.index(best)]
            decided += 1
            hits["rating"] += max(table, key=mu.__getitem__) == winner
            hits["average"] += max(table, key=average.__getitem__) == winner
            if decided == unseen:
                break
    print(f"    winner of {unseen} unseen tables predicted by the highest")
    print(f"      rating {hits['rating'] / unseen:.1%}")
    print(f"      list-point average {hits['average'] / unseen:.1%}")
    print(f"      (chance at random about {sum(1 / n for n in (3, 4)) / 2:.1%})")
    return {
        "spearman_rating": spearman(mu, strength),
        "spearman_average": spearman(average, strength),
        "hits_rating": hits["rating"],
        "hits_average": hits["average"],
    }


# --------------------------------------------------------------------------------------
# (b) Speed
# --------------------------------------------------------------------------------------

PLAYERS = 2000
PER_TOURNAMENT = 200
SERIES = 4


def generate(tables_wanted: int, seed: int) -> int:
    """Closed tables with their seats' list points and one game each, bulk-written once."""
    rng = random.Random(seed)
    club = Club.objects.create(name=BENCH_CLUB)
    roster = Player.objects.bulk_create(
        [Player(name=f"Spieler {i:04d}", club=club) for i in range(PLAYERS)], batch_size=2000
    )
    strength = {p.pk: rng.gauss(0, 1) for p in roster}
    first = datetime.date(2010, 1, 1)
    made, number = 0, 0
    while made < tables_wanted:
        number += 1
        tournament = Tournament.objects.create(
            club=club,
            name=f"Bench {number}",
            slug=f"rating-bench-{number}",
            date=first + datetime.timedelta(days=3 * number),
            status=Tournament.Status.FINISHED,
        )
        made += _fill(tournament, rng, roster, strength, limit=tables_wanted - made)
    return made


def _fill(tournament, rng, roster, strength, *, limit: int, seated=PER_TOURNAMENT) -> int:
    players = rng.sample(roster, seated)
    made = 0
    for number in range(1, SERIES + 1):
        if made >= limit:
            break
        series = Series.objects.create(
            tournament=tournament, number=number, draw_seed=number, status="closed"
        )
        groups = seat_players(rng, [p.pk for p in players])[: limit - made]
        tables = Table.objects.bulk_create(
            [
                Table(series=series, number=i, size=len(group), closed=True)
                for i, group in enumerate(groups, 1)
            ]
        )
        seats, games = [], []
        for table, group in zip(tables, groups, strict=True):
            for seat, player in enumerate(group, 1):
                points = round(rng.gauss(strength[player], 1) * 400)
                seats.append(
                    Seat(
                        table=table,
                        series=series,
                        number=seat,
                        player_id=player,
                        table_size=table.size,
                        list_points=points,
                    )
                )
            games.append(
                Game(
                    table=table,
                    tournament=tournament,
                    number=1,
                    table_size=table.size,
                    declarer=2,
                    game="grand",
                    matadors=2,
                    card_points=78,
                    won=True,
                )
            )
        Seat.objects.bulk_create(seats, batch_size=2000)
        Game.objects.bulk_create(games, batch_size=2000)
        made += len(tables)
    return made


def speed(*, tables: int, updates: int, repeat: int, seed: int):
    call_command("migrate", verbosity=0)
    club = Club.objects.filter(name=BENCH_CLUB).first()
    have = Table.objects.filter(series__tournament__club=club).count() if club else 0
    if have != tables:
        if club is not None:
            print(f"    (regenerating: {have} tables stored, {tables} asked)")
            for model in (RatingChange, Game, Seat, Table, Series):
                model.objects.filter(**{_club_path(model): club}).delete()
            Tournament.objects.filter(club=club).delete()
            Player.objects.filter(club=club).delete()
            club.delete()
        start = time.perf_counter()
        with transaction.atomic():
            generate(tables, seed)
        print(f"    generated {tables} closed tables in {time.perf_counter() - start:.0f} s")
    vendor = connection.vendor
    load = os.getloadavg()[0]
    print(f"    load average {load:.1f} on {os.cpu_count()} CPUs (times grow with it)")
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        with transaction.atomic():
            rated, players = ratings_recompute()
        runs.append(time.perf_counter() - start)
    print(
        f"(b) {vendor}: recompute of {rated} tables, {players} players: "
        f"{min(runs):.2f} s best, {statistics.median(runs):.2f} s median of {repeat}"
        " (target < 10 s)"
    )
    club = Club.objects.get(name=BENCH_CLUB)
    roster = list(Player.objects.filter(club=club))
    rng = random.Random(seed + 1)
    strength = {p.pk: rng.gauss(0, 1) for p in roster}
    last = Tournament.objects.filter(club=club).order_by("-date").first()
    times = []
    with transaction.atomic():
        latest = Tournament.objects.create(
            club=club,
            name="Bench latest",
            slug="rating-bench-latest",
            date=last.date + datetime.timedelta(days=7),
        )
        _fill(latest, rng, roster, strength, limit=updates, seated=min(len(roster), updates * 4))
        latest_tables = list(
            Table.objects.filter(series__tournament=latest)
            .select_related("series__tournament")
            .order_by("series__number", "number")
        )
        for table in latest_tables:
            start = time.perf_counter()
            with transaction.atomic():
                ratings_after_close(table)
            times.append(time.perf_counter() - start)
        middle = (
            Table.objects.filter(series__tournament__club=club)
            .select_related("series__tournament")
            .order_by("series__tournament__date", "series__number", "number")[tables // 2]
        )
        start = time.perf_counter()
        with transaction.atomic():
            Table.objects.filter(pk=middle.pk).update(closed=False)
            ratings_after_reopen(middle)
            Table.objects.filter(pk=middle.pk).update(closed=True)
            ratings_after_close(middle)
        replay = time.perf_counter() - start
        transaction.set_rollback(True)
    median, slowest = statistics.median(times) * 1000, max(times) * 1000
    print(
        f"    update after one closed table (fast path): median {median:.1f} ms,"
        f" slowest {slowest:.1f} ms of {len(times)} (target < 50 ms)"
    )
    print(
        f"    a table in the middle of the order reopened and closed again (two replays of"
        f" about {tables // 2} tables): {replay:.2f} s"
    )
    return {"tables": rated, "players": players, "updates": len(times)}


def _club_path(model) -> str:
    return {
        RatingChange: "table__series__tournament__club",
        Game: "tournament__club",
        Seat: "series__tournament__club",
        Table: "series__tournament__club",
        Series: "tournament__club",
    }[model]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--series", type=int, default=30)
    parser.add_argument("--unseen", type=int, default=5000)
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3, help="recomputes timed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-quality", action="store_true")
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args()
    if not args.skip_quality:
        quality(players=args.players, series=args.series, unseen=args.unseen, seed=args.seed)
    if not args.skip_speed:
        speed(tables=args.tables, updates=args.updates, repeat=args.repeat, seed=args.seed)


if __name__ == "__main__":
    main()
