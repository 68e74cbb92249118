"""Every service: the happy path, the user's mistakes, and that a failure writes nothing."""

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tournaments.draw.services import seat_swap, series_delete, series_draw, series_redraw
from tournaments.errors import UserError
from tournaments.games import scores_recompute
from tournaments.models import Game, GameChange, Penalty, Player, Seat, Series, Tournament
from tournaments.money.services import payment_record
from tournaments.registry.services import (
    club_create,
    player_create,
    players_import,
    registration_add,
    registration_remove,
    season_create,
    tournament_create,
    tournament_set_status,
    tournament_update,
)
from tournaments.sheets.selectors import table_seat_totals
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    penalty_record,
    table_close,
)
from tournaments.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db

GRAND = {"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78, "bid": 20}


@pytest.fixture
def table(seated_series):
    return seated_series(4).tables.get()


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


class TestSeriesDraw:
    def test_draw_seats_everyone_once_in_tables_of_4_and_3(self, tournament, roster):
        for p in roster(11):
            RegistrationFactory(tournament=tournament, player=p)
        series = series_draw(tournament=tournament, seed=7)
        sizes = sorted(series.tables.values_list("size", flat=True))
        assert sizes == [3, 4, 4]  # rules §4: (−11 mod 4) = 1 three-table
        assert Seat.objects.filter(series=series).values("player").distinct().count() == 11

    def test_same_seed_same_draw(self, tournament, roster):
        for p in roster(16):
            RegistrationFactory(tournament=tournament, player=p)
        first = series_draw(tournament=tournament, seed=42)
        seats = list(first.seats.order_by("table__number", "number").values_list("player_id"))
        series_delete(series=first)
        again = series_draw(tournament=tournament, seed=42)
        assert (
            list(again.seats.order_by("table__number", "number").values_list("player_id")) == seats
        )

    def test_five_players_cannot_be_split(self, tournament, roster):
        for p in roster(5):
            RegistrationFactory(tournament=tournament, player=p)
        with pytest.raises(UserError, match="5 players cannot be split"):
            series_draw(tournament=tournament, seed=1)
        assert not Series.objects.exists()

    def test_redraw_only_before_the_first_game(self, table):
        series = table.series
        series_redraw(series=series, seed=99)
        series.refresh_from_db()
        assert series.draw_seed == 99
        game_record(table=series.tables.get(), data=GRAND)
        with pytest.raises(UserError, match="redrawn"):
            series_redraw(series=series, seed=5)

    def play_one_game_per_table(self, tournament, series, matadors_by_table):
        """Each table plays a one-game series, won by seat 2 with `matadors` (then closed)."""
        winners = []
        for table in series.tables.order_by("number"):
            matadors = matadors_by_table[table.number]
            data = {**GRAND, "matadors": matadors}
            game_record(table=table, data=data)
            table_close(table=table)
            winners.append(table.seats.get(number=2).player_id)
        return winners

    def test_second_series_seeded_by_the_standings(self, tournament, roster):
        for p in roster(16):
            RegistrationFactory(tournament=tournament, player=p)
        tournament_update(tournament=tournament, games_per_series_4=1)
        first = series_draw(tournament=tournament, seed=3)
        # Four distinct winners: grand with 4, 3, 2, 1 ranks them in that order.
        winners = self.play_one_game_per_table(tournament, first, {1: 4, 2: 3, 3: 2, 4: 1})
        second = series_draw(tournament=tournament, method="standings", seed=4)
        assert second.number == 2
        # Rules §4 / draw.py: the best four players sit at table 1. They have never met,
        # so keeping apart has no reason to move any of them.
        top = set(second.tables.get(number=1).seats.values_list("player_id", flat=True))
        assert top == set(winners)

    def test_a_seeded_draw_needs_every_earlier_sheet_closed(self, tournament, roster):
        for p in roster(8):
            RegistrationFactory(tournament=tournament, player=p)
        tournament_update(tournament=tournament, games_per_series_4=1)
        first = series_draw(tournament=tournament, seed=3)
        table = first.tables.get(number=1)
        game_record(table=table, data=GRAND)
        table_close(table=table)
        with pytest.raises(UserError, match="table 2 of series 1 is still open"):
            series_draw(tournament=tournament, method="standings", seed=4)
        assert Series.objects.count() == 1
        # A random draw does not depend on the standings.
        assert series_draw(tournament=tournament, seed=4).number == 2

    def test_players_without_a_result_are_seeded_in_name_order(self, tournament, club):
        # Created in reverse name order, so ids and names disagree; nobody has a result yet.
        names = ["Hanna", "Gerd", "Fritz", "Emil", "Dora", "Carl", "Berta", "Anna"]
        for name in names:
            RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
        series = series_draw(tournament=tournament, method="standings", seed=4, keep_apart="none")
        tables = {
            t.number: {s.player.name for s in t.seats.select_related("player")}
            for t in series.tables.all()
        }
        assert tables == {
            1: {"Anna", "Berta", "Carl", "Dora"},
            2: {"Emil", "Fritz", "Gerd", "Hanna"},
        }

    def test_the_draw_remembers_who_it_kept_apart(self, tournament, roster):
        for p in roster(8):
            RegistrationFactory(tournament=tournament, player=p)
        series = series_draw(tournament=tournament, seed=3, keep_apart="club")
        assert series.keep_apart == "club"
        seats = list(series.seats.order_by("table__number", "number").values_list("player_id"))
        series_redraw(series=series, seed=8)
        series_redraw(series=series, seed=3)  # keep_apart as it was drawn
        series.refresh_from_db()
        assert series.keep_apart == "club"
        assert (
            list(series.seats.order_by("table__number", "number").values_list("player_id"))
            == seats
        )

    def test_an_unknown_keep_apart_is_refused(self, tournament, roster):
        for p in roster(4):
            RegistrationFactory(tournament=tournament, player=p)
        with pytest.raises(UserError, match="keeps apart"):
            series_draw(tournament=tournament, seed=3, keep_apart="family")
        assert not Series.objects.exists()

    def test_swap_two_seats_before_the_start(self, table):
        a, b = table.seats.get(number=1), table.seats.get(number=3)
        seat_swap(seat_a=a, seat_b=b)
        assert table.seats.get(number=1).player_id == b.player_id
        assert table.seats.get(number=3).player_id == a.player_id
        game_record(table=table, data=GRAND)
        with pytest.raises(UserError, match="started"):
            seat_swap(seat_a=a, seat_b=b)


class TestTournamentSettings:
    def test_changing_the_bonus_recomputes_the_stored_list_points(self, table):
        game_record(table=table, data=GRAND)
        tournament_update(tournament=table.series.tournament, bonus_won=60)
        assert Game.objects.get().list_declarer == 72 + 60

    def test_rules_cannot_change_once_games_exist(self, table):
        game_record(table=table, data=GRAND)
        with pytest.raises(UserError, match="rule set"):
            tournament_update(tournament=table.series.tournament, rules="na")

    def test_the_series_cannot_be_shorter_than_a_sheet(self, table):
        tournament = table.series.tournament
        for declarer in (2, 3, 4):
            game_record(table=table, data={**GRAND, "declarer": declarer})
        with pytest.raises(UserError, match="Table 1 of series 1 already holds 3 games"):
            tournament_update(tournament=tournament, games_per_series_4=2)
        tournament.refresh_from_db()
        assert tournament.games_per_series_4 == 48
        # Three games fit; the 3-table length is not limited by a 4-table's sheet.
        tournament_update(tournament=tournament, games_per_series_4=3)
        tournament_update(tournament=tournament, games_per_series_3=1)
        table_close(table=table)

    def test_the_settings_page_names_the_longest_sheet(self, table, client_for, secretary):
        from django.urls import reverse

        from tournaments.registry.forms import TournamentForm

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

    def test_finish_needs_closed_series(self, table):
        with pytest.raises(UserError, match="Close every series"):
            tournament_set_status(
                tournament=table.series.tournament, status=Tournament.Status.FINISHED
            )


class TestRegistrations:
    def test_a_seated_player_cannot_be_unregistered(self, table):
        registration = table.series.tournament.registrations.first()
        with pytest.raises(UserError, match="seated"):
            registration_remove(registration=registration)

    def test_register_twice_adds_once(self, tournament, club):
        p = PlayerFactory(club=club)
        assert registration_add(tournament=tournament, players=[p]) == 1
        assert registration_add(tournament=tournament, players=[p]) == 0

    def test_player_name_is_required(self, club):
        with pytest.raises(UserError):
            player_create(name="  ", club=club)


def test_penalty_adds_to_game_points(seated_series, na_tournament):
    table = seated_series(3, target=na_tournament).tables.get()
    penalty_record(table=table, seat=2, points=-10, reason="misdeal")
    line = {t.seat: t for t in table_seat_totals(table)}[2]
    assert (line.game_points, line.list_points) == (-10, -10)
    with pytest.raises(UserError):
        penalty_record(table=table, seat=4, points=-10)
    assert Penalty.objects.count() == 1


def test_recompute_rebuilds_tampered_values(table):
    game_record(table=table, data=GRAND)
    Game.objects.update(value=1, score=1, list_declarer=1)
    assert scores_recompute() == 1
    game = Game.objects.get()
    assert (game.value, game.score, game.list_declarer) == (72, 72, 122)


def test_a_player_with_payments_cannot_be_unregistered(tournament, club):
    from decimal import Decimal

    registration = RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club))
    payment_record(registration=registration, kind="fees", amount=Decimal("10.00"))
    with pytest.raises(UserError, match="payments"):
        registration_remove(registration=registration)
    assert registration.payments.count() == 1


