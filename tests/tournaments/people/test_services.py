"""One person across clubs: a federation number is one person's site-wide, memberships of
other clubs, likely duplicates, merging two records and undoing a merge."""

import uuid
from decimal import Decimal

import pytest

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, UserFactory
from tests.tournaments.helpers import GRAND
from tournaments.draw.services import series_draw
from tournaments.errors import UserError
from tournaments.log.services import Replay
from tournaments.models import (
    ActionLog,
    Membership,
    Payment,
    Player,
    PlayerMerge,
    Rating,
    RatingChange,
    Registration,
    RosterEntry,
    Season,
    Seat,
    Team,
    Tournament,
)
from tournaments.people.selectors import duplicates, merge_preview, undo_blockers
from tournaments.people.services import (
    membership_add,
    membership_end,
    player_merge,
    player_merge_undo,
)
from tournaments.registry.matching import person_key
from tournaments.registry.services import player_create, player_update, players_create
from tournaments.sheets.services import game_record

pytestmark = pytest.mark.django_db


def key():
    return str(uuid.uuid4())


@pytest.fixture
def leipzig():
    return ClubFactory(name="Skatclub Leipzig")


class TestFederationNumberSiteWide:
    def test_a_second_club_cannot_give_the_same_number_and_is_told_whose_it_is(
        self, club, leipzig
    ):
        PlayerFactory(club=club, name="Hans Müller", federation_number="DSKV-7")
        with pytest.raises(UserError) as refused:
            player_create(name="Hans Mueller", club=leipzig, federation_number="DSKV-7")
        assert "Hans Müller" in str(refused.value) and club.name in str(refused.value)
        assert Player.objects.filter(federation_number="DSKV-7").count() == 1

    def test_editing_a_player_to_a_taken_number_names_the_holder(self, club, leipzig):
        PlayerFactory(club=leipzig, name="Anna Schmidt", federation_number="42")
        other = PlayerFactory(club=club, name="Berta Schulz")
        with pytest.raises(UserError) as refused:
            player_update(player=other, federation_number="42")
        assert "Anna Schmidt" in str(refused.value) and leipzig.name in str(refused.value)
        other.refresh_from_db()
        assert other.federation_number == ""
        # Keeping one's own number is no clash.
        holder = Player.objects.get(federation_number="42")
        player_update(player=holder, federation_number="42", name="Anna Schmidt-Weber")

    def test_an_import_batch_is_checked_site_wide_and_within_itself(self, club, leipzig):
        PlayerFactory(club=leipzig, name="Anna Schmidt", federation_number="42")
        with pytest.raises(UserError) as refused:
            players_create([{"name": "Anna S.", "club": club, "federation_number": "42"}])
        assert "Anna Schmidt" in str(refused.value)
        with pytest.raises(UserError):
            players_create(
                [
                    {"name": "Carl", "club": club, "federation_number": "9"},
                    {"name": "Carla", "club": leipzig, "federation_number": "9"},
                ]
            )
        assert not Player.objects.filter(federation_number="9").exists()

    def test_empty_numbers_do_not_clash(self, club, leipzig):
        player_create(name="One", club=club)
        player_create(name="Two", club=leipzig)
        assert Player.objects.filter(federation_number="").count() == 2


class TestMemberships:
    def test_a_player_of_another_club_becomes_a_member_and_the_membership_ends(
        self, club, leipzig, secretary
    ):
        guest = PlayerFactory(club=leipzig, name="Gast Spieler")
        membership = membership_add(club=club, player=guest, user=secretary, key=key())
        assert set(guest.clubs.all()) == {club, leipzig}
        assert ActionLog.objects.filter(kind=ActionLog.Kind.MEMBERSHIP_ADDED, club=club).exists()
        with pytest.raises(UserError):
            membership_add(club=club, player=guest, user=secretary)
        membership_end(membership=membership, user=secretary, key=key())
        assert list(guest.clubs.all()) == [leipzig]
        assert ActionLog.objects.filter(kind=ActionLog.Kind.MEMBERSHIP_ENDED, club=club).exists()

    def test_the_home_club_membership_does_not_end(self, club):
        home = PlayerFactory(club=club)
        with pytest.raises(UserError):
            membership_end(membership=Membership.objects.get(player=home, club=club))
        assert Membership.objects.filter(player=home, club=club).exists()

    def test_adding_twice_with_one_form_is_a_replay(self, club, leipzig):
        guest = PlayerFactory(club=leipzig)
        once = key()
        membership_add(club=club, player=guest, key=once)
        with pytest.raises(Replay):
            membership_add(club=club, player=guest, key=once)
        assert Membership.objects.filter(player=guest).count() == 2


