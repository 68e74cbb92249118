"""Demo and benchmark data: realistic, seeded score sheets, tournaments and a demo club.

Everything here is reproducible: every random choice comes from a `random.Random` that the
caller seeds, so the same seed gives the same players, draws and games.

Terms:
- A *row* is one line of a score sheet as a game mapping (`games`' format: the
  `declarer` seat plus the scoring contract's fields, defaults left out).
- *Generated* data is entered in bulk: rows are computed by `games.game_build`, the one
  bridge to the rules engine, so their stored values are exactly what a typed row gets,
  and saved with `bulk_create` without a history (no `GameChange` rows).
- The *demo club* is "Skatfreunde Altenburg" with the secretary login `secretary` /
  `skat-demo`: a finished and a running ISPA tournament, a league season of three match days
  and a North American tournée evening (`demo_create`), and the demo league of four clubs
  (`leagues.demo`).
"""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

import scoring
from tournaments.demo_names import FEMALE_FIRST_NAMES, FIRST_NAMES, LAST_NAMES, TEAM_WORDS
from tournaments.draw.services import series_close, series_draw
from tournaments.errors import UserError
from tournaments.games import game_score
from tournaments.leagues.demo import league_demo_create, league_demo_delete
from tournaments.models import (
    Category,
    Club,
    Game,
    Player,
    RuleSet,
    Season,
    Series,
    Table,
    Tournament,
)
from tournaments.registry.services import (
    club_create,
    memberships_create,
    player_create,
    registration_add,
    season_create,
    tournament_create,
    tournament_set_status,
)
from tournaments.sheets.selectors import table_seat_totals
from tournaments.sheets.services import game_record, games_bulk_record, penalty_record, table_close

# --------------------------------------------------------------------------------------
# One sheet row
# --------------------------------------------------------------------------------------

# rules §1.5: the 63 ISPA game values are the valid bids.
ISPA_BIDS: tuple[int, ...] = tuple(sorted(scoring.valid_bids("ispa")))
# rules §3.1/§3.4: NA bids are a range from 10; bidders name values some game can have.
_NA_UNITS = (5, 6, 7, 8, 9, 10, 11, 12, 16, 20, 24)
NA_BIDS: tuple[int, ...] = tuple(
    sorted(
        {unit * level for unit in _NA_UNITS for level in range(2, 17) if 10 <= unit * level <= 216}
        | {20, 40}
    )
)

# A club evening under the ISkO (rules §1): suits about 55 % (clubs most), grand 30 %,
# null 10 %, passed in 3 %.
_ISPA_KINDS = ("clubs", "spades", "hearts", "diamonds", "grand", "null", "passed")
_ISPA_KIND_WEIGHTS = (18, 14, 12.5, 10.5, 31, 11, 3)
# Matadors 1, 2, 3, … : mostly 1-3 with or without.
_SUIT_MATADOR_WEIGHTS = (38, 30, 17, 8, 4, 2, 0.6, 0.2, 0.1, 0.05, 0.05)
_GRAND_MATADOR_WEIGHTS = (42, 32, 17, 9)
# North American tournée evening (rules §3).
_NA_KINDS = (
    "tournee",
    "passt_mir_nicht",
    "solo",
    "grand_guckser",
    "grand_ouvert",
    "null",
    "null_ouvert",
    "ramsch",
)
_NA_KIND_WEIGHTS = (42, 7, 27, 6, 1, 7, 3, 7)
_SUITS_BY_FREQUENCY = ("clubs", "spades", "hearts", "diamonds")
_SUIT_WEIGHTS = (33, 25, 22, 20)
_RAMSCH_RESULTS = ("fewest_points", "no_trick", "all_tricks")
_RAMSCH_WEIGHTS = (75, 20, 5)

# How often a declarer wins the play, and the share of schneider among won games.
_WIN_RATE = 0.75
_SCHNEIDER_RATE = 0.15
_OVERBID_RATE = 0.02
_KONTRA_RATE = 0.06

_MAX_ATTEMPTS = 50


