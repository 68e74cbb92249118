"""The secretaries' registry pages and who may post them.

Club players, seasons, a tournament's settings, its desk (publishing, lots, the next draw's
form) and registrations.
"""

from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import GRAND, USERS, FormFields, confirmation_posting
from tournaments.draw.services import series_draw
from tournaments.models import Player, Registration, Series, Tournament
from tournaments.registry.forms import TournamentForm
from tournaments.sheets.services import game_record
from tournaments.standings.selectors import tied_groups, tournament_standings

pytestmark = pytest.mark.django_db


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

    def test_create_a_north_american_tournament_with_tables_of_five(
        self, client_for, secretary, club
    ):
        settings = {
            "name": "Tournée",
            "date": "2026-11-21",
            "rules": "na",
            "bonus_won": 50,
            "bonus_lost": 50,
            "bonus_others_3": 40,
            "bonus_others_4": 30,
            "games_per_series_4": 48,
            "games_per_series_3": 36,
            "five_tables": "on",
            "games_per_series_5": 50,
            "ramsch_rule": "hoyle",
            "ramsch_tie_both_win": "on",
        }
        url = reverse("manage:tournament_new", kwargs={"club": club.pk})
        assert client_for(secretary).post(url, settings).status_code == 302
        tournament = Tournament.objects.get(name="Tournée")
        assert (tournament.five_tables, tournament.games_per_series(5)) == (True, 50)
        assert (tournament.ramsch, tournament.ramsch_tie_both_win) == ("hoyle", True)
        # rules §3.6: tables of five and Hoyle's ramsch are North American. Under ISPA rules
        # the NA-only boxes are hidden and simply off (as Kontra is under NA rules); the
        # ramsch rule stays visible, so a North American one is refused.
        response = client_for(secretary).post(url, {**settings, "rules": "ispa"})
        assert response.status_code == 200
        assert "Hoyle" in str(response.context["form"].errors)
        assert Tournament.objects.count() == 1
        ispa = {**settings, "name": "Preisskat", "rules": "ispa", "ramsch_rule": ""}
        assert client_for(secretary).post(url, ispa).status_code == 302
        created = Tournament.objects.get(name="Preisskat")
        assert (created.five_tables, created.ramsch_tie_both_win) == (False, False)

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

    def test_publish_and_unpublish(self, client_for, secretary, tournament):
        url = reverse("manage:tournament_action", kwargs={"tournament": tournament.slug})
        client_for(secretary).post(url, {"action": "unpublish"})
        assert not Tournament.objects.get().published
        client_for(secretary).post(url, {"action": "publish"})
        assert Tournament.objects.get().published


def test_the_settings_page_names_the_longest_sheet(table, client_for, secretary):
    tournament = table.series.tournament
    for declarer in (2, 3):
        game_record(table=table, data={**GRAND, "declarer": declarer})
    form = TournamentForm(instance=tournament, club=tournament.club)
    data = {k: v for k, v in form.initial.items() if v is not None and v is not False}
    data.update(games_per_series_4=1, date="2026-11-21")
    response = client_for(secretary).post(
        reverse("manage:tournament_settings", kwargs={"tournament": tournament.slug}), data
    )
    assert response.status_code == 200
    assert "Table 1 of series 1 already holds 2 games" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.games_per_series_4 == 48


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
    parser = FormFields()
    parser.feed(page.content.decode())
    (draw,) = [dict(f["fields"]) for f in parser.forms if "method" in dict(f["fields"])]
    assert draw["keep_apart"] == "team_and_club"


# --------------------------------------------------------------------------------------
# Friction removed (issue 12)
# --------------------------------------------------------------------------------------


def _active_tabs(html: str) -> list[str]:
    import re

    return re.findall(r'<a href="[^"]*" class="active"[^>]*>([^<]*)</a>', html)


def test_the_manage_pages_highlight_manage_not_the_standings(client_for, secretary, tournament):
    series_draw_players(tournament, 6)
    client = client_for(secretary)
    for name, kwargs in (
        ("manage:tournament", {}),
        ("manage:series", {"series": 1}),
        ("manage:money", {}),
        ("manage:registration_import", {}),
    ):
        html = client.get(reverse(name, kwargs={"tournament": tournament.slug, **kwargs}))
        assert _active_tabs(html.content.decode()) == ["⚙ Manage"], name
    public = client.get(reverse("tournament_detail", kwargs={"tournament": tournament.slug}))
    assert _active_tabs(public.content.decode()) == ["Standings"]


