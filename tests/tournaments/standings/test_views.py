"""Public pages and the secretaries' pages (sheet entry has its own module): who may do what."""

from html.parser import HTMLParser

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tournaments.draw.services import series_draw
from tournaments.models import Player, Registration, Seat, Series, Tournament
from tournaments.sheets.services import game_record
from tournaments.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db

USERS = ["anonymous", "player", "other_club_secretary", "secretary"]


@pytest.fixture
def series(seated_series):
    return seated_series(4)


@pytest.fixture
def as_user(request, client_for):
    def make(name):
        return client_for(request.getfixturevalue(name))

    return make


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


def test_engine_errors_are_translated(table_de):
    from django.utils import translation

    from tournaments.errors import UserError

    with translation.override("de"), pytest.raises(UserError) as error:
        game_record(
            table=table_de, data={"declarer": 2, "game": "clubs", "matadors": 12, "won": True}
        )
    assert str(error.value) == "Die Spitzen müssen bei diesem Spiel zwischen 1 und 11 liegen."
    assert error.value.field == "matadors"


@pytest.fixture
def table_de(series):
    return series.tables.get()


def test_unknown_urls_are_404_not_500(client, tournament):
    assert client.get("/t/no-such-tournament/").status_code == 404
    assert client.get(f"/t/{tournament.slug}/series/9/").status_code == 404
    assert client.get("/players/999999/").status_code == 404


def manage_get_urls(tournament, series, club):
    return [
        reverse("manage:tournament", kwargs={"tournament": tournament.slug}),
        reverse("manage:tournament_settings", kwargs={"tournament": tournament.slug}),
        reverse("manage:series", kwargs={"tournament": tournament.slug, "series": 1}),
        reverse("manage:club_players", kwargs={"club": club.pk}),
        reverse("manage:tournament_new", kwargs={"club": club.pk}),
        reverse("manage:season_new", kwargs={"club": club.pk}),
    ]


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("player", 403), ("other_club_secretary", 403), ("secretary", 200)],
)
def test_secretary_pages_are_for_the_clubs_secretaries(
    who, status, as_user, tournament, series, club
):
    client = as_user(who)
    for url in manage_get_urls(tournament, series, club):
        response = client.get(url)
        assert response.status_code == status, url
        if status == 302:
            assert response["Location"].startswith(reverse("login"))


def manage_posts(tournament, club):
    registration = tournament.registrations.first()
    return [
        (
            reverse("manage:tournament_action", kwargs={"tournament": tournament.slug}),
            {"action": "unpublish"},
        ),
        (
            reverse("manage:registration_quick_add", kwargs={"tournament": tournament.slug}),
            {"name": "Neue Spielerin"},
        ),
        (
            reverse(
                "manage:registration_remove",
                kwargs={"tournament": tournament.slug, "pk": registration.pk},
            ),
            {},
        ),
        (
            reverse("manage:series_draw", kwargs={"tournament": tournament.slug}),
            {"method": "random", "keep_apart": "team"},
        ),
        (
            reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1}),
            {"action": "redraw", "keep_apart": "team", "seed": "5"},
        ),
        (reverse("manage:club_players", kwargs={"club": club.pk}), {"name": "Jörg Łukasz"}),
    ]


@pytest.mark.parametrize("who", ["anonymous", "player", "other_club_secretary"])
def test_outsiders_cannot_change_anything(who, as_user, tournament, series, club):
    client = as_user(who)
    before = (
        Registration.objects.count(),
        Series.objects.get().draw_seed,
        Tournament.objects.get().published,
    )
    for url, data in manage_posts(tournament, club):
        response = client.post(url, data)
        assert response.status_code in (302, 403), url
        if who != "anonymous":
            assert response.status_code == 403, url
    after = (
        Registration.objects.count(),
        Series.objects.get().draw_seed,
        Tournament.objects.get().published,
    )
    assert before == after


