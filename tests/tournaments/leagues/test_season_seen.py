"""Issue 27, tests that see: a small club season worked by hand, read back from every output
(the tables page, the season's page, the API, the standings command, the workbook, the
PDF; a match day's page, standings.json and the projector for a day's players), compared
with the one computation (`leagues.selectors.season_tables`) and with the figures below.

The fixture is built so that each of these mistakes changes what an output shows:
- tied teams on a match day given another share of the match points than the average of
  their places (evening 1 ties two pairs, evening 2 three teams);
- the worst series counted where the best count (every player's two series differ);
- a draft evening counted in the public tables (its figures would change every row);
- the player table's tie-break order changed (two ties on list points: one broken by
  fewer lost, one by more won; the names run against both);
- the sum of every series shown where only the best count.

Four players, each their own team (the text on the player), the season counting each
team's best player (`teams_best_n` 1), each player's best series (`best_series` 1), and
ranking from two series on. One 4-table an evening (rules §2, 4-table: +50 a won game,
−50 a lost one, +30 to each of the others for a game lost by another):

Evening 1 (TIED_PAIRS):  Zita  GRAND_1 ×2            = 2 × 48 + 100 + 30 =  226, won 2 lost 0
                         Yann  GRAND_4, GRAND_3, ♥ lost = 120 + 96 − 40 + 100 − 50 = 226, 2/1
                         Xaver HEARTS_1 ×2           = 40 + 100 + 30     =  170, won 2 lost 0
                         Wilma HEARTS_8              = 90 + 50 + 30      =  170, won 1 lost 0
Evening 2 (one lost game): Zita HEARTS_LOST          = −40 − 50          =  −90, won 0 lost 1
                         Yann, Xaver, Wilma: nothing declared, +30 each  =   30, won 0 lost 0
Evening 3: a draft (not published) of the rules §2 worked sheet: 1332, 1308, 1320, 108.

Match points (rules §4: place p of n gets (n − p):(p − 1); tied teams share the average):
- evening 1: Asse (Zita) and Buben (Yann) tie at 226 for places 1–2: (3 + 2)/2 = 2½ won,
  (0 + 1)/2 = ½ lost each; Damen (Xaver) and Könige (Wilma) tie at 170 for places 3–4:
  (1 + 0)/2 = ½ : (2 + 3)/2 = 2½ each;
- evening 2: Buben, Damen, Könige tie at 30 for places 1–3: (3 + 2 + 1)/3 = 2 :
  (0 + 1 + 2)/3 = 1 each; Asse at −90 is 4th: 0:3.
Season: Buben 2½ + 2 = 4½ : ½ + 1 = 1½, 226 + 30 = 256 → 1st; Damen and Könige each
½ + 2 = 2½ : 2½ + 1 = 3½, 170 + 30 = 200 → equal on every key, both 2nd; Asse 2½ + 0 :
½ + 3 = 2½:3½, 226 − 90 = 136 → 4th (fewer list points).
Players (best series): Zita 226 2/0 (not −90), Yann 226 2/1 (not 30), Xaver 170 2/0, Wilma
170 1/0; Zita before Yann (fewer lost), Xaver before Wilma (more won). Summing both
series would give Zita 136, Yann 256, Xaver 200, Wilma 200.
"""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, TournamentFactory
from tests.tournaments.exporters.helpers import pdf_pages
from tests.tournaments.helpers import HEARTS_LOST, WORKED_EXAMPLE, enter
from tests.tournaments.leagues.test_season_outputs import (
    all_outputs,
    assert_rows_in_pdf,
    html_tables,
    pdf_text,
)
from tests.tournaments.standings.test_selectors import TIED_PAIRS
from tournaments.draw.services import series_draw
from tournaments.formats import format_match_points
from tournaments.leagues.selectors import season_tables
from tournaments.leagues.services import season_update
from tournaments.registry.services import registration_add, season_create

pytestmark = pytest.mark.django_db

PEOPLE = (("Zita", "Asse"), ("Yann", "Buben"), ("Xaver", "Damen"), ("Wilma", "Könige"))
NAMES = [name for name, _team in PEOPLE]
EVENINGS = (
    # (name, published, who plays which list of the sheet)
    ("Clubabend 1", True, dict(zip(NAMES, (TIED_PAIRS[n] for n in (1, 2, 3, 4)), strict=True))),
    ("Clubabend 2", True, {"Zita": [HEARTS_LOST], "Yann": [], "Xaver": [], "Wilma": []}),
    (
        "Clubabend 3",
        False,
        dict(zip(NAMES, (WORKED_EXAMPLE[n] for n in (1, 2, 3, 4)), strict=True)),
    ),
)

