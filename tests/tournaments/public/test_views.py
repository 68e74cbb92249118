"""The public pages and who sees them.

Home, a tournament's standings, series, table, teams, player, season and projector; the pages
for what does not exist.
"""

import pytest
from django.urls import reverse

from tests.factories import RegistrationFactory
from tests.tournaments.helpers import USERS, WORKED_EXAMPLE, enter, sheet_rows
from tournaments.draw.services import series_draw
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def public_urls(tournament, series):
    table = series.tables.get()
    player = table.seats.first().player
    return [
        reverse("home"),
        reverse("tournament_detail", kwargs={"tournament": tournament.slug}),
        reverse("team_standings", kwargs={"tournament": tournament.slug}),
        reverse("tournament_projector", kwargs={"tournament": tournament.slug}),
        reverse("series_detail", kwargs={"tournament": tournament.slug, "series": 1}),
        reverse("table_detail", kwargs={"tournament": tournament.slug, "series": 1, "table": 1}),
        reverse("player_detail", kwargs={"pk": player.pk}),
    ]


@pytest.mark.parametrize("who", USERS)
def test_everyone_reads_a_published_tournament(who, as_user, tournament, series):
    enter(series.tables.get(), sheet_rows(WORKED_EXAMPLE, 4)[:5])
    client = as_user(who)
    for url in public_urls(tournament, series):
        response = client.get(url)
        assert response.status_code == 200, url


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 404), ("player", 404), ("other_club_secretary", 404), ("secretary", 200)],
)
def test_an_unpublished_tournament_is_hidden_from_all_but_its_club(
    who, status, as_user, tournament, series
):
    Tournament.objects.update(published=False)
    url = reverse("tournament_detail", kwargs={"tournament": tournament.slug})
    assert as_user(who).get(url).status_code == status


def test_standings_page_shows_the_worked_example(client, tournament, series):
    enter(series.tables.get(), sheet_rows(WORKED_EXAMPLE, 4))
    html = client.get(reverse("tournament_detail", kwargs={"tournament": tournament.slug}))
    text = html.content.decode()
    for points in ("1332", "1320", "1308", "108"):
        assert points in text
    assert text.index("1332") < text.index("1320") < text.index("1308")


def _order_of(text, names):
    return sorted(names, key=text.index)


@pytest.mark.parametrize(
    ("sort", "seats"),
    [
        # Worked example: won 12/12/10/6, list points 1332/1308/1320/108 for seats 1–4.
        ("won", [4, 3]),
        ("-list_points", [1, 3, 2, 4]),
        ("list_points", [4, 2, 3, 1]),
        ("lost", [1, 3, 2, 4]),
    ],
)
def test_standings_are_sortable(client, tournament, series, sort, seats):
    table = series.tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    name = {s.number: s.player.name for s in table.seats.select_related("player")}
    url = reverse("tournament_detail", kwargs={"tournament": tournament.slug})
    text = client.get(url, {"sort": sort}).content.decode()
    order = _order_of(text, list(name.values()))
    assert order[: len(seats)] == [name[n] for n in seats]


def test_german_page(client, tournament, series):
    url = "/de" + reverse("tournament_detail", kwargs={"tournament": tournament.slug})
    response = client.get(url)
    assert response.status_code == 200
    assert response.headers["Content-Language"] == "de"
    text = response.content.decode()
    assert "Rangliste" in text and "Anmelden" in text


def test_unknown_urls_are_404_not_500(client, tournament):
    assert client.get("/t/no-such-tournament/").status_code == 404
    assert client.get(f"/t/{tournament.slug}/series/9/").status_code == 404
    assert client.get("/players/999999/").status_code == 404


@pytest.mark.parametrize("language", ["", "/de"])
def test_not_found_page_is_friendly(client, language, settings):
    settings.DEBUG = False
    response = client.get(f"{language}/t/no-such-tournament/")
    assert response.status_code == 404
    text = response.content.decode()
    expected = "Diese Seite gibt es nicht" if language else "This page does not exist"
    assert expected in text


def _one_player_teams(table):
    for seat in table.seats.select_related("player"):
        seat.player.team = f"T{seat.number}"
        seat.player.save()


@pytest.fixture
def season_with_a_draft(club, seated_series):
    """A season of two played match days; the second is not published."""
    from tests.factories import TournamentFactory
    from tournaments.models import Season

    season = Season.objects.create(club=club, name="Liga 2026", slug="liga-2026")
    days = []
    for number, published in ((1, True), (2, False)):
        day = TournamentFactory(
            club=club, season=season, name=f"Liga, {number}. Spieltag", published=published
        )
        table = seated_series(4, target=day).tables.get()
        enter(table, sheet_rows(WORKED_EXAMPLE, 4))
        _one_player_teams(table)
        days.append(day)
    return season, days