class TestSecretaryFlow:
    def test_create_a_tournament(self, client_for, secretary, club):
        client = client_for(secretary)
        response = client.post(
            reverse("manage:tournament_new", kwargs={"club": club.pk}),
            {
                "name": "Herbstpreisskat",
                "date": "2026-11-21",
                "rules": "ispa",
                "list_scoring": "on",
                "bonus_won": 50,
                "bonus_lost": 50,
                "bonus_others_3": 40,
                "bonus_others_4": 30,
                "games_per_series_4": 48,
                "games_per_series_3": 36,
            },
        )
        tournament = Tournament.objects.get(name="Herbstpreisskat")
        assert response.status_code == 302
        assert response["Location"] == reverse(
            "manage:tournament", kwargs={"tournament": tournament.slug}
        )
        assert tournament.club == club and tournament.games_per_series_4 == 48

    def test_bad_settings_are_shown_and_nothing_is_created(self, client_for, secretary, club):
        response = client_for(secretary).post(
            reverse("manage:tournament_new", kwargs={"club": club.pk}),
            {"name": "X", "date": "not a date", "rules": "ispa", "games_per_series_4": 0},
        )
        assert response.status_code == 200
        assert response.context["form"].errors
        assert not Tournament.objects.filter(name="X").exists()

    def test_register_quick_add_and_draw(self, client_for, secretary, tournament, club):
        client = client_for(secretary)
        roster = [PlayerFactory(club=club) for _ in range(6)]
        client.post(
            reverse("manage:registration_add", kwargs={"tournament": tournament.slug}),
            {"players": [p.pk for p in roster]},
        )
        client.post(
            reverse("manage:registration_quick_add", kwargs={"tournament": tournament.slug}),
            {"name": "Renée Weiß", "team": "Altenburg I"},
        )
        assert tournament.registrations.count() == 7
        response = client.post(
            reverse("manage:series_draw", kwargs={"tournament": tournament.slug}),
            {"method": "random", "keep_apart": "team", "seed": "11"},
        )
        series = Series.objects.get(tournament=tournament)
        assert response["Location"].endswith(f"/series/{series.number}/")
        assert sorted(series.tables.values_list("size", flat=True)) == [3, 4]
        page = client.get(response["Location"])
        assert "Renée Weiß" in page.content.decode()

    def test_five_players_get_a_clear_message(self, client_for, secretary, tournament, club):
        for _ in range(5):
            RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club))
        client = client_for(secretary)
        response = client.post(
            reverse("manage:series_draw", kwargs={"tournament": tournament.slug}),
            {"method": "random", "keep_apart": "team"},
            follow=True,
        )
        assert "5 players cannot be split" in response.content.decode()
        assert not Series.objects.exists()

    def test_swap_two_seats(self, client_for, secretary, tournament, series):
        a, b = series.tables.get().seats.order_by("number")[:2]
        client_for(secretary).post(
            reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1}),
            {"action": "swap", "seat": [a.pk, b.pk]},
        )
        a.refresh_from_db()
        assert a.player_id == b.player_id

    def test_publish_and_unpublish(self, client_for, secretary, tournament):
        url = reverse("manage:tournament_action", kwargs={"tournament": tournament.slug})
        client_for(secretary).post(url, {"action": "unpublish"})
        assert not Tournament.objects.get().published
        client_for(secretary).post(url, {"action": "publish"})
        assert Tournament.objects.get().published


