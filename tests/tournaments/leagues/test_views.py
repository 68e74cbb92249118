"""The season pages: public tables (provisional until confirmed, the explained order), the
match-day table, the desk, a team's roster, a venue's tables; the season's downloads."""

import io

import pytest
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from tests.tournaments.exporters.helpers import pdf_pages
from tests.tournaments.helpers import confirmation_posting
from tests.tournaments.leagues.helpers import play_series
from tournaments.exporters.season import SeasonWorkbook
from tournaments.exporters.workbook import Column
from tournaments.formats import format_match_points
from tournaments.leagues.selectors import match_day_table, season_tables
from tournaments.leagues.services import match_day_confirm, season_close
from tournaments.models import RosterEntry, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(match_day):
    play_series(match_day)
    return match_day


def season_url(name="league_season"):
    return reverse(name, kwargs={"season": "liga-2026-27"})


def test_the_season_page_counts_a_match_day_once_confirmed(client, played, league_director):
    text = client.get(season_url()).content.decode()
    assert "provisional" in text and "tie-break" in text
    assert "3:0" in text  # the match day's own (provisional) table
    teams_part = text[text.index("<table", text.index("<h2>Teams")) : text.index("<h2>Match days")]
    assert "0:0" in teams_part and "3:0" not in teams_part
    match_day_confirm(tournament=played, user=league_director)
    text = client.get(season_url()).content.decode()
    teams_part = text[text.index("<table", text.index("<h2>Teams")) : text.index("<h2>Match days")]
    for result in match_day_table(played).teams:
        assert result.team in teams_part
    assert "3:0" in teams_part and "0:3" in teams_part


def test_the_match_day_page_ranks_both_venues(client, played):
    text = client.get(reverse("match_day", kwargs={"tournament": played.slug})).content.decode()
    assert "Altenburg I" in text and "Zeitz II" in text and "provisional" in text


def test_a_league_seasons_old_address_leads_to_its_tables(client, played):
    response = client.get(reverse("season_detail", kwargs={"season": "liga-2026-27"}))
    assert response.status_code == 302 and response["Location"].endswith(season_url())


def test_an_unpublished_season_is_hidden(client, match_day):
    match_day.published = False
    match_day.save()
    assert client.get(season_url()).status_code == 404
    assert client.get(season_url("season_workbook")).status_code == 404


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("anonymous", 302),
        ("player", 403),
        ("other_club_secretary", 403),
        ("secretary", 200),
        ("league_director", 200),
    ],
)
def test_the_season_desk_is_for_its_directors_and_member_clubs(who, status, as_user, match_day):
    response = as_user(who).get(reverse("manage:league_season", kwargs={"season": "liga-2026-27"}))
    assert response.status_code == status


def test_the_venue_page_lists_its_own_tables(client_for, venue_secretary, played):
    venue = played.venues.get(name="Altenburg")
    url = reverse("manage:venue", kwargs={"tournament": played.slug, "venue": venue.pk})
    text = client_for(venue_secretary).get(url).content.decode()
    sheet = reverse("manage:sheet", kwargs={"tournament": played.slug, "series": 1, "table": 1})
    other = reverse("manage:sheet", kwargs={"tournament": played.slug, "series": 1, "table": 3})
    assert sheet in text and other not in text
    assert client_for(venue_secretary).get(sheet).status_code == 200
    assert client_for(venue_secretary).get(other).status_code == 403


def test_a_player_on_two_rosters_gets_a_message_on_the_roster_page(client_for, secretary, teams):
    player = teams["Altenburg I"].roster.first().player
    url = reverse("manage:team", kwargs={"team": teams["Altenburg II"].pk})
    before = RosterEntry.objects.count()
    response = client_for(secretary).post(url, {"player": player.pk, "substitute": "on"})
    assert response.status_code == 400
    assert "already on the roster of Altenburg I" in response.content.decode()
    assert RosterEntry.objects.count() == before