def test_season_page_hides_unpublished_match_days(
    client, client_for, secretary, season_with_a_draft
):
    season, (shown, hidden) = season_with_a_draft
    url = reverse("season_detail", kwargs={"season": season.slug})
    text = client.get(url).content.decode()
    assert shown.get_absolute_url() in text and hidden.get_absolute_url() not in text
    assert hidden.name not in text and "3:0" in text and "6:0" not in text
    assert client.get(hidden.get_absolute_url()).status_code == 404
    club_text = client_for(secretary).get(url).content.decode()
    assert hidden.get_absolute_url() in club_text and "6:0" in club_text


def test_season_page_shows_each_match_day(client, season_with_a_draft):
    season, (day, _hidden) = season_with_a_draft
    response = client.get(reverse("season_detail", kwargs={"season": season.slug}))
    text = response.content.decode()
    # The match day's own ranking: T1 1332 3:0 … T4 108 0:3.
    day_card = text[text.index("Liga, 1. Spieltag</a>") : text.index("<h2>Players")]
    assert day_card.index("1332") < day_card.index("1320") < day_card.index("1308")
    assert day_card.index("3:0") < day_card.index("2:1") < day_card.index("0:3")
    assert "Day 1" in text and "average of the places" in text


def test_season_page_category_filter_leaves_the_teams(client, season_with_a_draft):
    season, (day, _hidden) = season_with_a_draft
    ladies = day.registrations.order_by("pk").first().player
    ladies.category = "ladies"
    ladies.save()
    url = reverse("season_detail", kwargs={"season": season.slug})
    response = client.get(url, {"category": "ladies"})
    players = response.context["players_table"].data.data
    assert [p.name for p in players] == [ladies.name]
    teams = response.context["teams_table"].data.data
    assert len(teams) == 4 and teams[0].match_points_won == 3
    assert '<option value="ladies" selected>' in response.content.decode()


def test_category_filter_on_the_standings_page(client, tournament, series):
    table = series.tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    lady = table.seats.get(number=4).player
    lady.category = "ladies"
    lady.save()
    others = [s.player.name for s in table.seats.exclude(number=4).select_related("player")]
    url = reverse("tournament_detail", kwargs={"tournament": tournament.slug})
    text = client.get(url, {"category": "ladies"}).content.decode()
    assert lady.name in text and "108" in text
    assert not any(name in text for name in others)
    assert '<option value="ladies" selected>' in text
    assert "?category=ladies" in text  # the PDF keeps the filter
    assert all(name in client.get(url, {"category": "bogus"}).content.decode() for name in others)


def test_standings_page_shows_the_team_column_only_with_teams(client, tournament, series):
    url = reverse("tournament_detail", kwargs={"tournament": tournament.slug})
    assert ">Team<" not in client.get(url).content.decode()
    _one_player_teams(series.tables.get())
    assert ">Team<" in client.get(url).content.decode()


def test_team_page_counts_the_best_n(client, tournament, series):
    table = series.tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    for seat in table.seats.select_related("player"):
        seat.player.team = "Eins" if seat.number in (1, 2) else "Zwei"
        seat.player.save()
    tournament.team_best_n = 1
    tournament.save()
    response = client.get(reverse("team_standings", kwargs={"tournament": tournament.slug}))
    text = response.content.decode()
    assert "The best 1 members of each team count." in text
    rows = response.context["table"].data.data
    assert [(t.team, t.list_points, t.counted) for t in rows] == [
        ("Eins", 1332, 1),
        ("Zwei", 1320, 1),
    ]
    # Phones: won and lost give way so that the points stay on screen.
    assert text.count('class="hide-narrow num') >= 4


def test_projector_reloads_and_lists_the_latest_games(client, tournament, series):
    enter(series.tables.get(), sheet_rows(WORKED_EXAMPLE, 4)[:3])
    url = reverse("tournament_projector", kwargs={"tournament": tournament.slug})
    response = client.get(url)
    text = response.content.decode()
    # Without rows in the address the screen is measured (fit=1; static/js/projector.js).
    assert 'data-next="?page=1&amp;rows=30&amp;fit=1"' in text
    # One page: no turning, it reloads when the tournament's version changes (live.js).
    version_url = reverse("tournament_version", kwargs={"tournament": tournament.slug})
    tournament.refresh_from_db()
    assert f'data-version-url="{version_url}" data-version="{tournament.version}"' in text
    assert "http-equiv" not in text and "data-turn-url" not in text
    assert len(response.context["latest"]) == 3 and "S1 T1 #3" in text
    assert len(response.context["standings"]) == 4
    # Each game with its declarer's name, read from the table's seats.
    names = {seat.number: seat.player.name for seat in series.tables.get().seats.all()}
    latest = response.context["latest"]
    assert [g.declarer_name for g in latest] == [names[g.declarer] for g in latest]
    assert all(f"<strong>{names[g.declarer]}</strong>" in text for g in latest)


