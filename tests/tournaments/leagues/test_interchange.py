"""The season document: export → import → export byte-identical, bad documents write
nothing; `manage.py standings --season` agrees with the season page."""

import datetime
import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.factories import TournamentFactory
from tests.tournaments.interchange.documents import fees_due_of, settings_of, text_of
from tests.tournaments.leagues.helpers import play_series
from tournaments.choices import Category
from tournaments.leagues.interchange import (
    SeasonDocumentError,
    export_season,
    import_season,
    season_text,
)
from tournaments.leagues.selectors import season_tables, tables_json
from tournaments.leagues.services import (
    league_create,
    match_day_confirm,
    match_day_create,
    season_close,
    venue_create,
)
from tournaments.models import (
    ActionLog,
    Game,
    Payment,
    Penalty,
    Player,
    RosterEntry,
    Season,
    Table,
    Team,
    Tournament,
    Venue,
)
from tournaments.money.services import payment_record, tournament_money_update
from tournaments.registry.services import player_update, tournament_update
from tournaments.sheets.services import penalty_record, table_close
from tournaments.standings.selectors import tournament_standings

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


def short_sheet(day: dict):
    """The match day's first sheet a game short and, in its archive, still open."""
    tournament = day["tournament"]
    tournament["series"][0]["tables"][0]["games"].pop()
    tournament["archive"]["series"][0]["tables"][0]["closed"] = False


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
            lambda d: d["teams"][0]["roster"][0].update(category="kids"),
            "teams[0].roster[0]: category must be one of ",
        ),
        (lambda d: d["season"].update(slug="liga 2026"), "season: slug must be a short name"),
        (
            lambda d: d["season"]["league"].update(slug=["liga"]),
            "season.league: slug must be a short name",
        ),
        (
            # a confirmed match day with a sheet short of a game (its archive says: open)
            lambda d: short_sheet(d["match_days"][0]),
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
    short_sheet(doc["match_days"][0])
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


# --------------------------------------------------------------------------------------
# A rich season moved to another site: every match day whole, every address kept
# --------------------------------------------------------------------------------------


@pytest.fixture
def rich(match_day, teams, zeitz, secretary):
    """Two match days of the league season at two venues each, with everything a club
    keeps: an entry fee of 5.00, a tiered lost-game fee, tied players sharing prizes, a
    payment, seeded draws, penalties, action log entries (settings, draws, penalties,
    payments, closed sheets) and players' categories."""
    second = match_day_create(
        season=match_day.season,
        name="2. Spieltag",
        date=datetime.date(2026, 10, 17),
        club=zeitz,
        slug="liga-2",
        published=True,
        games_per_series_4=4,
        games_per_series_3=3,
    )
    venue_create(tournament=second, name="Zeitz", teams=[teams["Altenburg I"], teams["Zeitz II"]])
    venue_create(
        tournament=second, name="Altenburg", teams=[teams["Altenburg II"], teams["Zeitz I"]]
    )
    for team in teams.values():
        for index, entry in enumerate(team.roster.order_by("pk")):
            category = (Category.LADIES, Category.SENIORS, "")[index % 3]
            player_update(player=entry.player, category=category)
    for day, seeds in ((match_day, (7, 8)), (second, (11,))):
        tournament_update(tournament=day, prizes_split_ties=True, user=secretary)
        tournament_money_update(
            tournament=day,
            user=secretary,
            entry_fee=Decimal("5.00"),
            table_fee=Decimal("0.50"),
            lost_game_fee=Decimal("0.50"),
            lost_game_fee_from=2,
            lost_game_fee_high=Decimal("1.00"),
        )
        for seed in seeds:
            series = play_series(day, seed=seed, close=False)
            first = series.tables.order_by("number").first()
            penalty_record(table=first, seat=2, points=-10, reason="Reizfehler", user=secretary)
            for table in series.tables.order_by("number"):
                table_close(table=table, user=secretary)
        registration = day.registrations.order_by("player__name").first()
        payment_record(
            registration=registration, kind="fees", amount="5.00", note="bar", user=secretary
        )
        match_day_confirm(tournament=day)
    return match_day.season


def _restorable(season: Season) -> dict:
    """What the season's site shows and keeps, read from the database (not the export)."""
    days = {}
    for day in season.tournaments.order_by("date"):
        days[day.slug] = {
            "document": text_of(day),
            "settings": settings_of(day),
            "fees": fees_due_of(day),
            "standings": [
                (r.rank, r.player_name, r.club, r.team, r.category, r.list_points, r.lot)
                + (r.game_points, r.won, r.lost, r.others_lost)
                for r in tournament_standings(day)
            ],
            "seeds": list(day.series.order_by("number").values_list("number", "draw_seed")),
            "log": list(
                ActionLog.objects.filter(tournament=day)
                .order_by("at", "id")
                .values_list("kind", "at", "user__username", "series_number", "details")
            ),
            "payments": list(
                Payment.objects.filter(registration__tournament=day)
                .order_by("id")
                .values_list("registration__player__name", "kind", "amount", "note", "at")
            ),
            "categories": dict(day.registrations.values_list("player__name", "player__category")),
            "penalties": list(
                Penalty.objects.filter(table__series__tournament=day)
                .order_by("table__series__number", "table__number", "id")
                .values_list("table__series__number", "table__number", "seat", "points")
            ),
            "venues": sorted(day.venues.values_list("name", flat=True)),
        }
    return {
        "slug": season.slug,
        "league": season.league.slug,
        "rosters": sorted(
            RosterEntry.objects.filter(team__season=season).values_list(
                "team__name", "player__name", "substitute", "player__category"
            )
        ),
        "tables": tables_json(season_tables(season)),
        "days": days,
    }


def wipe(season: Season):
    """The season gone from the site with its league and its players (their categories
    with them): only a restore can give those back."""
    league = season.league
    players = [entry.player_id for team in season.teams.all() for entry in team.roster.all()]
    remove(season)
    league.delete()
    Player.objects.filter(pk__in=players).delete()


def test_a_rich_season_moves_whole_with_every_match_day_and_address(rich, client, tmp_path):
    before = _restorable(rich)
    text = season_text(rich)
    addresses = [rich.get_absolute_url(), f"/api/v1/seasons/{rich.slug}"]
    for day in rich.tournaments.all():
        addresses += [day.get_absolute_url(), f"/api/v1/tournaments/{day.slug}/standings"]
    first = before["days"]["liga-1"]
    assert first["settings"]["entry_fee"] == Decimal("5.00")
    assert first["settings"]["lost_game_fee_high"] == Decimal("1.00")
    assert all(seed for _number, seed in first["seeds"])
    assert first["payments"] and first["penalties"] and len(first["log"]) > 5
    assert set(first["categories"].values()) == {"ladies", "seniors", ""}
    path = tmp_path / "season.json"
    path.write_text(text, encoding="utf-8")
    wipe(rich)

    copy = imported_file(path)

    assert season_text(copy) == text
    after = _restorable(copy)
    assert after["slug"] == before["slug"] == "liga-2026-27"
    assert after["league"] == before["league"]
    assert list(after["days"]) == list(before["days"]) == ["liga-1", "liga-2"]
    for slug, day in before["days"].items():
        for part, value in day.items():
            assert after["days"][slug][part] == value, (slug, part)
    assert after["tables"] == before["tables"]
    assert after["rosters"] == before["rosters"]  # substitutes who never played too
    for address in addresses:  # the public pages and the API at the old addresses
        assert client.get(address, follow=True).status_code == 200, address


def test_an_older_season_document_without_slugs_and_archives_still_imports(rich):
    """A document of before the slugs and archives: new addresses, the contract's choices."""
    doc = export_season(rich)
    del doc["season"]["slug"], doc["season"]["league"]["slug"]
    for day in doc["match_days"]:
        del day["tournament"]["archive"]
    wipe(rich)
    copy = import_season(doc)
    assert copy.slug != "liga-2026-27"
    assert copy.tournaments.count() == 2
    assert not copy.tournaments.filter(slug__in=["liga-1", "liga-2"]).exists()


def _take_league_slug(season):
    """The league's slug given, on the new site, to a league of another name."""
    slug = season.league.slug
    wipe(season)
    league_create(name="Westsächsische Liga", slug=slug)


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda season: None, "season: the site already has a season 'liga-2026-27'"),
        (
            lambda season: (
                wipe(season),
                TournamentFactory(slug="liga-2"),
            ),
            "match_days[1]: the site already has a tournament 'liga-2': nothing was imported",
        ),
        (_take_league_slug, "season.league: the site's league 'ostthuringer-liga' is "),
    ],
)
def test_a_slug_the_site_has_is_refused_never_renamed(rich, spoil, message):
    doc = export_season(rich)
    spoil(rich)
    before = _counts()
    with pytest.raises(SeasonDocumentError) as caught:
        import_season(doc)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)
    assert _counts() == before
