"""Who may open and post the secretaries' pages of every subject (permissions.py, mixins.py).

Outsiders are sent to sign in (anonymous) or refused (403) by a page that says why, and nothing
changes.
"""

import pytest
from django.urls import reverse

from tournaments.models import Registration, Series, Tournament

pytestmark = pytest.mark.django_db


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
            {"confirmed": "1"},
        ),
        (
            reverse("manage:series_draw", kwargs={"tournament": tournament.slug}),
            {"method": "random", "keep_apart": "team"},
        ),
        (
            reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1}),
            {"action": "redraw", "keep_apart": "team", "seed": "5", "confirmed": "1"},
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


def test_forbidden_page_explains(client_for, other_club_secretary, tournament, settings):
    settings.DEBUG = False
    url = reverse("manage:tournament", kwargs={"tournament": tournament.slug})
    response = client_for(other_club_secretary).get(url)
    assert response.status_code == 403


# --------------------------------------------------------------------------------------
# Leagues: each write is allowed exactly to whom it belongs
# --------------------------------------------------------------------------------------


LEAGUE_CAST = [
    "anonymous",
    "player",
    "other_club_secretary",  # a club outside the league
    "secretary",  # Altenburg: a member club, the match day's host
    "zeitz_secretary",  # the other member club
    "venue_secretary",  # keeps the tables at the venue "Altenburg"
    "venue_secretary_2",  # keeps the tables at the venue "Zeitz"
    "league_director",
]


def _league_state():
    from tournaments.models import (
        Game,
        MatchDayConfirmation,
        RosterEntry,
        Season,
        Series,
        Team,
        Tournament,
        Venue,
    )

    season = Season.objects.get(slug="liga-2026-27")
    return (
        sorted(Registration.objects.values_list("tournament_id", "player_id")),
        Team.objects.count(),
        RosterEntry.objects.count(),
        Venue.objects.count(),
        Tournament.objects.count(),
        MatchDayConfirmation.objects.count(),
        Game.objects.count(),
        Series.objects.count(),
        Table.objects.filter(closed=True).count(),
        season.min_series,
        season.status,
    )


def _sheet(day, venue):
    table = Table.objects.filter(series__tournament=day, venue__name=venue).order_by("number")[0]
    return {"tournament": day.slug, "series": table.series.number, "table": table.number}


def _next_game(day, venue) -> str:
    """The game a desk row fills at the venue's first table (the form says it)."""
    table = Table.objects.filter(series__tournament=day, venue__name=venue).order_by("number")[0]
    return str(table.games.count() + 1)


from tournaments.models import Table  # noqa: E402

LEAGUE_WRITES = [
    # (name, url name, url kwargs(day, teams), POST data(day, teams, club), owners)
    (
        "season settings",
        "manage:season_settings",
        lambda d, t: {"season": "liga-2026-27"},
        lambda d, t, c: {"team_size": "4", "substitutes": "2", "min_series": "3"},
        {"league_director"},
    ),
    (
        "new match day",
        "manage:match_day_new",
        lambda d, t: {"season": "liga-2026-27"},
        lambda d, t, c: {"name": "2. Spieltag", "date": "2026-10-17", "club": c.pk},
        {"league_director"},
    ),
    (
        "new team of Altenburg",
        "manage:team_new",
        lambda d, t: {"season": "liga-2026-27"},
        lambda d, t, c: {"name": "Altenburg III", "club": c.pk},
        {"secretary"},
    ),
    (
        "add to Altenburg I's roster",
        "manage:team",
        lambda d, t: {"team": t["Altenburg I"].pk},
        lambda d, t, c: {"player": c.players.create(name="Neu").pk, "substitute": "on"},
        {"secretary"},
    ),
    (
        "remove from Zeitz I's roster",
        "manage:roster_remove",
        lambda d, t: {"team": t["Zeitz I"].pk, "pk": t["Zeitz I"].roster.get(substitute=True).pk},
        lambda d, t, c: {},
        {"zeitz_secretary"},
    ),
    (
        "a substitute plays for Altenburg I",
        "manage:substitute",
        lambda d, t: {"team": t["Altenburg I"].pk},
        lambda d, t, c: {
            "match_day": d["next"].pk,
            "out": t["Altenburg I"].roster.filter(substitute=False).first().player_id,
            "replacement": t["Altenburg I"].roster.get(substitute=True).player_id,
        },
        {"secretary"},
    ),
    (
        "new venue",
        "manage:venue_new",
        lambda d, t: {"tournament": "liga-2-tag"},
        lambda d, t, c: {
            f"v{d['next'].pk}-name": "Gera",
            f"v{d['next'].pk}-teams": [t["Zeitz I"].pk],
        },
        {"league_director"},
    ),
    (
        "draw the match day",
        "manage:series_draw",
        lambda d, t: {"tournament": "liga-2-tag"},
        lambda d, t, c: {"method": "random", "keep_apart": "team"},
        {"league_director"},
    ),
    (
        "enter a game at Altenburg",
        "manage:sheet",
        lambda d, t: _sheet(d["played"], "Altenburg"),
        lambda d, t, c: {
            "declarer": "2",
            "game": "grand",
            "matadors": "2",
            "card_points": "78",
            "bid": "20",
            "number": _next_game(d["played"], "Altenburg"),
        },
        {"venue_secretary", "league_director"},
    ),
    (
        "enter a game at Zeitz",
        "manage:sheet",
        lambda d, t: _sheet(d["played"], "Zeitz"),
        lambda d, t, c: {
            "declarer": "2",
            "game": "grand",
            "matadors": "2",
            "card_points": "78",
            "bid": "20",
            "number": _next_game(d["played"], "Zeitz"),
        },
        {"venue_secretary_2", "league_director"},
    ),
    (
        "confirm the match day",
        "manage:match_day_confirm",
        lambda d, t: {"tournament": d["closed"].slug},
        lambda d, t, c: {"confirmed": "1"},
        {"league_director"},
    ),
]