def random_game(
    rng: random.Random, *, rules: str, table_size: int, number: int, kontra: bool = False
) -> dict:
    """One realistic sheet row for game `number` at a table of `table_size` players.

    The declarer is a seat with cards (never the dealer at a 4-table, rules §4). Every row
    is checked by the rules engine; the rare draw it rejects is drawn again. `kontra` lets
    an ISPA row carry Kontra/Re now and then (a tournament's house rule, rules §1.7).
    """
    rules = str(rules)  # the engine takes a plain string, not a RuleSet member
    make, bids = (_ispa_row, ISPA_BIDS) if rules == RuleSet.ISPA else (_na_row, NA_BIDS)
    for _attempt in range(_MAX_ATTEMPTS):
        row = make(rng, table_size=table_size, number=number, kontra=kontra)
        try:
            result = game_score(row, rules=rules, table_size=table_size)
            if row["game"] not in ("passed", "ramsch"):
                _add_bid(rng, row, value=result.value, bids=bids)
                game_score(row, rules=rules, table_size=table_size)
        except UserError:
            continue
        return row
    raise RuntimeError(f"no valid {rules} game drawn in {_MAX_ATTEMPTS} attempts")


def _declarer(rng: random.Random, *, table_size: int, number: int) -> int:
    out = scoring.sitting_out(number, table_size)
    seats = [s for s in range(1, table_size + 1) if s not in out]
    return rng.choice(seats)


def _matadors(rng: random.Random, *, grand: bool) -> int:
    weights = _GRAND_MATADOR_WEIGHTS if grand else _SUIT_MATADOR_WEIGHTS
    return rng.choices(range(1, len(weights) + 1), weights)[0]


def _play(
    rng: random.Random,
    *,
    schneider_from: int,
    schneider_announced: bool = False,
    schwarz_announced: bool = False,
    win_rate: float = _WIN_RATE,
) -> dict:
    """Card points (and schwarz) of a suit or grand game's play."""
    result: dict = {}
    if rng.random() < win_rate:
        if schwarz_announced:
            points = 120
        elif schneider_announced or rng.random() < _SCHNEIDER_RATE:
            points = rng.randint(schneider_from, 120)
        else:
            points = rng.randint(61, schneider_from - 1)
        if points == 120 and (schwarz_announced or rng.random() < 0.5):
            result["schwarz"] = True
    elif schwarz_announced:
        points = rng.randint(61, 119) if rng.random() < 0.7 else rng.randint(35, 60)
    elif schneider_announced and rng.random() < 0.6:
        points = rng.randint(61, schneider_from - 1)
    else:
        points = rng.randint(31, 60) if rng.random() < 0.88 else rng.randint(0, 30)
        if points == 0 and rng.random() < 0.5:
            result["schwarz"] = True
    result["card_points"] = points
    return result


def _add_bid(rng: random.Random, row: dict, *, value: int, bids: Sequence[int]):
    """Add the winning bid: a game value at or below the game's, now and then above it."""
    null = row["game"] in ("null", "null_ouvert")
    above = [b for b in bids if b > value][:2]
    if above and not null and rng.random() < _OVERBID_RATE:
        row["bid"] = rng.choice(above)  # rules §1.5 / §3.4: an overbid game
        return
    below = [b for b in bids if b <= value]
    if below:
        # Most auctions stop early; a contested one goes up to the game's value.
        row["bid"] = below[0] if rng.random() < 0.4 else rng.choice(below)