class TestDuplicates:
    def test_same_name_in_any_spelling_and_same_number_are_found(self, club, leipzig):
        mine = PlayerFactory(club=club, name="Müller, Hans")
        theirs = PlayerFactory(club=leipzig, name="hans  MULLER")
        numbered = PlayerFactory(club=club, name="Jörg Łukasz", federation_number="DSKV-12")
        renamed = PlayerFactory(club=leipzig, name="J. Lukasz", federation_number="dskv 12")
        PlayerFactory(club=leipzig, name="Somebody Else")
        found = {(d.first.pk, d.second.pk): d.reasons for d in duplicates(club)}
        assert set(found) == {(mine.pk, theirs.pk), (numbered.pk, renamed.pk)}
        assert found[(numbered.pk, renamed.pk)] == ["same federation number"]

    def test_pairs_the_club_does_not_see_are_left_out(self, club, leipzig):
        PlayerFactory(club=leipzig, name="Hans Müller")
        PlayerFactory(club=leipzig, name="Hans Mueller")
        PlayerFactory(club=leipzig, name="Müller, Hans")
        assert duplicates(club) == []
        assert len(duplicates(leipzig)) == 1  # "Hans Müller" and "Müller, Hans"

    def test_names_compare_by_the_import_rule_last_comma_first(self):
        assert person_key("Öztürk, Ayşe") == person_key("ayse ozturk")
        assert person_key("Hans Müller") != person_key("Hans Meier")


def _seat_in_new_tournament(club, player, others=3, **tournament_fields):
    tournament = Tournament.objects.create(
        club=club,
        name=f"Preisskat {Tournament.objects.count() + 1}",
        slug=f"t-{uuid.uuid4().hex[:8]}",
        date="2026-11-21",
        published=True,
        **tournament_fields,
    )
    RegistrationFactory(tournament=tournament, player=player)
    for _ in range(others):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club))
    series_draw(tournament=tournament, seed=1)
    return tournament


@pytest.fixture
def pair(club, leipzig):
    """Two records of one person: A (kept) of the club, B (absorbed) of Leipzig with a
    registration and seat, a payment, a roster entry, a membership, an account, a number
    and rating rows."""
    kept = PlayerFactory(club=club, name="Hans Müller")
    absorbed = PlayerFactory(
        club=leipzig, name="Müller, Hans", federation_number="DSKV-1", user=UserFactory()
    )
    tournament = _seat_in_new_tournament(leipzig, absorbed)
    Payment.objects.create(
        registration=Registration.objects.get(player=absorbed), amount=Decimal("10.00")
    )
    season = Season.objects.create(club=leipzig, name="Jahreswertung", slug="jw")
    team = Team.objects.create(season=season, club=leipzig, name="Leipzig 1")
    RosterEntry.objects.create(team=team, season=season, player=absorbed)
    third = ClubFactory(name="Skatclub Dresden")
    Membership.objects.create(player=absorbed, club=third)
    Membership.objects.create(player=absorbed, club=club)  # A's club already
    table = Seat.objects.get(player=absorbed).table
    Rating.objects.create(player=absorbed, mu=25, sigma=8, series=1)
    RatingChange.objects.create(
        player=absorbed,
        table=table,
        played_on="2026-11-21",
        order="x",
        place=1,
        mu_before=25,
        sigma_before=8.3,
        mu=25,
        sigma=8,
    )
    return kept, absorbed, tournament