def test_settings_change_recomputes(client_for, secretary, tournament, series):
    game = game_record(
        table=series.tables.get(),
        data={"declarer": 2, "game": "grand", "matadors": 1, "won": True},
    )
    assert game.list_declarer == 98
    data = {
        "name": tournament.name,
        "date": "2026-11-21",
        "rules": "ispa",
        "list_scoring": "on",
        "bonus_won": 60,
        "bonus_lost": 50,
        "bonus_others_3": 40,
        "bonus_others_4": 30,
        "games_per_series_4": 48,
        "games_per_series_3": 36,
        "published": "on",
    }
    response = client_for(secretary).post(
        reverse("manage:tournament_settings", kwargs={"tournament": tournament.slug}), data
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.list_declarer == 108


def test_director_records_a_draw_by_lot_for_tied_players(
    client_for, secretary, tournament, series
):

    page = client_for(secretary).get(
        reverse("manage:tournament", kwargs={"tournament": tournament.slug})
    )
    tied = [row.player_id for group in page.context["ties"] for row in group]
    assert len(tied) == 4  # nobody has played: all four are tied at 0
    last = tied[-1]
    client_for(secretary).post(
        reverse("manage:tournament_lots", kwargs={"tournament": tournament.slug}),
        {f"lot_{last}": "1"},
    )
    assert tournament_standings(tournament)[0].player_id == last


def test_a_bad_lot_number_changes_nothing(client_for, secretary, tournament, series):
    player_id = tournament.registrations.first().player_id
    response = client_for(secretary).post(
        reverse("manage:tournament_lots", kwargs={"tournament": tournament.slug}),
        {f"lot_{player_id}": "first"},
        follow=True,
    )
    assert "whole numbers" in response.content.decode()
    assert not Registration.objects.exclude(lot=None).exists()


@pytest.mark.parametrize("language", ["", "/de"])
def test_not_found_page_is_friendly(client, language, settings):
    settings.DEBUG = False
    response = client.get(f"{language}/t/no-such-tournament/")
    assert response.status_code == 404
    text = response.content.decode()
    expected = "Diese Seite gibt es nicht" if language else "This page does not exist"
    assert expected in text


def test_forbidden_page_explains(client_for, other_club_secretary, tournament, settings):
    settings.DEBUG = False
    url = reverse("manage:tournament", kwargs={"tournament": tournament.slug})
    response = client_for(other_club_secretary).get(url)
    assert response.status_code == 403
    assert "secretaries of the club" in response.content.decode()


# --------------------------------------------------------------------------------------
# Public standings pages
# --------------------------------------------------------------------------------------


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
    assert [p.player_name for p in players] == [ladies.name]
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
    assert '<meta http-equiv="refresh" content="20; url=?page=1&amp;rows=30">' in text
    assert len(response.context["latest"]) == 3 and "S1 T1 #3" in text
    assert len(response.context["standings"]) == 4


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
        assert f"url=?page={following}&amp;rows=5" in response.content.decode()
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


class _FormFields(HTMLParser):
    """The fields each <form> of a page posts: {form index: [(name, value), ...]}."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._select = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"fields": [], "buttons": []})
        elif not self.forms:
            return
        elif tag == "input" and attrs.get("name"):
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                return
            self.forms[-1]["fields"].append((attrs["name"], attrs.get("value", "")))
        elif tag == "button" and attrs.get("name"):
            self.forms[-1]["buttons"].append((attrs["name"], attrs.get("value", "")))
        elif tag == "select":
            self._select = attrs["name"]
        elif tag == "option" and self._select and "selected" in attrs:
            self.forms[-1]["fields"].append((self._select, attrs.get("value", "")))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def form_posting(html: str, button: tuple[str, str]) -> dict[str, str]:
    """What the page's form with that submit button posts when the button is pressed."""
    parser = _FormFields()
    parser.feed(html)
    for form in parser.forms:
        if button in form["buttons"]:
            return dict([*form["fields"], button])
    raise AssertionError(f"no form with the button {button}")


class TestSeriesPage:
    def series_url(self, tournament, number=1):
        return reverse("manage:series", kwargs={"tournament": tournament.slug, "series": number})

    def test_draw_again_posts_what_the_page_offers(self, client_for, secretary, tournament):
        for p in PlayerFactory.create_batch(8, club=tournament.club):
            RegistrationFactory(tournament=tournament, player=p)
        series_draw(tournament=tournament, seed=3, keep_apart="club")
        client = client_for(secretary)
        page = client.get(self.series_url(tournament)).content.decode()
        data = form_posting(page, ("action", "redraw"))
        assert data["keep_apart"] == "club"  # the form starts from the series' own setting
        data["seed"] = "5"
        response = client.post(
            reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1}),
            data,
            follow=True,
        )
        assert "The series was drawn again." in response.content.decode()
        series = Series.objects.get()
        assert (series.draw_seed, series.keep_apart) == (5, "club")

    @pytest.mark.parametrize(
        "seats", [["abc", "1"], ["1", str(10**30)], ["1"], ["-1", "0"], ["1", "2", "3"]]
    )
    def test_swap_with_bad_seat_ids_gives_a_message(
        self, seats, client_for, secretary, tournament, series
    ):
        before = list(Seat.objects.order_by("pk").values_list("pk", "player_id"))
        response = client_for(secretary).post(
            reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1}),
            {"action": "swap", "seat": seats},
            follow=True,
        )
        assert response.status_code == 200
        assert "Choose exactly two seats to swap." in response.content.decode()
        assert list(Seat.objects.order_by("pk").values_list("pk", "player_id")) == before

    def test_players_who_met_before_are_flagged(self, client_for, secretary, tournament):
        for p in PlayerFactory.create_batch(4, club=tournament.club):
            RegistrationFactory(tournament=tournament, player=p)
        series_draw(tournament=tournament, seed=1)
        client = client_for(secretary)
        assert "met before" not in client.get(self.series_url(tournament)).content.decode()
        series_draw(tournament=tournament, seed=2)
        page = client.get(self.series_url(tournament, 2)).content.decode()
        assert page.count("met before") == 6  # four players at one table again: six pairs

    def test_the_warning_checks_what_the_draw_kept_apart(self, client_for, secretary, tournament):
        other = ClubFactory(name="Skatclub Gera")
        for p in [*PlayerFactory.create_batch(2, club=other), *PlayerFactory.create_batch(2)]:
            RegistrationFactory(tournament=tournament, player=p)
        series_draw(tournament=tournament, seed=1, keep_apart="club")
        page = client_for(secretary).get(self.series_url(tournament)).content.decode()
        assert "same club" in page


SETTINGS = {
    "name": "Herbstpreisskat",
    "date": "2026-11-21",
    "rules": "ispa",
    "list_scoring": "on",
    "bonus_won": 50,
    "bonus_lost": 50,
    "bonus_others_3": 40,
    "bonus_others_4": 30,
    "games_per_series_4": 32,
    "games_per_series_3": 24,
}


def _club_player(club):
    return PlayerFactory(club=club, name="Ida Alt", team="")


