"""Recording, correcting and deleting games, penalties and closing a table's sheet.

The happy path, the user's mistakes, and that a failure writes nothing; a penalty out of
range (in the service and in the database) and any change to a closed sheet until it is
reopened are refused.
"""

import pytest
from django.db import IntegrityError, transaction

from tests.tournaments.helpers import GRAND, WORKED_EXAMPLE, enter, sheet_rows
from tournaments.errors import UserError
from tournaments.models import Game, GameChange, Penalty, Series, Tournament
from tournaments.sheets.selectors import table_seat_totals
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    penalty_delete,
    penalty_record,
    table_close,
    table_reopen,
)
from tournaments.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db


class TestGameRecord:
    def test_stores_the_engines_values(self, table, secretary):
        game = game_record(table=table, data=GRAND, user=secretary)
        # rules §1.3: with 2, game 3 → 3 × 24 = 72; won (78 > 60); list +50 (rules §2).
        assert (game.number, game.value, game.score, game.is_won) == (1, 72, 72, True)
        assert (game.list_declarer, game.list_others) == (122, 0)
        change = GameChange.objects.get()
        assert change.action == "created" and change.user == secretary

    def test_north_american_bid_above_every_game_is_refused(self, na_tournament, seated_series):
        table = seated_series(3, target=na_tournament).tables.get()
        solo = {"declarer": 2, "game": "solo", "trump": "clubs", "matadors": 1, "won": True}
        # rules §3.2: grand ouvert with 4 is the highest NA game, (4 + 5) × 24 = 216; a higher
        # bid on a sheet is a typing mistake (the column would not hold 40,000 anyway).
        with pytest.raises(UserError, match="worth more than 216") as refused:
            game_record(table=table, data={**solo, "bid": 40000})
        assert refused.value.field == "bid" and not Game.objects.exists()
        # rules §3.4: 216 itself is a bid; a clubs solo with 1 (2 × 12) is then overbid.
        game = game_record(table=table, data={**solo, "bid": 216})
        assert (game.value, game.score, game.overbid) == (216, -216, True)

    def test_lost_game_gives_the_others_30_at_a_4_table(self, table):
        game = game_record(
            table=table,
            data={
                "declarer": 3,
                "game": "diamonds",
                "matadors": 2,
                "without": True,
                "card_points": 50,
            },
        )  # scoring-contract example: 27 → −54, list −104, others +30
        assert (game.value, game.score, game.list_declarer, game.list_others) == (
            27,
            -54,
            -104,
            30,
        )
        assert game.is_lost

    def test_the_dealer_cannot_declare_at_a_4_table(self, table):
        with pytest.raises(UserError, match="deals game 1 and sits out"):
            game_record(table=table, data={**GRAND, "declarer": 1})
        assert not Game.objects.exists() and not GameChange.objects.exists()

    def test_the_deal_rotates(self, table):
        game_record(table=table, data=GRAND)
        with pytest.raises(UserError, match="deals game 2"):
            game_record(table=table, data=GRAND)
        assert game_record(table=table, data={**GRAND, "declarer": 3}).number == 2

    def test_invalid_game_is_rejected_with_the_engines_reason(self, table):
        with pytest.raises(UserError, match="matadors must be between 1 and 11"):
            game_record(
                table=table, data={"declarer": 2, "game": "clubs", "matadors": 12, "won": True}
            )
        assert not Game.objects.exists()

    def test_passed_in_deal_uses_a_row_and_scores_nothing(self, table):
        game = game_record(table=table, data={"game": "passed"})
        assert (game.declarer, game.score, game.is_won, game.is_lost) == (None, 0, False, False)

    def test_kontra_needs_the_house_rule(self, table):
        with pytest.raises(UserError, match="Kontra"):
            game_record(table=table, data={**GRAND, "kontra": True})
        Tournament.objects.update(kontra_allowed=True)
        table.refresh_from_db()
        game = game_record(table=table, data={**GRAND, "kontra": True})
        # rules §1.7: Kontra doubles the score, not the ±50.
        assert (game.value, game.score, game.list_declarer) == (72, 144, 194)

    def test_a_full_sheet_takes_no_more_games(self, table):
        Tournament.objects.update(games_per_series_4=2)
        table.refresh_from_db()
        game_record(table=table, data=GRAND)
        game_record(table=table, data={"game": "passed"})
        with pytest.raises(UserError, match="complete"):
            game_record(table=table, data={"game": "passed"})

    def test_a_closed_series_takes_no_games(self, table):
        Series.objects.update(status=Series.Status.CLOSED)
        with pytest.raises(UserError, match="closed"):
            game_record(table=table, data=GRAND)

    def test_list_scoring_off_gives_plain_game_points(self, table):
        Tournament.objects.update(list_scoring=False)
        table.refresh_from_db()
        game = game_record(table=table, data=GRAND)
        assert (game.list_declarer, game.list_others) == (72, 0)

    def test_first_game_starts_the_series_and_the_tournament(self, table):
        game_record(table=table, data=GRAND)
        assert Series.objects.get().started
        assert Tournament.objects.get().status == Tournament.Status.RUNNING


