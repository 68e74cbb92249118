"""Querysets compiled once (`tournaments.prepared`) give what the queryset gives."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import ClubFactory, TournamentFactory
from tournaments.mixins import TOURNAMENT_BY_SLUG
from tournaments.models import League, Season, Seat, Tournament
from tournaments.prepared import Prepared

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def in_league(club):
    league = League.objects.create(name="Verbandsliga", slug="verbandsliga")
    season = Season.objects.create(league=league, name="Liga 2026", slug="liga-2026")
    return TournamentFactory(
        club=club, season=season, slug="spieltag-1", entry_fee=Decimal("12.50"), published=True
    )


@pytest.mark.parametrize("slug", ["herbstpreisskat", "spieltag-1"])
def test_the_tournament_is_the_one_the_orm_reads_with_its_club_season_and_league(
    tournament, in_league, slug
):
    expected = Tournament.objects.select_related("club", "season__league").get(slug=slug)
    for _ in range(2):  # compiled the first time, reused the second
        found = TOURNAMENT_BY_SLUG.first(slug)
        assert fields(found) == fields(expected)
        assert found._state.db == expected._state.db and not found._state.adding
        with CaptureQueriesContext(connection) as queries:
            club, season = found.club, found.season
            league = season.league if season else None
        assert len(queries) == 0  # read with the tournament
        assert fields(club) == fields(expected.club)
        if expected.season is None:
            assert season is None
        else:
            assert fields(season) == fields(expected.season)
            assert fields(league) == fields(expected.season.league)
    assert isinstance(found.entry_fee, Decimal) and found.changed.tzinfo is not None


def test_an_unknown_or_odd_slug_finds_nothing(tournament):
    for slug in ("nope", "", "%s", "herbstpreisskat' OR '1'='1"):
        assert TOURNAMENT_BY_SLUG.first(slug) is None


def test_values_lists_with_joins_and_constants(tournament):
    other = TournamentFactory(club=ClubFactory(), slug="other", published=False)
    prepared = Prepared(
        lambda pk: (
            Tournament.objects.filter(pk=pk, published=False)
            .order_by("pk")
            .values_list("pk", "club__name", "date", "entry_fee", "published", "changed")
        ),
        -987654321,
    )
    for pk in (other.pk, tournament.pk, other.pk):
        expected = list(
            Tournament.objects.filter(pk=pk, published=False)
            .order_by("pk")
            .values_list("pk", "club__name", "date", "entry_fee", "published", "changed")
        )
        assert prepared.rows(pk) == expected
    assert prepared.rows(other.pk) != []


def test_only_plain_querysets_are_taken(tournament):
    from django.db.models import Count

    for build in (
        lambda slug: Tournament.objects.filter(slug=slug).annotate(n=Count("series")),
        lambda slug: Tournament.objects.filter(slug=slug).only("name"),
        lambda slug: Tournament.objects.filter(slug=slug).values("name"),
        lambda slug: Seat.objects.filter(series__tournament__slug=slug).prefetch_related("player"),
        lambda slug: Tournament.objects.filter(published=True),  # no placeholder reaches it
    ):
        with pytest.raises(ValueError):
            Prepared(build, "\x00slug\x00").rows("herbstpreisskat")


def test_a_key_out_of_range_finds_nothing(client, tournament):
    """As the ORM answers it: no rows (and the page a 404), not a database error."""
    prepared = Prepared(lambda pk: Tournament.objects.filter(pk=pk).values_list("pk"), -987654321)
    for pk in (2**63, -(2**63) - 1, 10**30):
        assert prepared.rows(pk) == [] == list(Tournament.objects.filter(pk=pk).values_list("pk"))
    assert client.get("/players/99999999999999999999999/").status_code == 404


def test_the_pages_series_are_those_prefetched(rf, tournament):
    """`TournamentMixin.series_list`: the series in order, each knowing its tournament, and
    `tournament.series.all()` answered from them without a query."""
    from tournaments.mixins import TournamentMixin
    from tournaments.models import Series

    for number in (2, 1, 3):
        Series.objects.create(tournament=tournament, number=number, draw_seed=number)
    view = TournamentMixin()
    view.kwargs, view.request = {"tournament": tournament.slug}, rf.get("/")
    view.manages = True
    series = view.series_list
    assert [fields(s) for s in series] == [
        fields(s) for s in Series.objects.filter(tournament=tournament).order_by("number")
    ]
    with CaptureQueriesContext(connection) as queries:
        assert list(view.tournament.series.all()) == series
        assert all(s.tournament is view.tournament for s in series)
        assert view.tournament.series.count() == 3
    assert len(queries) == 0