def series_draw_players(tournament, count):
    for _number in range(count):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=tournament.club))
    return series_draw(tournament=tournament, seed=1)


@pytest.mark.parametrize(
    ("players", "split"),
    [
        (3, "1 table of 3."),
        (4, "1 table of 4."),
        (7, "1 table of 4 and 1 table of 3."),
        (8, "2 tables of 4."),
        (9, "3 tables of 3."),
        (10, "1 table of 4 and 2 tables of 3."),
    ],
)
def test_the_next_draw_counts_its_tables_in_words(
    client_for, secretary, tournament, players, split
):
    for _number in range(players):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=tournament.club))
    html = client_for(secretary).get(reverse("manage:tournament", args=[tournament.slug]))
    assert f"{players} players: {split}" in html.content.decode()


def test_after_a_quick_add_the_cursor_waits_in_name(client_for, secretary, tournament):
    client = client_for(secretary)
    response = client.post(
        reverse("manage:registration_quick_add", args=[tournament.slug]), {"name": "Ida Neu"}
    )
    assert response["Location"].endswith("?focus=quick-add")
    html = client.get(response["Location"]).content.decode()
    assert 'name="name"' in html
    field = html[html.index('name="name"') - 200 : html.index('name="name"') + 200]
    assert "autofocus" in field
    plain = client.get(reverse("manage:tournament", args=[tournament.slug])).content.decode()
    assert "autofocus" not in plain


def test_the_import_preview_counts_only_players_not_registered_yet(
    client_for, secretary, tournament, club
):
    anna = PlayerFactory(club=club, name="Anna Schmidt", federation_number="123")
    RegistrationFactory(tournament=tournament, player=anna)
    bernd = PlayerFactory(club=club, name="Bernd Müller")
    RegistrationFactory(tournament=tournament, player=bernd)
    csv = "Name;Federation number\nAnna S.;123\nbernd  müller;\nCarla Weiß;\n"
    response = client_for(secretary).post(
        reverse("manage:registration_import", args=[tournament.slug]),
        {"file": SimpleUploadedFile("liste.csv", csv.encode())},
    )
    text = response.content.decode()
    assert "1 player will be registered." in text
    assert "2 are registered already" in text
    assert text.count("registered already</span>") == 2


def test_north_american_tournaments_hide_the_seeger_fabian_fields(
    client_for, secretary, tournament
):
    client = client_for(secretary)
    url = reverse("manage:tournament_settings", args=[tournament.slug])
    ispa = client.get(url).content.decode()
    tournament.rules = "na"
    tournament.kontra_allowed = False
    tournament.save()
    na = client.get(url).content.decode()

    def wrapper(html, name):
        at = html.index(f'id="id_{name}"')
        return html[html.rindex('<div class="form-field', 0, at) : at]

    for name in ("bonus_won", "bonus_others_4", "list_scoring", "kontra_allowed"):
        assert 'data-only-rules="ispa"' in wrapper(ispa, name)
        assert " hidden" not in wrapper(ispa, name)
        assert " hidden" in wrapper(na, name), name
    assert "games_per_series_3" in na and " hidden" not in wrapper(na, "games_per_series_3")
    assert '<fieldset data-only-rules="ispa" hidden><legend>Scoring</legend>' in na


def test_new_tournament_form_lays_out_labels_help_and_errors_by_their_fields(
    client_for, secretary, club
):
    response = client_for(secretary).post(
        reverse("manage:tournament_new", kwargs={"club": club.pk}),
        {"name": "", "date": "2026-11-21", "rules": "ispa", "games_per_series_3": "0"},
    )
    text = response.content.decode()
    assert "<fieldset><legend>Event</legend>" in text
    name = text[text.index('<div class="form-field invalid"') :]
    assert name.index('for="id_name"') < name.index('id="id_name"') < name.index("field-error")
    # Every help text the fields point to is on the page.
    import re

    for target in re.findall(r'aria-describedby="([^"]+)"', text):
        for part in target.split():
            assert f'id="{part}"' in text, part


