"""Clubs, players, seasons, tournaments and registrations: settings, status and names."""

import datetime

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import GRAND, complete_tournament
from tournaments.errors import UserError
from tournaments.models import (
    ActionLog,
    Game,
    GameChange,
    Payment,
    Penalty,
    PenaltyChange,
    Player,
    Registration,
    Seat,
    Series,
    SheetCopy,
    Table,
    Tournament,
)
from tournaments.money.services import payment_record
from tournaments.registry.services import (
    club_create,
    player_create,
    players_import,
    registration_add,
    registration_remove,
    registrations_restore,
    season_create,
    tournament_create,
    tournament_purge,
    tournament_set_status,
    tournament_update,
)
from tournaments.sheets.services import game_record, table_close

pytestmark = pytest.mark.django_db


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


class TestTournamentPurge:
    """An import's `--replace` deletes the tournament it replaces with `tournament_purge`."""

    def held(self, pk: int) -> dict[str, int]:
        """The rows of every kind that hangs on tournament `pk` (its cascade)."""
        by_table = {"table__series__tournament_id": pk}
        return {
            "registrations": Registration.objects.filter(tournament_id=pk).count(),
            "payments": Payment.objects.filter(registration__tournament_id=pk).count(),
            "series": Series.objects.filter(tournament_id=pk).count(),
            "tables": Table.objects.filter(series__tournament_id=pk).count(),
            "seats": Seat.objects.filter(**by_table).count(),
            "games": Game.objects.filter(**by_table).count(),
            "penalties": Penalty.objects.filter(**by_table).count(),
            "game changes": GameChange.objects.filter(**by_table).count(),
            "penalty changes": PenaltyChange.objects.filter(**by_table).count(),
            "second copies": SheetCopy.objects.filter(**by_table).count(),
            "log": ActionLog.objects.filter(tournament_id=pk).count(),
        }

    def test_everything_of_the_tournament_goes_and_nothing_else(
        self, tournament, roster, secretary, worked_table
    ):
        other = worked_table.series.tournament
        complete = complete_tournament(
            tournament_create(club=tournament.club, name="Replaced", date=tournament.date),
            roster,
            secretary,
        )
        payment_record(
            registration=complete.registrations.first(), amount=10, user=secretary, kind="fees"
        )
        held = self.held(complete.pk)
        kept = self.held(other.pk)
        assert all(held.values()), held  # every kind is there to be deleted
        players = Player.objects.count()

        pk = complete.pk
        tournament_purge(tournament=complete)

        assert not Tournament.objects.filter(pk=pk).exists()
        assert set(self.held(pk).values()) == {0}
        assert self.held(other.pk) == kept
        assert Player.objects.count() == players  # the players stay in the club's list


def test_an_imports_registrations_are_logged_as_registration_add_logs_them(club):
    """`registrations_restore` (a tournament the import has just created) registers and
    logs as `registration_add` does, without its lock, read and version bump."""
    players = [PlayerFactory(club=club) for _ in range(3)]
    added = tournament_create(club=club, name="Added", date=datetime.date(2026, 11, 7))
    restored = tournament_create(
        club=club, name="Restored", date=datetime.date(2026, 11, 7), checked=True
    )
    assert registration_add(tournament=added, players=[*players, players[0]]) == 3
    assert registrations_restore(tournament=restored, players=[*players, players[0]]) == 3

    def logged(tournament):
        entry = ActionLog.objects.get(
            tournament=tournament, kind=ActionLog.Kind.REGISTRATION_ADDED
        )
        return entry.details, entry.club_id, entry.user_id, entry.reason

    assert logged(restored) == logged(added)
    assert sorted(restored.registrations.values_list("player_id", flat=True)) == sorted(
        p.pk for p in players
    )
    assert Tournament.objects.get(pk=restored.pk).version == restored.version
    assert registrations_restore(tournament=restored, players=[]) == 0


def test_a_checked_tournament_skips_the_constraint_queries_not_the_field_checks(
    club, django_assert_max_num_queries
):
    with pytest.raises(UserError, match="at most 160 characters"):
        tournament_create(club=club, name="x" * 161, date=datetime.date(2026, 11, 7), checked=True)
    with django_assert_max_num_queries(4):  # the insert, the log and a savepoint's two
        tournament_create(
            club=club, name="Checked", date=datetime.date(2026, 11, 7), slug="c", checked=True
        )