def test_a_closed_season_shows_its_archived_tables(client, played, league_director):
    match_day_confirm(tournament=played, user=league_director)
    season_close(season=played.season, user=league_director)
    text = client.get(season_url()).content.decode()
    assert "closed: final tables" in text and "3:0" in text


def test_the_workbook_and_the_pdf_show_the_season_pages_figures(client, played):
    match_day_confirm(tournament=played)
    tables = season_tables(played.season)
    book = load_workbook(io.BytesIO(client.get(season_url("season_workbook")).content))
    assert book.sheetnames == ["Teams", "Players", "Day 1", "Games"]
    teams = list(book["Teams"].iter_rows(min_row=2, values_only=True))
    assert [(r[0], r[1], r[-4], r[-1]) for r in teams] == [
        (
            row.rank,
            row.team,
            format_match_points(row.match_points_won, row.match_points_lost),
            row.list_points,
        )
        for row in tables.teams
    ]
    players = list(book["Players"].iter_rows(min_row=2, values_only=True))
    assert [(r[1], r[-1]) for r in players] == [(p.name, p.list_points) for p in tables.players]
    games = list(book["Games"].iter_rows(min_row=2, values_only=True))
    assert len(games) == 4 * 4  # four tables of four games
    assert {g[1] for g in games} == {"Altenburg", "Zeitz"}
    text = "\n".join(pdf_pages(client.get(season_url("season_results_pdf")).content, layout=True))
    for row in tables.teams:
        line = next(line for line in text.splitlines() if f" {row.team} " in f" {line} ")
        assert format_match_points(row.match_points_won, row.match_points_lost) in line
        assert f"{row.list_points:,}".replace(",", "") in line.replace(",", "").replace(".", "")


def test_the_dashboard_lists_a_match_day_for_its_directors_not_its_host(
    client_for, secretary, league_director, match_day
):
    url = reverse("manage:dashboard")
    assert match_day.name in client_for(league_director).get(url).content.decode()
    assert match_day.name not in client_for(secretary).get(url).content.decode()


def test_the_category_filter_leaves_the_team_table(client, played, league_director):
    match_day_confirm(tournament=played, user=league_director)
    lady = played.registrations.order_by("pk").first().player
    lady.category = "ladies"
    lady.save()
    response = client.get(season_url(), {"category": "ladies"})
    assert [p.name for p in response.context["player_table"].data.data] == [lady.name]
    assert len(response.context["team_table"].data.data) == 4
    assert '<option value="ladies" selected>' in response.content.decode()


@pytest.mark.parametrize("model", ["league", "team", "venue", "season"])
def test_the_admin_lists_the_league_models(client_for, match_day, model):
    from tests.factories import UserFactory

    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    response = client_for(admin).get(reverse(f"admin:tournaments_{model}_changelist"))
    assert response.status_code == 200
    team = match_day.venues.first().teams.first()
    response = client_for(admin).get(reverse("admin:tournaments_team_change", args=[team.pk]))
    assert response.status_code == 200 and team.name in response.content.decode()


def test_a_substitute_is_exchanged_on_the_team_page(client_for, secretary, match_day, teams):
    team = teams["Altenburg I"]
    regular = team.roster.filter(substitute=False).first().player
    substitute = team.roster.get(substitute=True).player
    url = reverse("manage:team", kwargs={"team": team.pk})
    assert "A substitute plays" in client_for(secretary).get(url).content.decode()
    response = client_for(secretary).post(
        reverse("manage:substitute", kwargs={"team": team.pk}),
        {"match_day": match_day.pk, "out": regular.pk, "replacement": substitute.pk},
        follow=True,
    )
    assert f"{substitute.name} plays for {regular.name}" in response.content.decode()
    registered = set(match_day.registrations.values_list("player_id", flat=True))
    assert substitute.pk in registered and regular.pk not in registered


def test_the_api_names_a_league_seasons_league(client, played):
    response = client.get(f"/api/v1/seasons/{played.season.slug}")
    assert response.status_code == 200
    assert response.json()["club"] == "Ostthüringer Liga"


