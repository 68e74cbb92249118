"""The draw by rating (`draw.engine` spread draw, `draw.services` with `rating`): the
ranking dealt round the tables in a serpentine, the strongest at different tables, swaps
for keeping apart only within a pot; the unrated last, by name; the form and the redraw."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.ratings.helpers import rated
from tournaments.draw import engine
from tournaments.draw.forms import DrawForm
from tournaments.draw.services import series_draw, series_redraw
from tournaments.models import Series
from tournaments.ratings.method import SHOWN_FROM


def table_of(tables, player):
    return next(number for number, table in enumerate(tables) if player in table)


def test_twelve_players_at_three_tables_the_top_three_apart_in_a_snake():
    entrants = [engine.Entrant(id=n) for n in range(1, 13)]
    ranking = list(range(1, 13))  # 1 the strongest
    tables = engine.draw(entrants, seed=5, ranking=ranking, keep_apart="none", spread=True)
    assert len({table_of(tables, top) for top in (1, 2, 3)}) == 3
    # Serpentine 1 2 3 3 2 1 1 2 3 3 2 1: nothing to keep apart, nobody moves.
    assert sorted(sorted(table) for table in tables) == [
        [1, 6, 7, 12],
        [2, 5, 8, 11],
        [3, 4, 9, 10],
    ]


def test_the_seeded_draw_still_puts_the_best_four_together():
    entrants = [engine.Entrant(id=n) for n in range(1, 13)]
    tables = engine.draw(entrants, seed=5, ranking=list(range(1, 13)), keep_apart="none")
    assert sorted(tables[0]) == [1, 2, 3, 4]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_keeping_apart_swaps_within_a_pot_and_the_strongest_stay_apart(seed):
    # 1 and 6 (one table by the snake) are team-mates, as are 2 and 5, and 3 and 4.
    teams = {1: "A", 6: "A", 2: "B", 5: "B", 3: "C", 4: "C"}
    entrants = [engine.Entrant(id=n, team=teams.get(n, "")) for n in range(1, 13)]
    tables = engine.draw(entrants, seed=seed, ranking=list(range(1, 13)), spread=True)
    assert len({table_of(tables, top) for top in (1, 2, 3)}) == 3
    assert engine.conflicts(tables, entrants) == []
    # Each table still has one player of each pot (ranks 1-3, 4-6, 7-9, 10-12).
    for table in tables:
        assert sorted((player - 1) // 3 for player in table) == [0, 1, 2, 3]


def test_eleven_players_the_three_table_keeps_one_per_pot():
    entrants = [engine.Entrant(id=n) for n in range(1, 12)]
    tables = engine.draw(
        entrants, seed=1, ranking=list(range(1, 12)), keep_apart="none", spread=True
    )
    assert sorted(len(table) for table in tables) == [3, 4, 4]
    assert len({table_of(tables, top) for top in (1, 2, 3)}) == 3
    # The snake over 4, 4, 3 seats: 1 2 3 | 6 5 4 | 7 8 9 | 11 10 (the 3-table is full).
    assert sorted(sorted(table) for table in tables) == [[1, 6, 7, 11], [2, 5, 8, 10], [3, 4, 9]]


@pytest.mark.django_db
def test_a_series_drawn_by_rating_seats_the_rated_apart_and_the_unrated_last(tournament, club):
    strongest = []
    for number in range(9):
        player = PlayerFactory(club=club, name=f"Rated {number}")
        rated(player, 1800 - 10 * number)
        strongest.append(player)
        RegistrationFactory(tournament=tournament, player=player)
    # Not rated yet (no rating, or fewer than the shown series): the last pot, A–Z.
    late = [PlayerFactory(club=club, name=name) for name in ("Zora", "Anton", "Maja")]
    rated(late[2], 2000, series=SHOWN_FROM - 1)
    for player in late:
        RegistrationFactory(tournament=tournament, player=player)
    series = series_draw(tournament=tournament, method=Series.DrawMethod.RATING, seed=9)
    assert series.draw_method == "rating"
    tables = [list(t.seats.values_list("player_id", flat=True)) for t in series.tables.all()]
    assert len({table_of(tables, p.pk) for p in strongest[:3]}) == 3
    # The snake's last pot: Anton, Maja, Zora to tables 3, 2, 1.
    assert [table_of(tables, p.pk) for p in (late[1], late[2], late[0])] == [2, 1, 0]
    # Drawing again keeps the method: the strongest stay apart.
    series_redraw(series=series, seed=10)
    tables = [list(t.seats.values_list("player_id", flat=True)) for t in series.tables.all()]
    assert len({table_of(tables, p.pk) for p in strongest[:3]}) == 3


@pytest.mark.django_db
def test_the_draw_form_offers_the_rating_with_its_rule(client_for, secretary, tournament, club):
    for _ in range(8):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club))
    client = client_for(secretary)
    page = client.get(reverse("manage:tournament", kwargs={"tournament": tournament.slug}))
    html = page.content.decode()
    assert 'value="rating"' in html and "1 2 3 3 2 1" in html
    client.post(
        reverse("manage:series_draw", kwargs={"tournament": tournament.slug}),
        {"method": "rating", "keep_apart": "none", "number": 1},
    )
    assert Series.objects.get(tournament=tournament).draw_method == "rating"


def test_the_method_and_its_rule_in_german():
    with translation.override("de"):
        assert str(Series.DrawMethod.RATING.label) == "nach Wertungszahl, die Stärksten getrennt"
        assert "Schlangenlinie" in str(DrawForm().fields["method"].help_text)


@pytest.mark.parametrize("fives", [False, True])
@pytest.mark.parametrize("count", [6, 7, 9, 11, 13, 14, 17, 23])
def test_every_split_seats_the_first_pot_apart_and_one_of_a_pot_per_table(count, fives):
    entrants = [engine.Entrant(id=n, club="Same" if n % 2 else "") for n in range(1, count + 1)]
    ranking = list(range(1, count + 1))
    tables = engine.draw(
        entrants, seed=count, ranking=ranking, keep_apart="club", spread=True, fives=fives
    )
    assert sorted(map(len, tables)) == sorted(engine.table_sizes(count, fives=fives))
    # The strongest, one per table, never meet, whatever keeping apart asked.
    assert len({table_of(tables, top) for top in range(1, len(tables) + 1)}) == len(tables)
    if not fives:
        # Tables of 4 and 3: the pots are the ranks T at a time, the fourth pot the rest.
        count_tables = len(tables)
        for table in tables:
            pots = [min((player - 1) // count_tables, 3) for player in table]
            assert len(pots) == len(set(pots))
