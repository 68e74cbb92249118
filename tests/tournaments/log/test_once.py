"""A form sent twice is done once (issue 12, defect 2): the desk's sheet row carries the
game it fills, "Draw series" the series it draws, every other create-POST a once key; the
repeat is answered as a replay. Concurrency: 20 threads on PostgreSQL."""

import threading
import uuid

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.tournaments.entry.helpers import send
from tournaments.models import ActionLog, Game, Payment, Penalty, Player, Series

ROW = {"declarer": "1", "game": "grand", "matadors": "2", "card_points": "78", "bid": "20"}
PHONE_ROW = {"declarer": 1, "game": "grand", "matadors": 2, "card_points": 78, "bid": 20}


def sheet_url(tournament, table):
    return reverse(
        "manage:sheet",
        kwargs={
            "tournament": tournament.slug,
            "series": table.series.number,
            "table": table.number,
        },
    )


@pytest.mark.django_db
def test_the_same_sheet_row_posted_twice_is_stored_once_and_answered_as_a_replay(
    tournament, seated_series, client_for, secretary
):
    table = seated_series(3).tables.get()
    client = client_for(secretary)
    first = client.post(sheet_url(tournament, table), {**ROW, "number": "1"})
    assert first.status_code == 302
    again = client.post(sheet_url(tournament, table), {**ROW, "number": "1"}, follow=True)
    assert "sent twice and counts once" in again.content.decode()
    assert table.games.count() == 1


@pytest.mark.django_db
def test_the_rendered_sheet_form_carries_the_game_it_fills(
    tournament, seated_series, client_for, secretary
):
    table = seated_series(3).tables.get()
    page = client_for(secretary).get(sheet_url(tournament, table)).content.decode()
    assert 'name="number" value="1"' in page


@pytest.mark.django_db
def test_a_different_row_for_a_filled_game_is_refused_not_stored(
    tournament, seated_series, client_for, secretary
):
    table = seated_series(3).tables.get()
    client = client_for(secretary)
    client.post(sheet_url(tournament, table), {**ROW, "number": "1"})
    other = client.post(sheet_url(tournament, table), {**ROW, "card_points": "90", "number": "1"})
    assert "already on the sheet" in other.content.decode()
    assert table.games.count() == 1


@pytest.mark.django_db
def test_the_phone_and_the_desk_entering_the_same_game_store_it_once(
    tournament, seated_series, client_for, secretary, client
):
    table = seated_series(3).tables.get()
    assert send(client, table.entry_token, PHONE_ROW, number=1).status_code == 201
    desk = client_for(secretary)
    desk.post(sheet_url(tournament, table), {**ROW, "number": "1"})
    desk.post(sheet_url(tournament, table), {**ROW, "number": "1"})
    assert send(client, table.entry_token, PHONE_ROW, number=1).status_code == 409
    assert table.games.count() == 1


@pytest.mark.django_db
def test_draw_series_sent_twice_draws_one_series(tournament, roster, client_for, secretary):
    for player in roster(6):
        RegistrationFactory(tournament=tournament, player=player)
    client = client_for(secretary)
    url = reverse("manage:series_draw", kwargs={"tournament": tournament.slug})
    post = {"method": "random", "keep_apart": "team", "number": "1", "once": str(uuid.uuid4())}
    client.post(url, post)
    again = client.post(url, post, follow=True)
    assert "sent twice" in again.content.decode()
    assert Series.objects.filter(tournament=tournament).count() == 1
    assert ActionLog.objects.filter(kind=ActionLog.Kind.DRAW).count() == 1


@pytest.mark.django_db
def test_a_quick_add_sent_twice_creates_one_player(tournament, client_for, secretary):
    url = reverse("manage:registration_quick_add", kwargs={"tournament": tournament.slug})
    post = {"name": "Erika Muster", "once": str(uuid.uuid4())}
    client = client_for(secretary)
    client.post(url, post)
    client.post(url, post)
    assert Player.objects.filter(name="Erika Muster").count() == 1
    assert tournament.registrations.count() == 1


@pytest.mark.django_db
def test_a_penalty_sent_twice_is_entered_once(tournament, seated_series, client_for, secretary):
    table = seated_series(3).tables.get()
    url = reverse(
        "manage:sheet_penalty",
        kwargs={"tournament": tournament.slug, "series": 1, "table": table.number},
    )
    post = {"seat": "1", "points": "-10", "reason": "misdeal", "once": str(uuid.uuid4())}
    client = client_for(secretary)
    client.post(url, post)
    client.post(url, post)
    assert Penalty.objects.filter(table=table).count() == 1