def _ispa_row(rng: random.Random, *, table_size: int, number: int, kontra: bool) -> dict:
    kind = rng.choices(_ISPA_KINDS, _ISPA_KIND_WEIGHTS)[0]
    if kind == "passed":
        return {"game": "passed"}  # rules §1.6: no declarer
    row: dict = {
        "declarer": _declarer(rng, table_size=table_size, number=number),
        "game": kind,
    }
    if kind == "null":
        variant = rng.choices(("plain", "hand", "ouvert", "ouvert_hand"), (70, 12, 12, 6))[0]
        if variant in ("hand", "ouvert_hand"):
            row["hand"] = True
        if variant.startswith("ouvert"):
            row["ouvert"] = True
        row["won"] = rng.random() < _WIN_RATE
    else:
        row["matadors"] = _matadors(rng, grand=kind == "grand")
        if rng.random() < 0.35:
            row["without"] = True
        if rng.random() < 0.004:
            # rules §1.3: an open suit game or grand is a hand game with schwarz announced.
            row["hand"] = row["ouvert"] = True
            row.update(_play(rng, schneider_from=90, schwarz_announced=True, win_rate=0.85))
        elif rng.random() < 0.065:
            row["hand"] = True
            announce = rng.random()
            if announce < 0.02:
                row["schneider_announced"] = row["schwarz_announced"] = True
                row.update(_play(rng, schneider_from=90, schwarz_announced=True, win_rate=0.5))
            elif announce < 0.12:
                row["schneider_announced"] = True
                row.update(_play(rng, schneider_from=90, schneider_announced=True, win_rate=0.6))
            else:
                row.update(_play(rng, schneider_from=90))
        else:
            row.update(_play(rng, schneider_from=90))
    if kontra and rng.random() < _KONTRA_RATE:
        row["kontra"] = True
        if rng.random() < 0.25:
            row["re"] = True
    return row


def _na_row(rng: random.Random, *, table_size: int, number: int, kontra: bool) -> dict:
    kind = rng.choices(_NA_KINDS, _NA_KIND_WEIGHTS)[0]
    row: dict = {
        "declarer": _declarer(rng, table_size=table_size, number=number),
        "game": kind,
    }
    if kind == "ramsch":
        # rules §3.5: everyone passed; the row scores the player described.
        row["ramsch"] = rng.choices(_RAMSCH_RESULTS, _RAMSCH_WEIGHTS)[0]
        return row
    if kind in ("null", "null_ouvert"):
        row["won"] = rng.random() < _WIN_RATE
    elif kind in ("grand_guckser", "grand_ouvert"):
        row["matadors"] = _matadors(rng, grand=True)
        if rng.random() < 0.35:
            row["without"] = True
        if kind == "grand_ouvert":  # rules §3.2: counts as schwarz announced
            row.update(_play(rng, schneider_from=91, schwarz_announced=True, win_rate=0.85))
        else:
            row.update(_play(rng, schneider_from=91))
    else:
        # rules §3.1: a tournée is grand when a jack is turned (4 cards of 32).
        grand_share = 0.15 if kind == "solo" else 0.125
        if rng.random() < grand_share:
            row["trump"] = "grand"
        else:
            row["trump"] = rng.choices(_SUITS_BY_FREQUENCY, _SUIT_WEIGHTS)[0]
        row["matadors"] = _matadors(rng, grand=row["trump"] == "grand")
        if rng.random() < 0.35:
            row["without"] = True
        announce = rng.random() if kind == "solo" else 1.0
        if announce < 0.02:
            row["schneider_announced"] = row["schwarz_announced"] = True
            row.update(_play(rng, schneider_from=91, schwarz_announced=True, win_rate=0.5))
        elif announce < 0.10:
            row["schneider_announced"] = True
            row.update(_play(rng, schneider_from=91, schneider_announced=True, win_rate=0.6))
        else:
            row.update(_play(rng, schneider_from=91))
    return row


# --------------------------------------------------------------------------------------
# Sheets, series and whole tournaments
# --------------------------------------------------------------------------------------


