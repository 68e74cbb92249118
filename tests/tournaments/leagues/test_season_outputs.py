"""Issue 25, one computation per fact: every output of a season shows the same team table and
player table, those of `leagues.selectors.season_tables`.

The outputs: the season's page (`/seasons/SLUG/`; a league's season sends it on to its
tables page), the tables page (`/seasons/SLUG/tables/`), the API (`/api/v1/seasons/SLUG`),
the workbook (`season.xlsx`), the results PDF and `manage.py standings --season SLUG
--format json`. Each is read back into the same plain rows:
- a team: (rank, team, match points "won:lost", list points);
- a player: (rank or "–", name, team, series "counted/played" or "played", won, lost,
  list points); the PDF shows no won and lost (None there).
A small club season is worked by hand; a generated league season and club season are
compared output with output.
"""

from __future__ import annotations

import io
import json
import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.factories import PlayerFactory, TournamentFactory
from tests.tournaments.exporters.helpers import pdf_pages
from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tests.tournaments.leagues.seasons import club_season, league_days
from tournaments.draw.services import series_draw
from tournaments.formats import format_match_points
from tournaments.leagues.services import season_close, season_update
from tournaments.registry.services import registration_add, season_create
from tournaments.sheets.services import table_close

pytestmark = pytest.mark.django_db


class Tables(HTMLParser):
    """Every <table> of a page: its head cells and its body rows, as text."""

    def __init__(self):
        super().__init__()
        self.tables: list[dict] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._head = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"head": [], "rows": []})
        elif tag == "thead":
            self._head = True
        elif tag == "tbody":
            self._head = False
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            table = self.tables[-1]
            if self._head:
                table["head"] = self._row
            elif not table["head"] or self._row != table["head"]:
                table["rows"].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def html_tables(content: bytes) -> list[dict]:
    parser = Tables()
    parser.feed(content.decode())
    return parser.tables


def _series(counted, played) -> str | None:
    if counted is None or played is None:  # not shown
        return None
    return str(played) if counted == played else f"{counted}/{played}"


def _rank(rank) -> str:
    return "–" if rank is None else str(rank)


def teams_from_html(table: dict) -> list[tuple]:
    column = {name: index for index, name in enumerate(table["head"])}
    if table["rows"] and len(table["rows"][0]) == 1:  # "No teams yet."
        return []
    return [
        (r[column["#"]], r[column["Team"]], r[column["Match points"]], r[column["Points"]])
        for r in table["rows"]
    ]


def players_from_html(table: dict) -> list[tuple]:
    column = {name: index for index, name in enumerate(table["head"])}
    if table["rows"] and len(table["rows"][0]) == 1:  # "No results yet."
        return []
    names = ("#", "Player", "Team", "Series", "Won", "Lost", "Points")
    # An empty cell shows django-tables2's "—"; a column the page lacks reads None.
    return [
        tuple(
            None if name not in column else "" if r[column[name]] == "—" else r[column[name]]
            for name in names
        )
        for r in table["rows"]
    ]


def page_rows(client, url) -> tuple[list, list]:
    response = client.get(url, follow=True)
    assert response.status_code == 200
    tables = html_tables(response.content)
    return teams_from_html(tables[0]), players_from_html(tables[-1])


def json_rows(data: dict) -> tuple[list, list]:
    """The teams and players of the API's or the command's season JSON, as the pages show
    them: both carry the same fields, so one reading serves both."""
    teams = [
        (
            str(t["rank"]),
            t["team"],
            format_match_points(
                Fraction(t["match_points_won"]).limit_denominator(1000),
                Fraction(t["match_points_lost"]).limit_denominator(1000),
            ),
            str(t["list_points"]),
        )
        for t in data["teams"]
    ]
    players = [
        (
            _rank(p["rank"]),
            p["player"],
            p["team"] or "",  # null in JSON: no team (issue 27, leftover e)
            _series(p["series_counted"], p["series_played"]),
            str(p["won"]),
            str(p["lost"]),
            str(p["list_points"]),
        )
        for p in data["players"]
    ]
    return teams, players


def api_rows(client, slug) -> tuple[list, list]:
    return json_rows(client.get(f"/api/v1/seasons/{slug}").json())


def command_rows(slug) -> tuple[list, list]:
    out = io.StringIO()
    call_command("standings", season=slug, format="json", stdout=out)
    return json_rows(json.loads(out.getvalue()))