class TestDrawByLot:
    """Issue 27, defect 4: the draw by lot refused the natural numbering (1, 2 within each
    tied group) and did not say what it wanted. Each tied group is numbered on its own."""

    @pytest.fixture
    def two_groups(self, tournament):
        """8 players at two tables of 4; a won grand at each table: the two declarers are
        tied (one game won each, the same points), and so are the six others (nothing yet)."""
        for _number in range(8):
            RegistrationFactory(tournament=tournament, player=PlayerFactory(club=tournament.club))
        series = series_draw(tournament=tournament, seed=1)
        for table in series.tables.all():
            game_record(table=table, data=GRAND)
        groups = [
            [row.player_id for row in group]
            for group in tied_groups(tournament_standings(tournament))
        ]
        assert sorted(len(group) for group in groups) == [2, 6]
        return sorted(groups, key=len)

    def post(self, client, tournament, lots):
        return client.post(
            reverse("manage:tournament_lots", kwargs={"tournament": tournament.slug}),
            {f"lot_{player_id}": str(number) for player_id, number in lots.items()},
            follow=True,
        )

    def test_the_natural_numbering_within_each_group_is_recorded(
        self, client_for, secretary, tournament, two_groups
    ):
        declarers, others = two_groups
        lots = {pid: n for group in two_groups for n, pid in enumerate(reversed(group), 1)}
        response = self.post(client_for(secretary), tournament, lots)
        assert "The draw by lot is recorded." in response.content.decode()
        ranked = [row.player_id for row in tournament_standings(tournament)]
        assert ranked == list(reversed(declarers)) + list(reversed(others))

    def test_different_numbers_across_the_groups_are_still_recorded(
        self, client_for, secretary, tournament, two_groups
    ):
        lots = {pid: n for n, pid in enumerate([p for g in two_groups for p in g], 1)}
        self.post(client_for(secretary), tournament, lots)
        assert (
            dict(tournament.registrations.exclude(lot=None).values_list("player_id", "lot"))
            == lots
        )

    def test_a_number_given_twice_in_one_group_names_the_group_and_the_numbers(
        self, client_for, secretary, tournament, two_groups
    ):
        declarers, others = two_groups
        lots = {pid: n for n, pid in enumerate(others, 1)}
        lots.update(dict.fromkeys(declarers, 1))
        response = self.post(client_for(secretary), tournament, lots)
        html = unescape(response.content.decode())
        names = dict(tournament.registrations.values_list("player_id", "player__name"))
        assert all(names[pid] in html for pid in declarers)
        assert "1 to 2 (1 ranks first)" in html
        assert not Registration.objects.exclude(lot=None).exists()

    def test_a_missing_number_says_which_group_wants_which_numbers(
        self, client_for, secretary, tournament, two_groups
    ):
        declarers, others = two_groups
        lots = {pid: n for n, pid in enumerate(others, 1)}
        lots[declarers[0]] = 1
        lots[declarers[1]] = ""
        html = self.post(client_for(secretary), tournament, lots).content.decode()
        assert "1 to 2 (1 ranks first)" in html
        assert not Registration.objects.exclude(lot=None).exists()


def test_removing_a_registration_asks_first(client_for, secretary, tournament):
    """Issue 27, defect 6: the ✕ removed a registration at one click. Its first POST
    changes nothing and answers with a page that asks; that page's button removes it."""
    registration = RegistrationFactory(
        tournament=tournament, player=PlayerFactory(club=tournament.club, name="Ida Alt")
    )
    client = client_for(secretary)
    url = reverse("manage:registration_remove", args=[tournament.slug, registration.pk])
    asked = client.post(url)
    page = asked.content.decode()
    assert asked.status_code == 200
    assert "Nothing has been changed yet" in page and "Remove Ida Alt from" in page
    assert Registration.objects.filter(pk=registration.pk).exists()
    response = client.post(*confirmation_posting(page), follow=True)
    assert "Registration removed." in response.content.decode()
    assert not Registration.objects.filter(pk=registration.pk).exists()