def test_the_home_page_names_a_league_season_by_its_league(client, match_day):
    match_day.published = True
    match_day.save(update_fields=["published"])
    text = client.get(reverse("home")).content.decode()
    listed = text[text.index("League seasons") :]
    assert "Liga 2026/27</a> <span" in listed and "Ostthüringer Liga" in listed
    assert "None" not in listed


def test_the_season_workbooks_games_read_back_as_openpyxls_own_rows(played):
    """The season's Games sheet (the fast row writer) holds what `ws.append` of the same
    rows, formatted as every other sheet's, gives: cell by cell, with its number formats."""
    match_day_confirm(tournament=played)
    exporter = SeasonWorkbook(played.season)
    book = load_workbook(io.BytesIO(exporter.render()))
    columns = [Column("Match day", 22), Column("Venue", 16), *exporter.game_columns()]
    workbook = Workbook(write_only=True)
    ws = workbook.create_sheet("Games")
    ws.append([column.title for column in columns])
    for values in exporter.season_game_rows(season_tables(played.season)):
        ws.append(exporter.formatted(ws, columns, values))
    buffer = io.BytesIO()
    workbook.save(buffer)
    expected = load_workbook(buffer)["Games"]
    games = book["Games"]
    assert games.max_row == expected.max_row == 1 + 4 * 4
    for row, want in zip(games.iter_rows(min_row=2), expected.iter_rows(min_row=2), strict=True):
        assert [(c.value, c.number_format, c.data_type) for c in row] == [
            (c.value, c.number_format, c.data_type) for c in want
        ]


def test_the_season_games_sheet_names_each_games_match_day_and_venue(played):
    """Each game's row starts with its match day and its table's venue (Altenburg or Zeitz
    by table, both at the one match day)."""
    match_day_confirm(tournament=played)
    venues = {
        (table.series.number, table.number): table.venue.name
        for table in Table.objects.filter(series__tournament=played).select_related(
            "series", "venue"
        )
    }
    assert set(venues.values()) == {"Altenburg", "Zeitz"}
    book = load_workbook(io.BytesIO(SeasonWorkbook(played.season).render()))
    rows = list(book["Games"].iter_rows(min_row=2, values_only=True))
    assert len(rows) == 4 * 4
    assert [row[:2] for row in rows] == [(played.name, venues[row[2], row[3]]) for row in rows]


class TestWhatCannotBeUndoneAsks:
    """Issue 27, defect 6: closing a season and confirming a match day were one click. The
    first POST (or a GET) changes nothing and answers with a page that asks; its button
    (no JavaScript) posts the confirmation."""

    def test_closing_the_season_asks_first(self, client_for, league_director, played):
        match_day_confirm(tournament=played, user=league_director)
        client = client_for(league_director)
        url = reverse("manage:season_close", kwargs={"season": played.season.slug})
        asked = client.post(url)
        page = asked.content.decode()
        assert asked.status_code == 200
        assert "Nothing has been changed yet" in page and "This cannot be undone." in page
        played.season.refresh_from_db()
        assert not played.season.is_closed
        assert client.get(url).status_code == 200  # the same page as a link
        response = client.post(*confirmation_posting(page), follow=True)
        assert "The season is closed" in response.content.decode()
        played.season.refresh_from_db()
        assert played.season.is_closed

    def test_confirming_a_match_day_asks_first(self, client_for, league_director, played):
        from tournaments.models import MatchDayConfirmation

        client = client_for(league_director)
        url = reverse("manage:match_day_confirm", kwargs={"tournament": played.slug})
        asked = client.post(url, {"confirm": "1"})
        page = asked.content.decode()
        assert "Nothing has been changed yet" in page and "Confirm “1. Spieltag”?" in page
        assert not MatchDayConfirmation.objects.filter(tournament=played).exists()
        client.post(*confirmation_posting(page))
        assert MatchDayConfirmation.objects.filter(tournament=played).exists()

    def test_others_are_not_asked_but_refused(self, client_for, secretary, played):
        url = reverse("manage:season_close", kwargs={"season": played.season.slug})
        assert client_for(secretary).post(url).status_code == 403
