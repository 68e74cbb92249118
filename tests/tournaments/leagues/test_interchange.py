"""The season document: export → import → export byte-identical, bad documents write
nothing; `manage.py standings --season` agrees with the season page."""

import datetime
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.tournaments.leagues.helpers import play_series
from tournaments.leagues.interchange import (
    SeasonDocumentError,
    export_season,
    import_season,
    season_text,
)
from tournaments.leagues.services import (
    match_day_confirm,
    match_day_create,
    season_close,
    venue_create,
)
from tournaments.models import Game, Season, Table, Team, Tournament, Venue

pytestmark = pytest.mark.django_db


@pytest.fixture
def confirmed(match_day):
    play_series(match_day)
    match_day_confirm(tournament=match_day)
    return match_day


def remove(season):
    """The season gone from the site (its players stay), as on another installation: a
    tournament of the same name and date is refused (`interchange.import_document`)."""
    season.tournaments.all().delete()
    season.delete()


def test_export_import_export_is_byte_identical(confirmed, tmp_path):
    text = season_text(confirmed.season)
    path = tmp_path / "season.json"
    call_command("export_season", confirmed.season.slug, output=str(path))
    assert path.read_text(encoding="utf-8") == text
    remove(confirmed.season)
    out = io.StringIO()
    call_command("import_season", str(path), stdout=out)
    copy = Season.objects.get(slug=out.getvalue().strip())
    assert season_text(copy) == text
    day = copy.tournaments.get()
    assert set(day.venues.values_list("name", flat=True)) == {"Altenburg", "Zeitz"}
    assert Table.objects.filter(series__tournament=day, venue__isnull=True).count() == 0
    assert hasattr(day, "confirmation")


def test_a_closed_season_comes_back_closed_with_the_same_tables(confirmed):
    season = season_close(season=confirmed.season)
    text = season_text(season)
    archive = season.archive
    remove(season)
    copy = import_season(json.loads(text))
    assert copy.is_closed
    assert copy.archive["teams"] == archive["teams"]

    # The match days' slugs are the installation's own; every figure is the same.
    def figures(players):
        return [{k: v for k, v in p.items() if k != "days"} for p in players]

    assert figures(copy.archive["players"]) == figures(archive["players"])
    assert season_text(copy) == text


def test_the_document_names_the_season_its_teams_and_venues(confirmed):
    doc = export_season(confirmed.season)
    assert doc["format"] == "skat-season/1"
    assert doc["season"]["league"]["clubs"] == ["Skatclub Zeitz", "Skatfreunde Altenburg"]
    assert [t["name"] for t in doc["teams"]] == [
        "Altenburg I",
        "Altenburg II",
        "Zeitz I",
        "Zeitz II",
    ]
    assert doc["teams"][0]["roster"][-1] == {"name": "Altenburg I Ersatz", "substitute": True}
    venues = doc["match_days"][0]["venues"]
    assert venues[0] == {
        "name": "Altenburg",
        "teams": ["Altenburg I", "Zeitz I"],
        "tables": [{"series": 1, "tables": [1, 2]}],
    }
    assert doc["match_days"][0]["tournament"]["format"] == "skat-tournament/1"


def _counts():
    return (
        Season.objects.count(),
        Tournament.objects.count(),
        Team.objects.count(),
        Venue.objects.count(),
    )


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d.update(format="skat-season/0"), "no skat-season/1 document"),
        (
            lambda d: d["match_days"][0]["venues"][0]["teams"].append("Gera I"),
            "no team named Gera I",
        ),
        (
            lambda d: d["match_days"][0]["tournament"]["series"][0]["tables"][0]["games"][
                0
            ].update(matadors=99),
            "match_days[0]: series 1, table 1, game 1",
        ),
        (
            # a player on two rosters of the season
            lambda d: (
                d["teams"][1]["roster"].append(dict(d["teams"][1]["roster"][0]))
                or d["teams"][0]["roster"].append({"name": d["teams"][2]["roster"][0]["name"]})
            ),
            "teams[",
        ),
        (
            # the second team's club is not a member of the league (a new club)
            lambda d: d["teams"][1].update(club="Skatclub Gera"),
            "teams[1]: Skatclub Gera is not a member club of",
        ),
        (
            # a new player's name the site refuses, on the second team's roster
            lambda d: d["teams"][1]["roster"].append({"name": "x" * 121}),
            "teams[1]: name: Ensure this value has at most 120 characters",
        ),
        (
            # the third team's roster names a player who is on the first's too
            lambda d: d["teams"][2]["roster"].append(dict(d["teams"][0]["roster"][0])),
            "teams[2]: ",
        ),
        (
            lambda d: d["match_days"][0]["venues"][1]["tables"][0]["tables"].append(1),
            "match_days[0].venues[1]: Series 1 has no table 1 without a venue",
        ),
        (
            lambda d: d["match_days"][0]["venues"][1].update(
                name=d["match_days"][0]["venues"][0]["name"]
            ),
            "match_days[0].venues[1]: Venue with this Tournament and Name already exists.",
        ),
        (
            lambda d: d["match_days"][0]["venues"][0].update(name="x" * 121),
            "match_days[0].venues[0]: name: Ensure this value has at most 120 characters",
        ),
        (
            # a confirmed match day with a sheet short of a game
            lambda d: d["match_days"][0]["tournament"]["series"][0]["tables"][0]["games"].pop(),
            "match_days[0]: Every sheet must be closed first; still open: series 1 table 1 (",
        ),
    ],
)
def test_a_bad_document_is_refused_whole(confirmed, spoil, message):
    """(A good one would import: the round trip above.)"""
    doc = export_season(confirmed.season)
    remove(confirmed.season)
    spoil(doc)
    before = _counts()
    with pytest.raises(SeasonDocumentError) as caught:
        import_season(doc)
    assert message in str(caught.value)
    assert _counts() == before