# The hand-worked figures of the module docstring, as the outputs show them.
TEAMS = [
    ("1", "Buben", "4½:1½", "256"),
    ("2", "Damen", "2½:3½", "200"),
    ("2", "Könige", "2½:3½", "200"),
    ("4", "Asse", "2½:3½", "136"),
]
PLAYERS = [
    ("1", "Zita", "Asse", "1/2", "2", "0", "226"),
    ("2", "Yann", "Buben", "1/2", "2", "1", "226"),
    ("3", "Xaver", "Damen", "1/2", "2", "0", "170"),
    ("4", "Wilma", "Könige", "1/2", "1", "0", "170"),
]
DAYS = {
    # evening → its team table: (rank, team, list points, match points)
    "Clubabend 1": [
        ("1", "Asse", "226", "2½:½"),
        ("1", "Buben", "226", "2½:½"),
        ("3", "Damen", "170", "½:2½"),
        ("3", "Könige", "170", "½:2½"),
    ],
    "Clubabend 2": [
        ("1", "Buben", "30", "2:1"),
        ("1", "Damen", "30", "2:1"),
        ("1", "Könige", "30", "2:1"),
        ("4", "Asse", "-90", "0:3"),
    ],
}
# Evening 1's players as its own standings rank them (rules §2: list points, more won,
# fewer lost): (name, list points, won, lost).
EVENING_1 = [("Zita", 226, 2, 0), ("Yann", 226, 2, 1), ("Xaver", 170, 2, 0), ("Wilma", 170, 1, 0)]


@pytest.fixture
def seen_season(club):
    season = season_create(club=club, name="Jahreswertung 2027", slug="jahreswertung-2027")
    season = season_update(season=season, teams_best_n=1, min_series=2, best_series=1)
    people = {name: PlayerFactory(club=club, name=name, team=team) for name, team in PEOPLE}
    for number, (name, published, lists) in enumerate(EVENINGS, start=1):
        day = TournamentFactory(
            club=club, season=season, name=name, slug=f"seen-{number}", published=published
        )
        registration_add(tournament=day, players=list(people.values()))
        table = series_draw(tournament=day, seed=number).tables.get()
        seat_of = {s.player.name: s.number for s in table.seats.select_related("player")}
        enter(table, _rows({seat_of[p]: list(games) for p, games in lists.items()}))
    return season


def _rows(per_seat: dict[int, list[dict]]) -> list[dict]:
    """The games in an order in which nobody declares while dealing (the dealer sits out
    at a 4-table): a passed game, which scores nothing, where only the dealer has one left."""
    rows = []
    while any(per_seat.values()):
        dealer = len(rows) % 4 + 1
        seats = [s for s, games in per_seat.items() if games and s != dealer]
        if not seats:
            rows.append({"game": "passed"})
            continue
        seat = max(seats, key=lambda s: (len(per_seat[s]), -s))
        rows.append({"declarer": seat, **per_seat[seat].pop()})
    return rows


def _computed(season, viewer=None) -> tuple[list, list, dict]:
    """The one computation's rows, as the outputs show them."""
    tables = season_tables(season, viewer=viewer)
    teams = [
        (
            str(t.rank),
            t.team,
            format_match_points(t.match_points_won, t.match_points_lost),
            str(t.list_points),
        )
        for t in tables.teams
    ]
    players = [
        ("–" if p.rank is None else str(p.rank), p.name, p.team, p.series)
        + (str(p.won), str(p.lost), str(p.list_points))
        for p in tables.players
    ]
    days = {
        day.tournament.name: [
            (
                str(r.rank),
                r.team,
                str(r.list_points),
                format_match_points(r.match_points_won, r.match_points_lost),
            )
            for r in day.teams
        ]
        for day in tables.day_tables
    }
    return teams, players, days


def test_the_computation_gives_the_hand_worked_tables(seen_season):
    assert _computed(seen_season) == (TEAMS, PLAYERS, DAYS)


def test_every_output_shows_the_hand_worked_season_tables(client, seen_season, club):
    outputs = all_outputs(client, seen_season.slug)
    for name, (teams, players) in outputs.items():
        assert teams == TEAMS, f"the team table of the {name}"
        assert players == PLAYERS, f"the player table of the {name}"
    assert_rows_in_pdf(
        pdf_text(client, seen_season.slug),
        TEAMS,
        PLAYERS,
        dict.fromkeys(["Asse", "Buben", "Damen", "Könige"], club.name),
    )


def _days_from_html(content: bytes) -> dict:
    """The match-day tables of the season's tables page: every table but the first (the
    team table) and the last (the player table), under the evening names in order."""
    tables = html_tables(content)[1:-1]
    found = []
    for table in tables:
        column = {name: index for index, name in enumerate(table["head"])}
        found.append(
            [
                tuple(r[column[c]] for c in ("#", "Team", "Points", "Match points"))
                for r in table["rows"]
            ]
        )
    return found


def _match_points(won, lost) -> str:
    return format_match_points(
        Fraction(won).limit_denominator(1000), Fraction(lost).limit_denominator(1000)
    )