def fill_table(
    table: Table, rng: random.Random, *, count: int | None = None, user=None
) -> list[Game]:
    """Enter `count` random games (default: the rest of the series) on a table's sheet.

    Without `user` the rows are computed by `games.game_build` and saved with one
    `bulk_create` in one transaction, for speed. Generated data gets no history (no
    `GameChange` rows): nobody typed it. With `user` every row goes through
    `sheets.services.game_record` instead, one by one, and so gets the history a typed row gets.
    """
    if not (Table.series.is_cached(table) and Series.tournament.is_cached(table.series)):
        table = Table.objects.select_related("series__tournament").get(pk=table.pk)
    series = table.series
    tournament = series.tournament
    if table.closed or series.status == Series.Status.CLOSED:
        raise UserError(_("This sheet is closed; reopen it to enter more games."))
    start = table.games.aggregate(n=Max("number"))["n"] or 0
    remaining = tournament.games_per_series(table.size) - start
    count = remaining if count is None else min(count, remaining)
    if count <= 0:
        return []
    rows = [
        (
            number,
            random_game(
                rng,
                rules=tournament.rules,
                table_size=table.size,
                number=number,
                kontra=tournament.kontra_allowed,
            ),
        )
        for number in range(start + 1, start + count + 1)
    ]
    if user is not None:
        return [game_record(table=table, data=row, user=user) for _number, row in rows]
    return games_bulk_record(table=table, rows=[row for _number, row in rows])


def play_series(
    tournament: Tournament,
    rng: random.Random,
    *,
    complete: bool = True,
    method: str = Series.DrawMethod.RANDOM,
    keep_apart: str = "team",
    partial: Callable[[Table], int | None] | None = None,
    timings: dict[str, float] | None = None,
) -> Series:
    """Draw the next series (seed from `rng`) and fill its sheets.

    `complete`: every sheet full and closed, and the series closed. Otherwise `partial`
    says how many games each table has entered so far (None: the whole sheet), and nothing
    is closed. `timings` collects the seconds spent per step ("draw", "games", "close").
    """
    clock = _Clock(timings)
    series = series_draw(
        tournament=tournament,
        method=method,
        seed=rng.randrange(1, 2**31),
        keep_apart=keep_apart,
    )
    clock.lap("draw")
    tables = list(series.tables.select_related("series__tournament").order_by("number"))
    for table in tables:
        fill_table(table, rng, count=None if complete or partial is None else partial(table))
    clock.lap("games")
    if complete:
        for table in tables:
            table_close(table=table)
        series_close(series=series)
        clock.lap("close")
    return series


class _Clock:
    """Adds the seconds since the last lap to `timings[step]` (when timings are wanted)."""

    def __init__(self, timings: dict[str, float] | None):
        self.timings = timings
        self.last = time.perf_counter()

    def lap(self, step: str):
        now = time.perf_counter()
        if self.timings is not None:
            self.timings[step] = self.timings.get(step, 0.0) + now - self.last
        self.last = now


def player_names(rng: random.Random, count: int) -> list[tuple[str, bool]]:
    """`count` different "First Last" names (German, Polish and others); True for women."""
    pool = [(first, last) for first in FIRST_NAMES for last in LAST_NAMES]
    if count > len(pool):
        # Beyond the combinations, a double-barrelled surname keeps every name different.
        pool += [
            (first, f"{last}-{other}")
            for first in FIRST_NAMES
            for last in LAST_NAMES[:20]
            for other in LAST_NAMES[20:40]
        ]
    if count > len(pool):
        raise ValueError(f"at most {len(pool)} generated names")
    return [
        (f"{first} {last}", first in FEMALE_FIRST_NAMES) for first, last in rng.sample(pool, count)
    ]


def _category(rng: random.Random, female: bool) -> str:
    roll = rng.random()
    if female and roll < 0.5:
        return Category.LADIES
    if roll > 0.9:
        return Category.SENIORS
    if roll > 0.85:
        return Category.YOUTH
    return Category.NONE