@pytest.fixture
def league_days(match_day, league_season, teams, club):
    """`played`: the match day drawn (sheets open); `closed`: another one played and closed;
    `next`: a third one, not drawn, with one venue (Altenburg I and Zeitz II) so far."""
    import datetime

    from tests.tournaments.leagues.helpers import play_series
    from tournaments.draw.services import series_draw
    from tournaments.leagues.services import match_day_create, venue_create

    series_draw(tournament=match_day, seed=3)
    closed = match_day_create(
        season=league_season,
        name="Spieltag B",
        date=datetime.date(2026, 9, 26),
        slug="liga-b",
        published=True,
        games_per_series_4=4,
        games_per_series_3=3,
    )
    venue_create(tournament=closed, name="Halle", teams=list(teams.values()))
    play_series(closed)
    following = match_day_create(
        season=league_season,
        name="2. Tag",
        date=datetime.date(2026, 10, 3),
        slug="liga-2-tag",
        published=True,
    )
    venue_create(
        tournament=following, name="Altenburg", teams=[teams["Altenburg I"], teams["Zeitz II"]]
    )
    return {"played": match_day, "closed": closed, "next": following}


@pytest.mark.parametrize("write", LEAGUE_WRITES, ids=[w[0] for w in LEAGUE_WRITES])
def test_each_league_write_is_allowed_exactly_to_whom_it_belongs(
    write, request, client_for, league_days, teams, club
):
    _name, url_name, url_kwargs, data, owners = write
    url = reverse(url_name, kwargs=url_kwargs(league_days, teams))
    payload = data(league_days, teams, club)
    for who in LEAGUE_CAST:
        if who in owners:
            continue
        before = _league_state()
        response = client_for(request.getfixturevalue(who)).post(url, payload)
        if who == "anonymous":
            assert response.status_code == 302 and response["Location"].startswith(
                reverse("login")
            ), who
        else:
            assert response.status_code == 403, (who, url)
        assert _league_state() == before, who
    for who in sorted(owners):
        before = _league_state()
        payload = data(league_days, teams, club)  # (a sheet row: the next game each time)
        response = client_for(request.getfixturevalue(who)).post(url, payload)
        assert response.status_code == 302, (who, url, response.content[:3000])
        assert _league_state() != before, (who, url)
        break  # one owner changes it; the second would repeat the same write


def test_a_venue_secretary_writing_another_venues_table_is_told_why(
    client_for, venue_secretary, league_days, settings
):
    settings.DEBUG = False
    url = reverse("manage:sheet", kwargs=_sheet(league_days["played"], "Zeitz"))
    response = client_for(venue_secretary).post(url, {"declarer": "2", "game": "grand"})
    assert response.status_code == 403
    assert "Only the secretary of this table" in response.content.decode()


def test_nothing_changes_in_a_closed_season(client_for, league_director, league_days):
    from tournaments.models import Season

    Season.objects.filter(slug="liga-2026-27").update(status="closed")
    url = reverse("manage:sheet", kwargs=_sheet(league_days["played"], "Altenburg"))
    before = _league_state()
    response = client_for(league_director).post(
        url, {"declarer": "2", "game": "grand", "matadors": "2", "card_points": "78", "bid": "20"}
    )
    assert response.status_code == 403
    assert "is closed" in response.content.decode()
    assert _league_state() == before


LEAGUE_PAGES = [
    # (url name, url kwargs(days, teams), roles that may open it)
    ("manage:leagues", lambda d, t: {}, set(LEAGUE_CAST) - {"anonymous"}),
    (
        "manage:league_season",
        lambda d, t: {"season": "liga-2026-27"},
        {"league_director", "secretary", "zeitz_secretary"},
    ),
    ("manage:team", lambda d, t: {"team": t["Zeitz II"].pk}, {"zeitz_secretary"}),
    (
        "manage:venue",
        lambda d, t: {
            "tournament": d["played"].slug,
            "venue": d["played"].venues.get(name="Zeitz").pk,
        },
        {"venue_secretary_2", "league_director"},
    ),
    ("manage:tournament", lambda d, t: {"tournament": d["played"].slug}, {"league_director"}),
]


@pytest.mark.parametrize("page", LEAGUE_PAGES, ids=[p[0] for p in LEAGUE_PAGES])
def test_each_league_page_opens_exactly_for_whom_it_belongs(
    page, request, client_for, league_days, teams
):
    url_name, url_kwargs, readers = page
    url = reverse(url_name, kwargs=url_kwargs(league_days, teams))
    for who in LEAGUE_CAST:
        response = client_for(request.getfixturevalue(who)).get(url)
        if who in readers:
            assert response.status_code == 200, (who, url)
        elif who == "anonymous":
            assert response.status_code == 302, (who, url)
        else:
            assert response.status_code == 403, (who, url)
