"""Issue 14 on the sheet: penalties charged at a game's value, ramsch variants, tables of 5.

The engine's tables (`tests/scoring/test_variants.py`) quote the source lines; these tests
check that the services record them, keep them in step with corrections and refuse what
the laws do not allow, changing nothing.
"""

import pytest
from django.db import IntegrityError, transaction

from tests.factories import TournamentFactory
from tournaments.errors import UserError
from tournaments.games import scores_recompute
from tournaments.models import Penalty, RamschRule, Seat, Table
from tournaments.registry.services import tournament_update
from tournaments.sheets.forms import GameRowForm
from tournaments.sheets.selectors import table_seat_totals
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    penalty_delete,
    penalty_law_record,
)

# Seat 2 declares game 1 at a 3-table (seat 1 deals, nobody sits out).
TOURNEE = {"declarer": 2, "game": "tournee", "trump": "hearts", "matadors": 2, "card_points": 75}
# rules §3.2: hearts tournée 6 × (2 + 1) = 18.
OVERBID_SOLO = {  # hearts solo with 1: 10 × 2 = 20 < bid 40 → charged 40 (law 15)
    "declarer": 2,
    "game": "solo",
    "trump": "hearts",
    "matadors": 1,
    "card_points": 70,
    "bid": 40,
}


@pytest.fixture
def na_table(na_tournament, seated_series):
    return seated_series(3, target=na_tournament).tables.get()


def totals(table):
    return {line.seat: line.game_points for line in table_seat_totals(table)}


def test_law_7_charges_the_erring_opponent_the_games_value(na_table):
    game_record(table=na_table, data=TOURNEE)
    (penalty,) = penalty_law_record(table=na_table, number=1, seat=3, law=7)
    assert (penalty.seat, penalty.points, penalty.law, penalty.game.number) == (3, -18, 7, 1)
    assert penalty.reason.startswith("law 7")
    assert totals(na_table) == {1: 0, 2: 18, 3: -18}


def test_law_8_charges_the_opponent_and_credits_the_overbid_declarer(na_table):
    # Law 8: "he wins the value of the game which he has bid and the same value shall be
    # charged against the opponent making such error".
    game = game_record(table=na_table, data=OVERBID_SOLO)
    assert (game.overbid, game.score) == (True, -40)
    charge, credit = penalty_law_record(table=na_table, number=1, seat=1, law=8)
    assert [(charge.seat, charge.points), (credit.seat, credit.points)] == [(1, -40), (2, 80)]
    assert totals(na_table) == {1: -40, 2: 40, 3: 0}
    # One penalty: deleting either row removes both.
    penalty_delete(penalty=credit, reason="typed at the wrong table")
    assert not Penalty.objects.exists()
    assert na_table.penalty_changes.filter(action="deleted").count() == 2


def test_a_corrected_game_takes_its_penalty_along(na_table):
    game = game_record(table=na_table, data=TOURNEE)
    penalty_law_record(table=na_table, number=1, seat=3, law=7)
    game_correct(game=game, data={**TOURNEE, "matadors": 3})  # 6 × 4 = 24
    assert Penalty.objects.get().points == -24


def test_a_correction_the_penalty_does_not_allow_is_refused(na_table):
    game = game_record(table=na_table, data=TOURNEE)
    penalty_law_record(table=na_table, number=1, seat=3, law=7)
    with pytest.raises(UserError, match="Delete the penalty first"):
        game_correct(game=game, data={**TOURNEE, "card_points": 40})  # now lost
    game.refresh_from_db()
    assert (game.card_points, Penalty.objects.get().points) == (75, -18)


def test_recompute_scores_rebuilds_the_penalties_at_a_games_value(na_table):
    game_record(table=na_table, data=TOURNEE)
    penalty_law_record(table=na_table, number=1, seat=3, law=7)
    Penalty.objects.update(points=-1)  # as after a rules fix that changed the game's value
    scores_recompute(tournament=na_table.series.tournament)
    assert Penalty.objects.get().points == -18