# Each secretary's POST: (url name, url kwargs, data, what the secretary's POST changed).
SECRETARY_POSTS = {
    "registration_add": (
        lambda t, c, p: reverse("manage:registration_add", kwargs={"tournament": t.slug}),
        lambda t, c, p: {"players": [p.pk]},
        lambda t, c, p: t.registrations.filter(player=p).exists(),
    ),
    "tournament_lots": (
        lambda t, c, p: reverse("manage:tournament_lots", kwargs={"tournament": t.slug}),
        lambda t, c, p: {f"lot_{t.registrations.first().player_id}": "1"},
        lambda t, c, p: t.registrations.exclude(lot=None).exists(),
    ),
    "tournament_settings": (
        lambda t, c, p: reverse("manage:tournament_settings", kwargs={"tournament": t.slug}),
        lambda t, c, p: SETTINGS,
        lambda t, c, p: Tournament.objects.get(pk=t.pk).games_per_series_4 == 32,
    ),
    "tournament_new": (
        lambda t, c, p: reverse("manage:tournament_new", kwargs={"club": c.pk}),
        lambda t, c, p: {**SETTINGS, "name": "Winterpreisskat"},
        lambda t, c, p: Tournament.objects.filter(name="Winterpreisskat", club=c).exists(),
    ),
    "season_new": (
        lambda t, c, p: reverse("manage:season_new", kwargs={"club": c.pk}),
        lambda t, c, p: {"name": "Liga 2027"},
        lambda t, c, p: c.seasons.filter(name="Liga 2027").exists(),
    ),
    "player_edit": (
        lambda t, c, p: reverse("manage:player_edit", kwargs={"club": c.pk, "pk": p.pk}),
        lambda t, c, p: {"name": "Ida Neu", "team": "Altenburg II", "category": "ladies"},
        lambda t, c, p: Player.objects.get(pk=p.pk).name == "Ida Neu",
    ),
    "registration_import": (
        lambda t, c, p: reverse("manage:registration_import", kwargs={"tournament": t.slug}),
        lambda t, c, p: {"file": SimpleUploadedFile("liste.csv", "Name\nJörg Łukasz\n".encode())},
        # The upload only previews; the confirmation (posted by the same user) registers.
        lambda t, c, p: t.registrations.filter(player__name="Jörg Łukasz").exists(),
    ),
}


@pytest.mark.parametrize("who", USERS)
@pytest.mark.parametrize("action", sorted(SECRETARY_POSTS))
def test_only_the_clubs_secretary_posts(who, action, as_user, tournament, series, club):
    url_of, data_of, changed = SECRETARY_POSTS[action]
    ida = _club_player(club)
    client = as_user(who)
    url = url_of(tournament, club, ida)
    response = client.post(url, data_of(tournament, club, ida))
    if action == "registration_import":
        assert client.post(url, {"confirm": "1"}).status_code == response.status_code or (
            who == "secretary"
        )
    if who == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    elif who != "secretary":
        assert response.status_code == 403
    if who == "secretary":
        assert response.status_code in (200, 302)
        assert changed(tournament, club, ida), action
    else:
        assert not changed(tournament, club, ida), action


def test_player_edit_page_shows_the_player_and_refuses_bad_names(client_for, secretary, club):
    ida = _club_player(club)
    url = reverse("manage:player_edit", kwargs={"club": club.pk, "pk": ida.pk})
    client = client_for(secretary)
    page = client.get(url)
    assert page.status_code == 200 and "Ida Alt" in page.content.decode()
    response = client.post(url, {"name": "Ida\x1bAlt", "team": "", "category": ""})
    assert response.status_code == 200
    assert "control character" in response.content.decode()
    assert Player.objects.get(pk=ida.pk).name == "Ida Alt"


def test_a_player_of_another_club_is_not_edited_here(client_for, secretary, club):
    stranger = PlayerFactory(club=ClubFactory(name="Skatclub Gera"), name="Gerd")
    url = reverse("manage:player_edit", kwargs={"club": club.pk, "pk": stranger.pk})
    assert client_for(secretary).post(url, {"name": "X"}).status_code == 404
    assert Player.objects.get(pk=stranger.pk).name == "Gerd"


def test_the_next_draw_starts_from_the_last_draws_keep_apart(
    client_for, secretary, tournament, roster
):
    for p in roster(4):
        RegistrationFactory(tournament=tournament, player=p)
    series_draw(tournament=tournament, seed=1, keep_apart="team_and_club")
    page = client_for(secretary).get(
        reverse("manage:tournament", kwargs={"tournament": tournament.slug})
    )
    parser = _FormFields()
    parser.feed(page.content.decode())
    (draw,) = [dict(f["fields"]) for f in parser.forms if "method" in dict(f["fields"])]
    assert draw["keep_apart"] == "team_and_club"