class TestControlCharacters:
    @pytest.mark.parametrize("name", ["Anna\x00Neu", "Anna\x1bNeu"])
    def test_a_player_name_with_a_control_character_is_refused(self, club, name):
        with pytest.raises(UserError, match="control character"):
            player_create(name=name, club=club)
        assert not Player.objects.filter(club=club).exists()

    def test_a_club_tournament_and_season_name_too(self, club):
        import datetime

        with pytest.raises(UserError, match="control character"):
            club_create(name="Club\x00")
        with pytest.raises(UserError, match="control character"):
            season_create(club=club, name="Liga\x00")
        with pytest.raises(UserError, match="control character"):
            tournament_create(club=club, name="T\x00", date=datetime.date(2026, 1, 1))
        with pytest.raises(UserError, match="control character"):
            player_create(name="Anna", club=club, team="Team\x00")

    def test_a_player_import_row_with_a_nul_is_refused(self, tournament):
        with pytest.raises(UserError, match="control character"):
            players_import(tournament=tournament, rows=[{"name": "A\x00"}])
        assert not Player.objects.filter(name__startswith="A").exists()


class TestSeatsWithinTheTable:
    """The database itself refuses a seat outside the table (seat 4 at a 3-table)."""

    @pytest.fixture
    def three_table(self, seated_series):
        return seated_series(3).tables.get()

    def test_the_services_copy_the_table_size(self, three_table):
        game = game_record(table=three_table, data={**GRAND, "declarer": 3})
        penalty = penalty_record(table=three_table, seat=3, points=-10)
        sizes = {s.table_size for s in three_table.seats.all()}
        assert (game.table_size, penalty.table_size, sizes) == (3, 3, {3})

    def test_seat_4_at_a_3_table_is_refused(self, three_table):
        from django.db import IntegrityError, transaction

        seat = three_table.seats.get(number=3)
        with pytest.raises(IntegrityError), transaction.atomic():
            Seat.objects.filter(pk=seat.pk).update(number=4)
        with pytest.raises(IntegrityError), transaction.atomic():
            Penalty.objects.create(table=three_table, table_size=3, seat=4, points=-10)
        game = game_record(table=three_table, data={**GRAND, "declarer": 3})
        with pytest.raises(IntegrityError), transaction.atomic():
            Game.objects.filter(pk=game.pk).update(declarer=4)
        # A size that is no table size is refused too.
        with pytest.raises(IntegrityError), transaction.atomic():
            Seat.objects.filter(pk=seat.pk).update(table_size=5)


def test_a_penalty_reason_with_a_control_character_is_refused(table):
    # The interchange import refuses it, so it must not get in: export → import round-trips.
    with pytest.raises(UserError, match="control character"):
        penalty_record(table=table, seat=1, points=-10, reason="misdeal\x01")
    assert not Penalty.objects.exists()