class TestGameCorrect:
    def test_correction_is_kept_with_who_and_what(self, table, secretary):
        game = game_record(table=table, data=GRAND)
        corrected = game_correct(
            game=game,
            data={**GRAND, "matadors": 3},
            user=secretary,
            reason="typo",
        )
        assert corrected.value == 96  # with 3, game 4 × 24
        change = GameChange.objects.get(action="corrected")
        assert change.user == secretary and change.reason == "typo"
        assert change.diff["matadors"] == [2, 3] and change.diff["value"] == [72, 96]

    def test_correction_moves_the_standings_at_once(self, table):
        game = game_record(table=table, data=GRAND)
        before = {
            r.player_name: r.list_points for r in tournament_standings(table.series.tournament)
        }
        game_correct(game=game, data={**GRAND, "card_points": 40})
        after = {
            r.player_name: r.list_points for r in tournament_standings(table.series.tournament)
        }
        declarer = table.seats.get(number=2).player.name
        assert before[declarer] == 122 and after[declarer] == -144 - 50

    def test_a_bad_correction_changes_nothing(self, table):
        game = game_record(table=table, data=GRAND)
        with pytest.raises(UserError):
            game_correct(game=game, data={**GRAND, "card_points": 121})
        game.refresh_from_db()
        assert game.card_points == 78 and GameChange.objects.count() == 1

    def test_unchanged_correction_writes_no_history(self, table):
        game = game_record(table=table, data=GRAND)
        game_correct(game=game, data=dict(GRAND))
        assert GameChange.objects.count() == 1


class TestGameDelete:
    def test_only_the_last_row_can_go(self, table):
        first = game_record(table=table, data=GRAND)
        game_record(table=table, data={"game": "passed"})
        with pytest.raises(UserError, match="last game"):
            game_delete(game=first)
        last = Game.objects.get(number=2)
        game_delete(game=last)
        assert list(Game.objects.values_list("number", flat=True)) == [1]
        assert GameChange.objects.filter(action="deleted", game_number=2).exists()


class TestTableClose:
    def _fill(self, table):
        Tournament.objects.update(games_per_series_4=48)
        enter(table, sheet_rows(WORKED_EXAMPLE, 4))

    def test_needs_the_whole_series(self, table):
        game_record(table=table, data=GRAND)
        with pytest.raises(UserError, match="1 of 48 games"):
            table_close(table=table)
        table.refresh_from_db()
        assert not table.closed

    def test_paper_totals_that_agree_close_the_sheet(self, table):
        self._fill(table)
        differences = table_close(table=table, paper_totals={1: 1332, 2: 1308, 3: 1320, 4: 108})
        table.refresh_from_db()
        assert differences == [] and table.closed

    def test_every_difference_is_flagged_and_the_sheet_stays_open(self, table):
        self._fill(table)
        differences = table_close(table=table, paper_totals={1: 1332, 2: 1380, 3: 1320, 4: 100})
        assert [(d.seat, d.paper, d.computed) for d in differences] == [
            (2, 1380, 1308),
            (4, 100, 108),
        ]
        table.refresh_from_db()
        assert not table.closed
        table_close(table=table, paper_totals={2: 1380, 4: 100}, accept_differences=True)
        table.refresh_from_db()
        assert table.closed


def test_penalty_adds_to_game_points(seated_series, na_tournament):
    table = seated_series(3, target=na_tournament).tables.get()
    penalty_record(table=table, seat=2, points=-10, reason="misdeal")
    line = {t.seat: t for t in table_seat_totals(table)}[2]
    assert (line.game_points, line.list_points) == (-10, -10)
    with pytest.raises(UserError):
        penalty_record(table=table, seat=4, points=-10)
    assert Penalty.objects.count() == 1


def test_a_penalty_reason_with_a_control_character_is_refused(table):
    # The interchange import refuses it, so it must not get in: export → import round-trips.
    with pytest.raises(UserError, match="control character"):
        penalty_record(table=table, seat=1, points=-10, reason="misdeal\x01")
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("points", [10**22, 3_000_000_000, 1001, -1001])
def test_the_penalty_service_checks_the_range(table, points):
    with pytest.raises(UserError, match="1000"):
        penalty_record(table=table, seat=1, points=points)
    assert not Penalty.objects.exists()


def test_the_database_refuses_a_penalty_out_of_range(table):
    with pytest.raises(IntegrityError), transaction.atomic():
        Penalty.objects.create(table=table, seat=1, points=1001)


def test_a_penalty_at_the_limit_is_entered(table):
    assert penalty_record(table=table, seat=1, points=-1000).points == -1000


def test_the_services_refuse_a_closed_sheet(closed_table):
    game = closed_table.games.get(number=2)
    penalty = closed_table.penalties.get()
    calls = [
        lambda: game_delete(game=game),
        lambda: game_correct(game=game, data={"declarer": 3, "game": "null"}),
        lambda: penalty_record(table=closed_table, seat=1, points=-5),
        lambda: penalty_delete(penalty=penalty),
    ]
    for call in calls:
        with pytest.raises(UserError, match="reopen it"):
            call()
    table_reopen(table=closed_table)
    penalty_delete(penalty=penalty)
    game_delete(game=game)
    assert closed_table.games.count() == 1 and not closed_table.penalties.exists()