class TestMerge:
    def test_the_preview_lists_everything_that_moves(self, pair):
        kept, absorbed, tournament = pair
        preview = merge_preview(kept, absorbed)
        moves = {move.label: move.items for move in preview.moves}
        assert preview.blockers == []
        assert moves["Registrations"] == [f"{tournament.name} (2026-11-21)"]
        assert len(moves["Seats"]) == 1 and "series 1" in moves["Seats"][0]
        assert moves["Roster entries"] == ["Jahreswertung: Leipzig 1"]
        assert moves["Payments and prizes paid"] == [
            f"{tournament.name} (2026-11-21): fees paid 10.00"
        ]
        assert "Skatclub Dresden" in moves["Memberships"]
        assert "Skatfreunde Altenburg (a member already)" in moves["Memberships"]
        assert moves["User account"] == [absorbed.user.username]
        assert moves["Federation number"] == ["DSKV-1"]
        assert preview.ratings == 2

    def test_the_merge_moves_everything_deletes_b_and_is_logged(self, pair, secretary, club):
        kept, absorbed, tournament = pair
        user_id, b_pk = absorbed.user_id, absorbed.pk
        version = tournament.version
        merge = player_merge(kept=kept, absorbed=absorbed, user=secretary, club=club, key=key())
        assert not Player.objects.filter(pk=b_pk).exists()
        kept.refresh_from_db()
        assert kept.user_id == user_id and kept.federation_number == "DSKV-1"
        assert Registration.objects.get(tournament=tournament, player=kept)
        assert Seat.objects.filter(player=kept, series__tournament=tournament).count() == 1
        assert Payment.objects.filter(registration__player=kept).count() == 1
        assert RosterEntry.objects.filter(player=kept).count() == 1
        assert {c.name for c in kept.clubs.all()} == {
            "Skatfreunde Altenburg",
            "Skatclub Leipzig",
            "Skatclub Dresden",
        }
        assert not Rating.objects.filter(player_id=b_pk).exists()
        assert not RatingChange.objects.filter(player_id=b_pk).exists()
        assert merge.ratings_deleted == 2
        log = ActionLog.objects.get(kind=ActionLog.Kind.PLAYERS_MERGED)
        assert (log.club, log.user, log.details["absorbed_id"]) == (club, secretary, b_pk)
        tournament.refresh_from_db()
        assert tournament.version > version  # its cached pages show A's name at once

    def test_a_double_submit_merges_once(self, pair, secretary):
        kept, absorbed, _tournament = pair
        once = key()
        player_merge(kept=kept, absorbed=absorbed, user=secretary, key=once)
        with pytest.raises(Replay):
            player_merge(kept=kept, absorbed=absorbed, user=secretary, key=once)
        assert PlayerMerge.objects.count() == 1

    @pytest.mark.parametrize(
        "conflict, message",
        [
            ("tournament", "Both are registered in"),
            ("series", "Both are seated in series 1"),
            ("season", "Both are on a roster of the season"),
            ("accounts", "Both have a user account"),
            ("numbers", "Their federation numbers differ"),
        ],
    )
    def test_what_blocks_a_merge_is_refused_with_a_message(self, pair, conflict, message):
        kept, absorbed, tournament = pair
        if conflict == "tournament":
            RegistrationFactory(tournament=tournament, player=kept)
        elif conflict == "series":
            # Both seated in one series (their registrations aside): B takes a seat of
            # A's series.
            other = _seat_in_new_tournament(kept.club, kept)
            seat = Seat.objects.filter(series__tournament=other).exclude(player=kept).first()
            Seat.objects.filter(pk=seat.pk).update(player=absorbed)
        elif conflict == "season":
            entry = RosterEntry.objects.get(player=absorbed)
            team = Team.objects.create(season=entry.season, club=kept.club, name="Altenburg 1")
            RosterEntry.objects.create(team=team, season=entry.season, player=kept)
        elif conflict == "accounts":
            kept.user = UserFactory()
            kept.save()
        else:
            kept.federation_number = "DSKV-2"
            kept.save()
        assert any(message in blocker for blocker in merge_preview(kept, absorbed).blockers)
        with pytest.raises(UserError) as refused:
            player_merge(kept=kept, absorbed=absorbed)
        assert message in str(refused.value)
        assert Player.objects.filter(pk=absorbed.pk).exists()
        assert not PlayerMerge.objects.exists()