def generate_tournament(
    *,
    club: Club,
    players: int,
    series: int,
    seed: int,
    name: str | None = None,
    rules: str = RuleSet.ISPA,
    complete: bool = True,
    date: datetime.date | None = None,
    timings: dict[str, float] | None = None,
) -> Tournament:
    """A published tournament of `players` new players of `club` and `series` filled series.

    About half the players are in teams of four. With `complete` every sheet is full and
    closed, every series closed and the tournament finished; otherwise the last series is
    only partly entered. Players and registrations are bulk-created, sheets bulk-filled
    (`fill_table`), so 2,000 players × 4 series take well under two minutes on SQLite.
    `timings` collects the seconds spent per step ("players", "draw", "games", "close").
    """
    # One transaction: a half-generated tournament is useless, and on SQLite one commit
    # instead of thousands saves a good part of the time.
    with transaction.atomic():
        return _generate_tournament(
            club=club,
            players=players,
            series=series,
            seed=seed,
            name=name,
            rules=rules,
            complete=complete,
            date=date,
            timings=timings,
        )


def _generate_tournament(*, club, players, series, seed, name, rules, complete, date, timings):
    clock = _Clock(timings)
    rng = random.Random(seed)
    tournament = tournament_create(
        club=club,
        name=name or f"Preisskat {players} × {series} (seed {seed})",
        date=date or datetime.date.today(),
        rules=rules,
        list_scoring=rules == RuleSet.ISPA,
        published=True,
    )
    names = player_names(rng, players)
    team_slots = [
        f"{TEAM_WORDS[i % len(TEAM_WORDS)]} {i // len(TEAM_WORDS) + 1}"
        for i in range(players // 8)
    ]
    teams = [team for team in team_slots for _seat in range(4)]
    teams += [""] * (players - len(teams))
    rng.shuffle(teams)
    roster = Player.objects.bulk_create(
        [
            Player(name=full_name, club=club, team=team, category=_category(rng, female))
            for (full_name, female), team in zip(names, teams, strict=True)
        ],
        batch_size=1000,
    )
    memberships_create(roster)
    registration_add(tournament=tournament, players=roster)
    clock.lap("players")
    for number in range(1, series + 1):
        last = number == series
        play_series(
            tournament,
            rng,
            complete=complete or not last,
            partial=lambda table: rng.choice((0, table.size * 3, table.size * 6, None)),
            timings=timings,
        )
    status = Tournament.Status.FINISHED if complete else Tournament.Status.RUNNING
    return tournament_set_status(tournament=tournament, status=status)


# --------------------------------------------------------------------------------------
# The demo club
# --------------------------------------------------------------------------------------

DEMO_CLUB = "Skatfreunde Altenburg"
DEMO_CITY = "Altenburg"
DEMO_USERNAME = "secretary"
DEMO_PASSWORD = "skat-demo"
DEMO_LOGIN = f"Sign in as {DEMO_USERNAME} / {DEMO_PASSWORD}"
DEMO_SEASON_SLUG = "vereinsliga-altenburg-2026-27"
# 1999: the unified ISkO came into force (rules §1).
DEMO_SEED = 1999

# The demo roster: name, team, category. Four teams of four for the league.
DEMO_PLAYERS: tuple[tuple[str, str, str], ...] = (
    ("Jörg Łukasz", "Altenburg I", ""),
    ("Anna Schmidt", "Altenburg I", Category.LADIES),
    ("Günter Voß", "Altenburg I", Category.SENIORS),
    ("Matthias Krüger", "Altenburg I", ""),
    ("Renée Weiß", "Altenburg II", Category.LADIES),
    ("Paweł Kowalski", "Altenburg II", ""),
    ("Rüdiger Strauß", "Altenburg II", Category.SENIORS),
    ("Björn Schäfer", "Altenburg II", ""),
    ("Małgorzata Nowak", "Grand Hand", Category.LADIES),
    ("Uwe Thümmler", "Grand Hand", ""),
    ("Lukas Böhm", "Grand Hand", Category.YOUTH),
    ("Dieter Große", "Grand Hand", Category.SENIORS),
    ("Käthe Möller", "Kreuz Bube", Category.LADIES),
    ("Frank Köhler", "Kreuz Bube", ""),
    ("Sören Jäger", "Kreuz Bube", ""),
    ("Zbigniew Wiśniewski", "Kreuz Bube", ""),
    ("Hans-Peter Dietze", "", Category.SENIORS),
    ("Ursula Preuß", "", Category.SENIORS),
    ("Zoë Fuchs", "", Category.YOUTH),
    ("Jonas Kießling", "", Category.YOUTH),
    ("Birgit Hoffmann", "", Category.LADIES),
    ("Klaus Wächter", "", ""),
    ("Bernd Schröder", "", ""),
    ("Agnieszka Dąbrowska", "", Category.LADIES),
    ("Michał Kozłowski", "", ""),
    ("François Lefèvre", "", ""),
    ("Søren Andersen", "", ""),
    ("José García", "", ""),
    ("Horst Günther", "", Category.SENIORS),
    ("Jiří Dvořák", "", ""),
    ("Heike Lößnitz", "", Category.LADIES),
    ("Volker Bäcker", "", ""),
)


def _say(stdout: TextIO | None, text: str):
    if stdout is not None:
        stdout.write(text + "\n")


def demo_create(*, stdout: TextIO | None = None) -> dict:
    """Create the demo club and its data, once; returns what was made.

    Idempotent: when the demo club exists nothing is written and `created` is False. The
    data is seeded (`DEMO_SEED`), so every run makes the same players, draws and games.
    """
    existing = Club.objects.filter(name=DEMO_CLUB).first()
    if existing is not None:
        _say(stdout, f"Demo data is already present (club “{DEMO_CLUB}”).")
        _say(stdout, DEMO_LOGIN)
        return {"created": False, "club": existing, "login": DEMO_LOGIN}

    rng = random.Random(DEMO_SEED)
    with transaction.atomic():
        user = _demo_user()
        club = club_create(name=DEMO_CLUB, city=DEMO_CITY, secretaries=[user])
        roster = [
            player_create(name=name, club=club, team=team, category=category)
            for name, team, category in DEMO_PLAYERS
        ]
        _say(stdout, f"Club “{club}” with {len(roster)} players; secretary “{user}”.")

        finished = _demo_finished(club, roster, rng)
        _say(stdout, f"Finished tournament: {finished} ({finished.slug}), 2 series.")
        running = _demo_running(club, roster, rng, user)
        _say(stdout, f"Running tournament: {running} ({running.slug}), series 1 in play.")
        season, match_days = _demo_season(club, roster, rng)
        _say(stdout, f"League season: {season} ({season.slug}), {len(match_days)} match days.")
        tournee = _demo_tournee(club, roster, rng)
        _say(stdout, f"North American tournée evening: {tournee} ({tournee.slug}).")
        league = league_demo_create(home=club, secretary=user, rng=rng, fill=fill_table)
        _say(stdout, f"League: {league['league']}, 8 teams of 4 clubs, 3 match days.")
    _say(stdout, DEMO_LOGIN)
    return {
        "created": True,
        "club": club,
        "user": user,
        "players": roster,
        "finished": finished,
        "running": running,
        "season": season,
        "match_days": match_days,
        "tournee": tournee,
        "league": league,
        "login": DEMO_LOGIN,
    }


def _demo_user():
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_USERNAME).first()
    if user is None:
        return user_model.objects.create_user(
            username=DEMO_USERNAME, password=DEMO_PASSWORD, first_name="Demo"
        )
    # A leftover demo user keeps working with the advertised password.
    user.set_password(DEMO_PASSWORD)
    user.save(update_fields=["password"])
    return user