def test_every_output_shows_the_hand_worked_match_day_tables(client, seen_season):
    from openpyxl import load_workbook

    from tournaments.models import Tournament

    expected = list(DAYS.values())
    slug = seen_season.slug

    # The season's tables page and the season's own page: one table per played evening.
    for url in (
        reverse("league_season", kwargs={"season": slug}),
        reverse("season_detail", kwargs={"season": slug}),
    ):
        response = client.get(url, follow=True)
        shown = _days_from_html(response.content)
        assert shown == expected, url
        assert "Clubabend 3" not in response.content.decode()

    # A match day's own page.
    for name, rows in DAYS.items():
        day = Tournament.objects.get(name=name)
        response = client.get(reverse("match_day", kwargs={"tournament": day.slug}))
        assert response.status_code == 200
        (table,) = html_tables(response.content)
        column = {n: i for i, n in enumerate(table["head"])}
        assert [
            tuple(r[column[c]] for c in ("#", "Team", "Points", "Match points"))
            for r in table["rows"]
        ] == rows, name

    # The API: each team's result per evening.
    data = client.get(f"/api/v1/seasons/{slug}").json()
    assert [d["name"] for d in data["match_days"]] == ["Clubabend 1", "Clubabend 2"]
    slugs = {d["tournament"]: d["name"] for d in data["match_days"]}
    api_days: dict[str, list] = {name: [] for name in DAYS}
    for team in data["teams"]:
        for day in team["match_days"]:
            api_days[slugs[day["tournament"]]].append(
                (
                    str(day["rank"]),
                    team["team"],
                    str(day["list_points"]),
                    _match_points(day["match_points_won"], day["match_points_lost"]),
                )
            )
    assert {name: sorted(rows) for name, rows in api_days.items()} == {
        name: sorted(rows) for name, rows in DAYS.items()
    }

    # The standings command's JSON.
    from django.core.management import call_command

    out = io.StringIO()
    call_command("standings", season=slug, format="json", stdout=out)
    command = json.loads(out.getvalue())
    assert [
        [
            (
                str(t["rank"]),
                t["team"],
                str(t["list_points"]),
                _match_points(t["match_points_won"], t["match_points_lost"]),
            )
            for t in day["teams"]
        ]
        for day in command["match_days"]
    ] == expected

    # The workbook: a sheet per evening, its team table first.
    response = client.get(reverse("season_workbook", kwargs={"season": slug}))
    book = load_workbook(io.BytesIO(b"".join(response)), read_only=True)
    assert "Day 3" not in book.sheetnames
    for number, rows in enumerate(expected, start=1):
        sheet = [list(r) for r in book[f"Day {number}"].iter_rows(values_only=True)]
        column = {h: i for i, h in enumerate(sheet[0])}
        teams = sheet[1 : 1 + len(rows)]
        assert [
            (str(r[column["Rank"]]), r[column["Team"]], str(r[column["Points"]]))
            + (r[column["Match points"]],)
            for r in teams
        ] == rows

    # The PDF: each evening's table under its name, in order (no venue: one room).
    text = pdf_text(client, slug)
    assert "Clubabend 3" not in text
    at = 0
    for name, rows in DAYS.items():
        at = text.index(name, at)
        for rank, team, points, match_points in rows:
            line = f"{rank} {team} {points} {match_points}"
            found = text.find(line, at)
            assert found >= 0, f"{line!r} not in the PDF after {name}"
            at = found + len(line)


def test_the_draft_evening_counts_for_its_club_only(client_for, seen_season, secretary):
    """The club's secretary sees the draft evening counted (so the public tables above
    leave out a day that would change every row)."""
    teams, players, days = _computed(seen_season, viewer=secretary)
    assert list(days) == ["Clubabend 1", "Clubabend 2", "Clubabend 3"]
    assert players != PLAYERS and teams != TEAMS
    response = client_for(secretary).get(
        reverse("league_season", kwargs={"season": seen_season.slug})
    )
    assert "Clubabend 3" in response.content.decode()
    # The public's pages, answers and files leave it out (the anonymous test above).
    assert _computed(seen_season) == (TEAMS, PLAYERS, DAYS)


def test_an_evenings_players_read_alike_in_its_standings_json_projector_and_api(
    client, seen_season
):
    from tournaments.models import Tournament

    day = Tournament.objects.get(name="Clubabend 1")
    rows = json.loads(
        client.get(reverse("tournament_standings_json", kwargs={"tournament": day.slug})).content
    )
    assert [(r["player"], r["list_points"], r["won"], r["lost"]) for r in rows] == EVENING_1
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    api = client.get(f"/api/v1/tournaments/{day.slug}/standings").json()
    assert [(r["player"], r["list_points"], r["won"], r["lost"]) for r in api] == EVENING_1
    page = client.get(reverse("tournament_projector", kwargs={"tournament": day.slug}))
    text = " ".join(page.content.decode().split())
    at = 0
    for name, points, _won, _lost in EVENING_1:
        at = text.index(name, at)
        at = text.index(str(points), at)


def test_a_pdf_text_helper_reads_every_page(client, seen_season):
    # The season PDF is one page here: the checks above read all of it.
    response = client.get(reverse("season_results_pdf", kwargs={"season": seen_season.slug}))
    assert len(pdf_pages(b"".join(response))) == 1