@pytest.mark.django_db
def test_a_payment_sent_twice_is_booked_once(tournament, client_for, secretary):
    registration = RegistrationFactory(tournament=tournament, player=PlayerFactory())
    url = reverse(
        "manage:money_pay",
        kwargs={"tournament": tournament.slug, "registration": registration.pk},
    )
    post = {"kind": "fees", "amount": "10", "once": str(uuid.uuid4())}
    client = client_for(secretary)
    client.post(url, post)
    client.post(url, post)
    assert Payment.objects.filter(registration=registration).count() == 1


@pytest.mark.django_db
def test_a_registration_sent_twice_logs_once(tournament, club, client_for, secretary):
    player = PlayerFactory(club=club)
    url = reverse("manage:registration_add", kwargs={"tournament": tournament.slug})
    post = {"players": [str(player.pk)], "once": str(uuid.uuid4())}
    client = client_for(secretary)
    client.post(url, post)
    client.post(url, post)
    assert tournament.registrations.count() == 1
    assert ActionLog.objects.filter(kind=ActionLog.Kind.REGISTRATION_ADDED).count() == 1


ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def _hammer(requests):
    """Run the callables at once in threads; each closes its own connection."""
    barrier = threading.Barrier(len(requests))
    errors = []

    def run(request):
        try:
            barrier.wait()
            request()
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(r,)) for r in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


@pytest.mark.skipif(not ON_POSTGRES, reason="row locks and concurrency need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_row_posts_and_the_phone_store_one_game(club, roster):
    from django.test import Client

    from tournaments.draw.services import series_draw

    user = UserFactory()
    club.secretaries.add(user)
    tournament = TournamentFactory(club=club, slug="concurrent")
    for player in roster(3):
        RegistrationFactory(tournament=tournament, player=player)
    table = series_draw(tournament=tournament, seed=1).tables.get()
    url = sheet_url(tournament, table)

    def desk():
        client = Client()
        client.force_login(user)
        assert client.post(url, {**ROW, "number": "1"}).status_code == 302

    def phone():
        status = send(Client(), table.entry_token, PHONE_ROW, number=1).status_code
        assert status in (201, 409)

    _hammer([desk] * 20 + [phone] * 3)
    assert Game.objects.filter(table=table).count() == 1


@pytest.mark.skipif(not ON_POSTGRES, reason="row locks and concurrency need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_draws_and_payments_happen_once(club, roster):
    from django.test import Client

    user = UserFactory()
    club.secretaries.add(user)
    tournament = TournamentFactory(club=club, slug="concurrent-draw")
    registrations = [
        RegistrationFactory(tournament=tournament, player=player) for player in roster(6)
    ]
    draw = reverse("manage:series_draw", kwargs={"tournament": tournament.slug})
    draw_post = {
        "method": "random",
        "keep_apart": "team",
        "number": "1",
        "once": str(uuid.uuid4()),
    }
    pay = reverse(
        "manage:money_pay",
        kwargs={"tournament": tournament.slug, "registration": registrations[0].pk},
    )
    pay_post = {"kind": "fees", "amount": "5", "once": str(uuid.uuid4())}

    def post(url, data):
        def run():
            client = Client()
            client.force_login(user)
            assert client.post(url, data).status_code == 302

        return run

    _hammer([post(draw, draw_post)] * 20 + [post(pay, pay_post)] * 20)
    assert Series.objects.filter(tournament=tournament).count() == 1
    assert Payment.objects.filter(registration=registrations[0]).count() == 1


@pytest.mark.django_db
def test_a_new_tournament_season_or_club_player_sent_twice_is_created_once(
    club, client_for, secretary
):
    from tournaments.models import Season, Tournament

    client = client_for(secretary)
    new = reverse("manage:tournament_new", kwargs={"club": club.pk})
    form = client.get(new).content.decode()
    assert 'name="once"' in form
    post = {
        "name": "Neujahrsskat",
        "date": "2027-01-02",
        "rules": "ispa",
        "list_scoring": "on",
        "bonus_won": "50",
        "bonus_lost": "50",
        "bonus_others_3": "40",
        "bonus_others_4": "30",
        "games_per_series_3": "36",
        "games_per_series_4": "48",
        "once": str(uuid.uuid4()),
    }
    client.post(new, post)
    again = client.post(new, post, follow=True)
    assert "sent twice" in again.content.decode()
    assert Tournament.objects.filter(name="Neujahrsskat").count() == 1
    season = reverse("manage:season_new", kwargs={"club": club.pk})
    post = {"name": "Liga 2027", "once": str(uuid.uuid4())}
    client.post(season, post)
    client.post(season, post)
    assert Season.objects.filter(name="Liga 2027").count() == 1
    players = reverse("manage:club_players", kwargs={"club": club.pk})
    post = {"name": "Olga Neu", "once": str(uuid.uuid4())}
    client.post(players, post)
    client.post(players, post)
    assert Player.objects.filter(name="Olga Neu").count() == 1