def _close_with_paper_totals(series: Series):
    """Close every sheet of a full series, typing the paper totals as the lists show them."""

    for table in series.tables.order_by("number"):
        totals = {line.seat: line.list_points for line in table_seat_totals(table)}
        table_close(table=table, paper_totals=totals)
    series_close(series=series)


def _demo_finished(club: Club, roster: list[Player], rng: random.Random) -> Tournament:
    """Two series, 30 players: six 4-tables and two 3-tables (rules §4)."""
    tournament = tournament_create(
        club=club, name="Herbstpreisskat", date=datetime.date(2026, 10, 31), published=True
    )
    registration_add(tournament=tournament, players=roster[:30])
    for method in (Series.DrawMethod.RANDOM, Series.DrawMethod.STANDINGS):
        series = play_series(tournament, rng, complete=False, method=method)
        _close_with_paper_totals(series)
    return tournament_set_status(tournament=tournament, status=Tournament.Status.FINISHED)


def _demo_running(club: Club, roster: list[Player], rng: random.Random, user) -> Tournament:
    """Series 1 of 27 players in play: sheets from full (closed) to not yet started."""
    tournament = tournament_create(
        club=club,
        name="Preisskat im November",
        date=datetime.date(2026, 11, 21),
        published=True,
        kontra_allowed=True,
    )
    players = [p for i, p in enumerate(roster) if i not in (3, 17, 25, 30, 31)]
    registration_add(tournament=tournament, players=players)
    series = play_series(tournament, rng, complete=False, partial=lambda table: 0)
    tables = list(series.tables.select_related("series__tournament").order_by("number"))
    for table, entered in zip(tables, (None, 30, 20, 17, 9, 0, 12), strict=True):
        if entered is None:
            fill_table(table, rng)
            table_close(table=table)
        elif entered:
            fill_table(table, rng, count=entered - 3)
            # The last rows typed by the secretary, with their history.
            fill_table(table, rng, count=3, user=user)
    return Tournament.objects.get(pk=tournament.pk)