def test_deleting_the_game_deletes_its_penalties(na_table):
    game = game_record(table=na_table, data=TOURNEE)
    penalty_law_record(table=na_table, number=1, seat=3, law=7)
    game_delete(game=game)
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(
    "number, seat, law, message",
    [
        (2, 3, 7, "Game 2 has not been entered."),
        (1, 2, 7, "law 7 charges the opponent, not the declarer"),
        (1, 3, 2, "law 2 charges the declarer, not the opponent"),
        (1, 2, 4, "in a tournee the declarer has the right to look at the skat"),
        (1, 3, 8, "law 8 applies to an overbid solo only"),
        (1, 4, 7, "Seat 4 does not exist at a table of 3."),
    ],
)
def test_penalty_laws_the_game_does_not_allow_are_refused(na_table, number, seat, law, message):
    game_record(table=na_table, data=TOURNEE)
    with pytest.raises(UserError) as caught:
        penalty_law_record(table=na_table, number=number, seat=seat, law=law)
    assert str(caught.value) == message
    assert not Penalty.objects.exists()


def test_a_law_is_charged_once_per_game(na_table):
    game_record(table=na_table, data=TOURNEE)
    penalty_law_record(table=na_table, number=1, seat=3, law=7)
    with pytest.raises(UserError, match="already carries a penalty under law 7"):
        penalty_law_record(table=na_table, number=1, seat=1, law=7)


def test_ispa_has_no_penalty_laws(table):
    game_record(table=table, data={"declarer": 2, "game": "grand", "matadors": 1, "won": True})
    with pytest.raises(UserError, match="North American laws"):
        penalty_law_record(table=table, number=1, seat=3, law=7)


def test_a_sitting_out_seat_may_only_err_under_law_4(na_tournament, seated_series):
    table = seated_series(4, target=na_tournament).tables.get()  # seat 1 deals game 1
    game_record(table=table, data=TOURNEE)
    with pytest.raises(UserError, match="law 7 charges the opponent, not the sitting out"):
        penalty_law_record(table=table, number=1, seat=1, law=7)
    (penalty,) = penalty_law_record(table=table, number=1, seat=1, law=4)
    assert penalty.points == -18


# --------------------------------------------------------------------------------------
# Ramsch variants
# --------------------------------------------------------------------------------------


def test_hoyles_ramsch_charges_the_player_with_most_points(na_table):
    tournament_update(tournament=na_table.series.tournament, ramsch_rule=RamschRule.HOYLE)
    # Hoyle: "If two players take no trick, the loss is 50 points."
    row = {"declarer": 3, "game": "ramsch", "ramsch": "most_points_two_no_trick"}
    assert game_record(table=na_table, data=row).score == -50
    # Under Hoyle a player without a trick is not the one scored.
    with pytest.raises(UserError, match="ramsch result"):
        game_record(table=na_table, data={**row, "ramsch": "no_trick"})


def test_switching_the_ramsch_rule_rescores_the_sheet(na_table):
    game = game_record(
        table=na_table, data={"declarer": 1, "game": "ramsch", "ramsch": "fewest_points"}
    )
    tournament_update(tournament=na_table.series.tournament, ramsch_rule=RamschRule.HOYLE)
    game.refresh_from_db()
    assert game.score == 10  # rules §3.5's fewest points stay 10 under Hoyle


def test_gewinner_ramsch_is_a_won_game_worth_23(tournament, seated_series):
    table = seated_series(3).tables.get()
    row = {"declarer": 3, "game": "ramsch", "ramsch": "fewest_points"}
    with pytest.raises(UserError):  # rules §1.6: no ramsch in ISPA unless switched on
        game_record(table=table, data=row)
    tournament_update(tournament=tournament, ramsch_rule=RamschRule.GEWINNER)
    game = game_record(table=table, data=row)
    # Wikipedia: "awarded 23 points, the score of a won Null. Additionally they are
    # awarded the won game": +50 list points (rules §2), nobody else scores.
    assert (game.score, game.is_won, game.list_declarer, game.list_others) == (23, True, 73, 0)
    line = {line.seat: line for line in table_seat_totals(table)}[3]
    assert (line.won, line.list_points) == (1, 73)


def test_the_row_form_offers_the_ramsch_rules_results(na_table):
    tournament = tournament_update(
        tournament=na_table.series.tournament, ramsch_rule=RamschRule.HOYLE
    )
    form = GameRowForm(table=na_table, tournament=tournament)
    assert [value for value, _label in form.fields["ramsch"].choices] == [
        "",
        "fewest_points",
        "most_points_one_no_trick",
        "most_points_two_no_trick",
    ]