class TestUndo:
    def test_undo_recreates_b_with_its_id_and_moves_back_exactly_what_moved(self, pair, secretary):
        kept, absorbed, tournament = pair
        b = {f: getattr(absorbed, f) for f in ("pk", "name", "club_id", "federation_number")}
        b_user = absorbed.user_id
        kept_clubs = set(kept.clubs.values_list("pk", flat=True))
        b_clubs = set(absorbed.clubs.values_list("pk", flat=True))
        merge = player_merge(kept=kept, absorbed=absorbed, user=secretary)
        version = Tournament.objects.get(pk=tournament.pk).version
        restored = player_merge_undo(merge=merge, user=secretary, key=key())
        assert {f: getattr(restored, f) for f in b} == b
        assert restored.user_id == b_user
        kept.refresh_from_db()
        assert kept.user_id is None and kept.federation_number == ""
        assert Registration.objects.filter(tournament=tournament, player_id=b["pk"]).count() == 1
        assert not Registration.objects.filter(player=kept).exists()
        assert Seat.objects.filter(player_id=b["pk"]).count() == 1
        assert RosterEntry.objects.get().player_id == b["pk"]
        assert set(kept.clubs.values_list("pk", flat=True)) == kept_clubs
        assert set(restored.clubs.values_list("pk", flat=True)) == b_clubs
        merge.refresh_from_db()
        assert merge.undone_at is not None
        assert ActionLog.objects.filter(kind=ActionLog.Kind.MERGE_UNDONE).count() == 1
        assert Tournament.objects.get(pk=tournament.pk).version > version
        with pytest.raises(UserError):
            player_merge_undo(merge=merge)

    @pytest.mark.parametrize("entered", ["registration", "seat", "game", "payment"])
    def test_undo_is_refused_once_something_new_was_entered_for_a(self, pair, club, entered):
        kept, absorbed, tournament = pair
        merge = player_merge(kept=kept, absorbed=absorbed)
        if entered == "registration":
            RegistrationFactory(player=kept)
        elif entered == "seat":
            _seat_in_new_tournament(club, kept)
        elif entered == "game":
            table = Seat.objects.get(player=kept, series__tournament=tournament).table
            game_record(table=table, data=GRAND)
        else:
            registration = Registration.objects.get(player=kept, tournament=tournament)
            Payment.objects.create(registration=registration, amount=Decimal("5.00"))
        assert undo_blockers(merge)
        with pytest.raises(UserError) as refused:
            player_merge_undo(merge=merge)
        assert "Something new has been entered" in str(refused.value)
        assert PlayerMerge.objects.get().undone_at is None
        assert not Player.objects.filter(pk=merge.absorbed_id).exists()

    def test_undo_is_refused_when_a_moved_row_is_gone(self, pair):
        kept, absorbed, tournament = pair
        merge = player_merge(kept=kept, absorbed=absorbed)
        RosterEntry.objects.filter(player=kept).delete()
        with pytest.raises(UserError) as refused:
            player_merge_undo(merge=merge)
        assert "roster entries" in str(refused.value)
        assert not Player.objects.filter(pk=merge.absorbed_id).exists()

    def test_undo_twice_with_one_form_is_a_replay(self, pair):
        kept, absorbed, _tournament = pair
        merge = player_merge(kept=kept, absorbed=absorbed)
        once = key()
        player_merge_undo(merge=merge, key=once)
        with pytest.raises(Replay):
            player_merge_undo(merge=merge, key=once)
        assert Player.objects.filter(name="Müller, Hans").count() == 1