def workbook_rows(client, slug) -> tuple[list, list]:
    from openpyxl import load_workbook

    response = client.get(reverse("season_workbook", kwargs={"season": slug}))
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(b"".join(response)), read_only=True)

    def sheet(name):
        rows = [list(r) for r in book[name].iter_rows(values_only=True)]
        head = rows[0]
        return {h: i for i, h in enumerate(head)}, [r for r in rows[1:] if any(r)]

    column, rows = sheet("Teams")
    teams = [
        (
            str(r[column["Rank"]]),
            r[column["Team"]],
            r[column["Match points"]],
            str(r[column["Points"]]),
        )
        for r in rows
    ]
    column, rows = sheet("Players")
    players = [
        (
            _rank(r[column["Rank"]]),
            r[column["Player"]],
            r[column["Team"]] or "",
            _series(r[column["Series counted"]], r[column["Series played"]]),
            str(r[column["Won"]]),
            str(r[column["Lost"]]),
            str(r[column["Points"]]),
        )
        for r in rows
    ]
    return teams, players


def pdf_text(client, slug) -> str:
    response = client.get(reverse("season_results_pdf", kwargs={"season": slug}))
    assert response.status_code == 200
    return " ".join(" ".join(pdf_pages(b"".join(response))).split())


def assert_rows_in_pdf(text: str, teams: list, players: list, clubs: dict[str, str]):
    """The PDF's team table (#, team, club, match points, points) and player table (#,
    player, team, series, points) hold these rows, in this order."""
    at = 0
    for rank, team, match_points, points in teams:
        line = " ".join(x for x in (rank, team, clubs[team], match_points, points) if x)
        found = text.find(line, at)
        assert found >= 0, f"{line!r} not in the PDF after position {at}"
        at = found + len(line)
    for rank, name, team, series, _won, _lost, points in players:
        line = " ".join(x for x in (rank, name, team, series, points) if x)
        found = text.find(line, at)
        assert found >= 0, f"{line!r} not in the PDF after position {at}"
        at = found + len(line)


def all_outputs(client, slug) -> dict[str, tuple[list, list]]:
    return {
        "season page": page_rows(client, reverse("season_detail", kwargs={"season": slug})),
        "tables page": page_rows(client, reverse("league_season", kwargs={"season": slug})),
        "API": api_rows(client, slug),
        "workbook": workbook_rows(client, slug),
        "command": command_rows(slug),
    }


def assert_outputs_agree(client, season, clubs: dict[str, str]):
    outputs = all_outputs(client, season.slug)
    expected = outputs["tables page"]
    for name, rows in outputs.items():
        assert rows[0] == expected[0], f"the team table of the {name}"
        assert rows[1] == expected[1], f"the player table of the {name}"
    assert_rows_in_pdf(pdf_text(client, season.slug), *expected, clubs)
    return expected


# --------------------------------------------------------------------------------------
# A small club season, worked by hand
# --------------------------------------------------------------------------------------


@pytest.fixture
def small_club_season(club):
    """Two club evenings of one 4-table each, every seat's games those of the rules §2
    worked sheet: its first list 1332 (won 12, lost 0), second 1308 (12, 2), third 1320
    (10, 1), fourth 108 (6, 5). Teams by the text on the player: Asse (Anna, Bert),
    Buben (Carl, Dora); Emil has none. The season counts each team's best player, each
    player's best series, and ranks from two series on."""
    season = season_create(club=club, name="Jahreswertung", slug="jahreswertung")
    season = season_update(season=season, teams_best_n=1, min_series=2, best_series=1)
    people = {
        name: PlayerFactory(club=club, name=name, team=team)
        for name, team in (
            ("Anna", "Asse"),
            ("Bert", "Asse"),
            ("Carl", "Buben"),
            ("Dora", "Buben"),
            ("Emil", ""),
        )
    }
    evenings = {
        # who plays the worked sheet's list 1, 2, 3, 4
        "Clubabend 1": ("Anna", "Bert", "Carl", "Dora"),
        "Clubabend 2": ("Bert", "Carl", "Emil", "Anna"),
    }
    for number, (name, lists) in enumerate(evenings.items(), start=1):
        day = TournamentFactory(club=club, season=season, name=name, slug=f"abend-{number}")
        registration_add(tournament=day, players=[people[p] for p in lists])
        table = series_draw(tournament=day, seed=number).tables.get()
        seat_of = {s.player.name: s.number for s in table.seats.select_related("player")}
        enter(
            table,
            sheet_rows({seat_of[p]: WORKED_EXAMPLE[n] for n, p in enumerate(lists, start=1)}, 4),
        )
        table_close(table=table)
    return season