def test_the_standings_command_agrees_with_the_season_page(client, confirmed):
    out = io.StringIO()
    call_command("standings", season=confirmed.season.slug, format="json", stdout=out)
    printed = json.loads(out.getvalue())
    page = client.get(reverse("league_season", kwargs={"season": confirmed.season.slug}))
    tables = page.context["tables"]
    assert [(t["rank"], t["team"], t["list_points"]) for t in printed["teams"]] == [
        (r.rank, r.team, r.list_points) for r in tables.teams
    ]
    assert [t["match_points_won"] for t in printed["teams"]] == [
        r.match_points_won for r in tables.teams
    ]
    assert [(p["rank"], p["player"], p["list_points"]) for p in printed["players"]] == [
        (r.rank, r.name, r.list_points) for r in tables.players
    ]


def second_day(confirmed, teams, *, seeds: tuple[int, ...], **settings):
    """A second match day of the season, at two venues, its series played and confirmed."""
    day = match_day_create(
        season=confirmed.season,
        name="2. Spieltag",
        date=datetime.date(2026, 10, 17),
        club=confirmed.club,
        published=True,
        **settings,
    )
    venue_create(tournament=day, name="Zeitz", teams=[teams["Altenburg I"], teams["Zeitz II"]])
    venue_create(tournament=day, name="Altenburg", teams=[teams["Altenburg II"], teams["Zeitz I"]])
    for seed in seeds:
        play_series(day, seed=seed)
    match_day_confirm(tournament=day)
    return day


@pytest.fixture
def two_days(confirmed, teams):
    second_day(confirmed, teams, seeds=(11, 12), games_per_series_4=4, games_per_series_3=3)
    return confirmed.season


def imported_file(path) -> Season:
    out = io.StringIO()
    call_command("import_season", str(path), stdout=out)
    return Season.objects.get(slug=out.getvalue().strip())


def test_a_file_is_read_as_a_stream_in_any_key_order(two_days, tmp_path):
    text = season_text(two_days)
    doc = json.loads(text)
    # Match days before the teams; in each, the tournament before its venues.
    reordered = {key: doc[key] for key in ("match_days", "season", "teams", "format")}
    for day in reordered["match_days"]:
        items = list(day.items())
        day.clear()
        day.update(reversed(items))
    path = tmp_path / "season.json"
    path.write_text(json.dumps(reordered, ensure_ascii=False), encoding="utf-8")
    remove(two_days)
    copy = imported_file(path)
    assert season_text(copy) == text
    assert Venue.objects.filter(tournament__season=copy).count() == 4
    assert not Table.objects.filter(series__tournament__season=copy, venue=None).exists()


def test_a_file_with_a_key_twice_on_the_way_to_the_tables_is_read_whole(two_days, tmp_path):
    """JSON takes the last of two `tournament` keys; a stream of tables would hand the
    tables of both to the match day, so such a file is read whole."""
    text = season_text(two_days)
    doc = json.loads(text)
    days = doc.pop("match_days")
    first = json.dumps(days[0]["tournament"], ensure_ascii=False)
    second = '{"tournament": ' + first + ", " + json.dumps(days[1], ensure_ascii=False)[1:]
    whole = json.dumps(doc, ensure_ascii=False)[:-1]
    path = tmp_path / "season.json"
    path.write_text(
        f'{whole}, "match_days": [{json.dumps(days[0], ensure_ascii=False)}, {second}]}}',
        encoding="utf-8",
    )
    remove(two_days)
    assert season_text(imported_file(path)) == text


def test_a_bad_file_is_refused_whole_with_the_match_days_place(two_days, tmp_path):
    doc = export_season(two_days)
    doc["match_days"][1]["tournament"]["series"][1]["tables"][0]["games"][2]["matadors"] = 99
    path = tmp_path / "season.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    remove(two_days)
    before = _counts()
    with pytest.raises(CommandError, match=r"match_days\[1\]: series 2, table 1, game 3"):
        imported_file(path)
    assert _counts() == before


def test_a_team_named_twice_at_a_venue_plays_there_once(two_days, tmp_path):
    text = season_text(two_days)
    doc = json.loads(text)
    venue = doc["match_days"][1]["venues"][0]
    venue["teams"].append(venue["teams"][0])
    remove(two_days)
    assert season_text(import_season(doc)) == text


def test_an_error_of_an_earlier_match_day_is_the_one_reported(two_days):
    """The match days' venues and confirmations are checked day by day, in document order."""
    doc = export_season(two_days)
    doc["match_days"][0]["tournament"]["series"][0]["tables"][0]["games"].pop()
    doc["match_days"][1]["venues"][1]["tables"][0]["tables"].append(1)
    remove(two_days)
    with pytest.raises(SeasonDocumentError, match=r"^match_days\[0\]: Every sheet must be"):
        import_season(doc)


def _game_values(season) -> list[tuple]:
    return sorted(
        Game.objects.filter(table__series__tournament__season=season).values_list(
            "table__series__tournament__name",
            "table__series__number",
            "table__number",
            "number",
            "score",
            "list_declarer",
            "list_others",
        )
    )


def test_match_days_of_other_bonuses_keep_their_own_values(confirmed, teams, tmp_path):
    """The match days share their valued games (`rows.GameRows`) only where their scoring
    settings agree."""
    second_day(confirmed, teams, seeds=(11,), bonus_won=80, bonus_lost=70)
    values = _game_values(confirmed.season)
    path = tmp_path / "season.json"
    path.write_text(season_text(confirmed.season), encoding="utf-8")
    remove(confirmed.season)
    assert _game_values(imported_file(path)) == values