@pytest.mark.parametrize(
    "rules, rule, message",
    [
        ("na", RamschRule.GEWINNER, "Gewinner-Ramsch is an ISPA house rule"),
        ("ispa", RamschRule.HOYLE, "Hoyle's ramsch and the league ramsch are North American"),
    ],
)
def test_a_ramsch_rule_of_the_other_rule_set_is_refused(club, rules, rule, message):
    tournament = TournamentFactory(club=club, rules=rules)
    with pytest.raises(UserError, match=message):
        tournament_update(tournament=tournament, ramsch_rule=rule)


# --------------------------------------------------------------------------------------
# Tables of five in the database
# --------------------------------------------------------------------------------------


def test_tables_of_five_only_in_north_american_tournaments(tournament):
    with pytest.raises(
        UserError, match=r"Tables of five are a North American rule \(rules §3\.6\)\."
    ):
        tournament_update(tournament=tournament, five_tables=True)


def test_the_database_refuses_a_sixth_seat(na_table):
    with transaction.atomic(), pytest.raises(IntegrityError):
        Table.objects.filter(pk=na_table.pk).update(size=6)
    seat = na_table.seats.first()
    with transaction.atomic(), pytest.raises(IntegrityError):
        Seat.objects.filter(pk=seat.pk).update(number=6, table_size=5)


def test_the_row_form_disables_both_seats_without_cards_at_a_five_table(club):
    tournament = TournamentFactory(club=club, rules="na", five_tables=True)
    from tests.factories import PlayerFactory, RegistrationFactory
    from tournaments.draw.services import series_draw

    for _n in range(5):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club))
    table = series_draw(tournament=tournament, seed=2).tables.get()
    assert table.size == 5
    html = str(GameRowForm(table=table, tournament=tournament, number=3)["declarer"])
    # Deal 3: seat 3 deals, seat (3 + 2) % 5 + 1 = 1 sits out too (rules §3.6).
    disabled = {
        option.split('value="')[1].split('"')[0]
        for option in html.split("<option")[1:]
        if "disabled" in option
    }
    assert disabled == {"1", "3"}


# --------------------------------------------------------------------------------------
# A tie for the fewest points in a ramsch
# --------------------------------------------------------------------------------------

TIE = {"declarer": 2, "game": "ramsch", "ramsch": "fewest_points", "ramsch_tie": 3}


def test_a_tie_is_refused_without_the_tie_option(na_table):
    with pytest.raises(UserError, match="unless the tournament's tie option is on|tie option"):
        game_record(table=na_table, data=TIE)


def test_with_the_tie_option_both_tied_players_win(na_table):
    # The NA option "a tie for fewest points (both win)": each scores rules §3.5's 10.
    tournament_update(tournament=na_table.series.tournament, ramsch_tie_both_win=True)
    game = game_record(table=na_table, data=TIE)
    assert (game.declarer, game.ramsch_tie, game.score) == (2, 3, 10)
    assert totals(na_table) == {1: 0, 2: 10, 3: 10}


def test_gewinner_ramsch_shares_a_tie(tournament, seated_series):
    # Wikipedia: "If two players achieve the same lowest score they will both be awarded the
    # 23 points and the won game."
    table = seated_series(3).tables.get()
    tournament_update(tournament=tournament, ramsch_rule=RamschRule.GEWINNER)
    game_record(table=table, data=TIE)
    lines = {line.seat: line for line in table_seat_totals(table)}
    assert [(lines[s].game_points, lines[s].won, lines[s].list_points) for s in (1, 2, 3)] == [
        (0, 0, 0),
        (23, 1, 73),
        (23, 1, 73),
    ]


@pytest.mark.parametrize(
    "row, message",
    [
        ({**TIE, "ramsch_tie": 2}, "The tied seat must be another seat."),
        ({**TIE, "ramsch_tie": 4}, "Seat 4 does not exist at a table of 3."),
        ({**TIE, "ramsch": "no_trick"}, "only the fewest points can be tied, not no_trick"),
        (
            {
                "declarer": 2,
                "game": "tournee",
                "trump": "hearts",
                "matadors": 1,
                "won": True,
                "ramsch_tie": 3,
            },
            "Only a ramsch can end in a tie.",
        ),
    ],
)
def test_impossible_ties_are_refused(na_table, row, message):
    tournament_update(tournament=na_table.series.tournament, ramsch_tie_both_win=True)
    with pytest.raises(UserError) as caught:
        game_record(table=na_table, data=row)
    assert str(caught.value) == message
    assert not na_table.games.exists()