def test_a_small_club_season_worked_by_hand_in_every_output(client, small_club_season, club):
    teams, players = assert_outputs_agree(
        client, small_club_season, {"Asse": club.name, "Buben": club.name}
    )
    # Evening 1: Asse's best 1332 (Anna) beats Buben's 1320 (Carl): 1:0.
    # Evening 2: Asse's best 1332 (Bert) beats Buben's 1308 (Carl): 1:0.
    assert teams == [("1", "Asse", "2:0", "2664"), ("2", "Buben", "0:2", "2628")]
    # Best series of each: Anna 1332 (of 1332, 108), Bert 1332 (of 1308, 1332), Carl 1320
    # (of 1320, 1308); Anna and Bert equal on every key, in name order. Dora and Emil
    # played one series: listed below, without a rank.
    assert players == [
        ("1", "Anna", "Asse", "1/2", "12", "0", "1332"),
        ("2", "Bert", "Asse", "1/2", "12", "0", "1332"),
        ("3", "Carl", "Buben", "1/2", "10", "1", "1320"),
        ("–", "Emil", "", "1", "10", "1", "1320"),
        ("–", "Dora", "Buben", "1", "6", "5", "108"),
    ]


def test_the_season_workbooks_games_are_each_evenings_under_its_name(small_club_season):
    """The Games sheet: every game of evening 1, then every game of evening 2, each under
    its evening's name and with its declarer's name at that evening (Dora played the
    first, Emil the second only)."""
    from openpyxl import load_workbook

    from tournaments.exporters.season import SeasonWorkbook
    from tournaments.models import Game

    book = load_workbook(io.BytesIO(SeasonWorkbook(small_club_season).render()), read_only=True)
    rows = list(book["Games"].iter_rows(min_row=2, values_only=True))
    days = list(small_club_season.tournaments.order_by("name"))
    counts = [Game.objects.filter(table__series__tournament=day).count() for day in days]
    assert counts[0] > 0 and counts[1] > 0
    assert [row[0] for row in rows] == ["Clubabend 1"] * counts[0] + ["Clubabend 2"] * counts[1]
    declarers = [{row[7] for row in rows if row[0] == day.name} - {None} for day in days]
    assert declarers[0] <= {"Anna", "Bert", "Carl", "Dora"} and "Dora" in declarers[0]
    assert declarers[1] <= {"Bert", "Carl", "Emil", "Anna"} and "Emil" in declarers[1]


def test_a_closed_season_reads_its_archive_alike_in_every_output(client, small_club_season, club):
    clubs = {"Asse": club.name, "Buben": club.name}
    live = assert_outputs_agree(client, small_club_season, clubs)
    closed = season_close(season=small_club_season)
    assert closed.archive
    assert assert_outputs_agree(client, closed, clubs) == live
    # The archive keeps names, not the players' ids: the API says so with null.
    players = client.get(f"/api/v1/seasons/{closed.slug}").json()["players"]
    assert {p["player_id"] for p in players} == {None}


# --------------------------------------------------------------------------------------
# Generated seasons
# --------------------------------------------------------------------------------------


def test_a_league_season_reads_the_same_in_every_output(
    client, league_season, teams, league_director, club, zeitz
):
    league_days(league_season, teams, league_director, count=6, club=club, zeitz=zeitz)
    league_season.refresh_from_db()
    clubs = {name: team.club.name for name, team in teams.items()}
    team_rows, player_rows = assert_outputs_agree(client, league_season, clubs)
    # The roster's four teams, ranked on the confirmed days only (1, 3 and 6: day 2 is
    # provisional, day 4 not published, day 5 not played).
    assert sorted(t[1] for t in team_rows) == sorted(teams)
    match_points = sum(
        Fraction(won) + Fraction(lost)
        for won, lost in (re.sub("½", ".5", t[2]).split(":") for t in team_rows)
    )
    assert match_points == 3 * 4 * 3  # three counted days of four teams, 3 points a pair
    # The best 4 series of up to 4 (two a day on days 1, 3 and 6: 6 played) count; from
    # 3 series on a player is ranked: a substitute who played one day is not.
    assert any(p[3] == "4/6" for p in player_rows)
    unranked = [p for p in player_rows if p[0] == "–"]
    assert [p[1] for p in unranked] == ["Altenburg I Ersatz"]
    assert all(p[0] != "–" for p in player_rows[: -len(unranked)])


def test_a_club_season_reads_the_same_in_every_output(client, club):
    season, _days = club_season(club)
    clubs = dict.fromkeys(("Asse", "Buben", "Damen"), club.name)
    teams, players = assert_outputs_agree(client, season, clubs)
    assert [t[1] for t in teams] and len(teams) == 3
    # Players with fewer than three series are listed without a rank (the guests, and the
    # member who came to the evenings of one series only); only the best three of a
    # regular's six series count.
    unranked = {p[1] for p in players if p[0] == "–"}
    assert unranked == {"Mitglied 11", *(f"Gast {n}" for n in range(4))}
    assert any(p[3] == "3/6" for p in players)


def test_a_league_season_page_goes_on_to_its_tables(client, match_day):
    slug = match_day.season.slug
    response = client.get(reverse("season_detail", kwargs={"season": slug}))
    assert response.status_code == 302
    assert response["Location"] == reverse("league_season", kwargs={"season": slug})