def test_projector_cycles_through_every_row(client, tournament, roster):
    from tests.factories import RegistrationFactory

    for p in roster(12):
        RegistrationFactory(tournament=tournament, player=p)
    url = reverse("tournament_projector", kwargs={"tournament": tournament.slug})
    seen = []
    for page in (1, 2, 3):
        response = client.get(url, {"rows": 5, "page": page})
        seen += [row.player_id for row in response.context["standings"]]
        following = 1 if page == 3 else page + 1
        assert f'data-turn-url="?page={following}&amp;rows=5"' in response.content.decode()
    assert len(seen) == len(set(seen)) == 12
    assert "page 3 of 3" in response.content.decode()
    assert len(client.get(url, {"rows": "x", "page": "99"}).context["standings"]) == 12


def test_player_page_shows_games_and_averages_played_series(client, tournament, series):
    enter(series.tables.get(), sheet_rows(WORKED_EXAMPLE, 4))
    series_draw(tournament=tournament, seed=3)  # seated, not begun
    player = series.tables.get().seats.get(number=1).player
    response = client.get(reverse("player_detail", kwargs={"pk": player.pk}))
    text = response.content.decode()
    assert "Games played at the table" in text and "Games declared" in text
    assert response.context["stats"].average_list_points == 1332
    assert text.count("<rect") == 1  # no 0 bar for the series not begun
    assert "<td>Grand</td>" in text


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 404), ("player", 404), ("secretary", 200)]
)
def test_a_player_of_unpublished_tournaments_only_is_hidden(
    who, status, as_user, tournament, series
):
    Tournament.objects.update(published=False)
    player = series.tables.get().seats.first().player
    assert (
        as_user(who).get(reverse("player_detail", kwargs={"pk": player.pk})).status_code == status
    )


def test_player_page_shows_only_published_figures(client, tournament, series, club, roster):
    from tests.factories import TournamentFactory

    enter(series.tables.get(), sheet_rows(WORKED_EXAMPLE, 4))
    player = series.tables.get().seats.get(number=1).player
    draft = TournamentFactory(club=club, name="Geheimturnier", published=False)
    for p in (player, *roster(3)):
        RegistrationFactory(tournament=draft, player=p)
    series_draw(tournament=draft, seed=1)
    text = client.get(reverse("player_detail", kwargs={"pk": player.pk})).content.decode()
    assert "Geheimturnier" not in text and tournament.name in text


def test_mid_series_the_standings_show_the_games_played_so_far(client, tournament, series):
    enter(series.tables.get(), sheet_rows(WORKED_EXAMPLE, 4)[:5])
    for name in ("tournament_detail", "series_detail"):
        kwargs = {"tournament": tournament.slug, **({"series": 1} if "series" in name else {})}
        response = client.get(reverse(name, kwargs=kwargs))
        text = response.content.decode()
        assert "Series 1 in play: 5 of 48 games entered so far." in text, name
        rows = response.context["table"].rows
        # A 4-table: each of the four seats has 5 games so far (dealt ones included).
        assert [row.get_cell("games") for row in rows] == [5, 5, 5, 5], name
    series.status = "closed"
    series.save(update_fields=["status"])
    response = client.get(reverse("tournament_detail", kwargs={"tournament": tournament.slug}))
    assert "in play" not in response.content.decode()
    assert "games" not in [column.name for column in response.context["table"].columns]


@pytest.mark.parametrize("language", ["en", "de"])
def test_one_date_format_per_language(client, tournament, series, language):
    from django.utils import formats, translation

    with translation.override(language):
        short = formats.date_format(tournament.date, "SHORT_DATE_FORMAT")
        long = formats.date_format(tournament.date, "DATE_FORMAT")
        pages = [
            client.get(reverse("home")).content.decode(),
            client.get(
                reverse("tournament_detail", kwargs={"tournament": tournament.slug})
            ).content.decode(),
        ]
    assert short != long
    for html in pages:
        assert short in html and long not in html


def test_every_page_has_the_favicon(client, tournament, series):
    from pathlib import Path

    from django.conf import settings

    html = client.get(reverse("tournament_detail", kwargs={"tournament": tournament.slug}))
    assert (
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        in html.content.decode()
    )
    icon = Path(settings.STATICFILES_DIRS[0]) / "favicon.svg"
    assert icon.read_text().startswith("<svg")