def _demo_season(club: Club, roster: list[Player], rng: random.Random):
    """Three match days of the four teams: two played (three series each), one planned."""
    season = season_create(club=club, name="Vereinsliga 2026/27", slug=DEMO_SEASON_SLUG)
    teams = [p for p in roster if p.team]
    match_days = []
    for number, date in enumerate(
        (datetime.date(2026, 9, 19), datetime.date(2026, 10, 17), datetime.date(2026, 12, 12)),
        start=1,
    ):
        day = tournament_create(
            club=club,
            season=season,
            name=f"Vereinsliga, {number}. Spieltag",
            date=date,
            published=True,
        )
        registration_add(tournament=day, players=teams)
        if number < 3:
            for _series in range(3):
                play_series(day, rng, keep_apart="team")
            day = tournament_set_status(tournament=day, status=Tournament.Status.FINISHED)
        match_days.append(day)
    return season, match_days


def _demo_tournee(club: Club, roster: list[Player], rng: random.Random) -> Tournament:
    """A North American evening of 14 players, plain sheet totals, a few fines (rules §3)."""
    tournament = tournament_create(
        club=club,
        name="Tournée evening",
        date=datetime.date(2026, 11, 7),
        rules=RuleSet.NA,
        list_scoring=False,
        published=True,
    )
    registration_add(tournament=tournament, players=roster[16:30])
    series = play_series(tournament, rng, complete=False)
    tables = list(series.tables.order_by("number"))
    fines = (
        (tables[0], 2, -10, "misdeal"),
        (tables[1], 1, -10, "looked at the skat"),
        (tables[-1], 3, -25, "renounce"),
    )
    for table, seat, points, reason in fines:
        penalty_record(table=table, seat=seat, points=points, reason=reason)
    for table in tables:
        table_close(table=table)
    series_close(series=series)
    return tournament_set_status(tournament=tournament, status=Tournament.Status.FINISHED)


def demo_delete(*, stdout: TextIO | None = None) -> bool:
    """Remove the demo club with its tournaments, seasons and players, and the demo user."""
    with transaction.atomic():
        league = league_demo_delete()
        club = Club.objects.filter(name=DEMO_CLUB).first()
        if club is not None:
            # Tournaments first: their registrations and seats protect the players.
            Tournament.objects.filter(club=club).delete()
            Season.objects.filter(club=club).delete()
            Player.objects.filter(club=club).delete()
            club.delete()
        users = get_user_model().objects.filter(username=DEMO_USERNAME).delete()[0]
    if club is None and not users and not league:
        _say(stdout, "No demo data to remove.")
        return False
    _say(stdout, f"Removed the demo club “{DEMO_CLUB}” and the user “{DEMO_USERNAME}”.")
    return True
