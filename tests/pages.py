"""The pages every kind of user text and role shows, with the demo data (`demo.demo_create`
plus the table with a phone row): the accessibility sweep (tests/browser/) and the
isolation check of user text (tests/test_bidi_isolation.py) open the same ones."""

from django.urls import reverse
from django.utils import translation

from tournaments import demo
from tournaments.models import Venue


def en(name: str, **kwargs) -> str:
    """The English address of a page (typeahead keys and texts in the tests are English)."""
    with translation.override("en"):
        return reverse(name, kwargs=kwargs or None)


def public_pages(site) -> list[str]:
    running, finished, tournee = site["running"], site["finished"], site["tournee"]
    table = site["table"]
    pages = [en("home"), en("login"), en("season_detail", season=site["season"].slug)]
    for t in (running, finished, tournee):
        pages += [
            en("tournament_detail", tournament=t.slug),
            en("series_detail", tournament=t.slug, series=1),
            en("table_detail", tournament=t.slug, series=1, table=1),
            en("team_standings", tournament=t.slug),
        ]
    pages.append(en("table_detail", tournament=running.slug, series=1, table=table.number))
    pages.append(en("player_detail", pk=site["players"][0].pk))
    pages.append(en("head_to_head", pk=site["players"][0].pk, other=site["players"][1].pk))
    pages += [
        en("rating_list"),
        en("rating_method"),
        en("club_ratings", club=site["club"].pk),
    ]
    return pages


def manage_pages(site) -> list[str]:
    club, running, finished = site["club"], site["running"], site["finished"]
    table = site["table"]
    sheet = {"tournament": running.slug, "series": 1, "table": table.number}
    player = site["players"][0]
    pages = [
        en("manage:dashboard"),
        en("manage:club_players", club=club.pk),
        en("manage:player_edit", club=club.pk, pk=player.pk),
        en("manage:member_add", club=club.pk) + "?q=a",
        en("manage:duplicates", club=club.pk),
        en("manage:player_merge", club=club.pk, kept=player.pk, absorbed=site["players"][1].pk),
        en("manage:club_settings", club=club.pk),
        en("manage:season_new", club=club.pk),
        en("manage:tournament_new", club=club.pk),
        en("manage:sheet", **sheet),
        en("manage:sheet_close", **sheet),
        en("manage:game_correct", **sheet, game=1),
        en("manage:entry_confirm", **sheet),
        en("manage:sheet", tournament=finished.slug, series=1, table=1),
    ]
    for t in (running, finished, site["tournee"]):
        slug = t.slug
        pages += [
            en("manage:tournament", tournament=slug),
            en("manage:tournament_settings", tournament=slug),
            en("manage:series", tournament=slug, series=1),
            en("manage:money", tournament=slug),
            en("manage:money_settings", tournament=slug),
            en("manage:money_prizes", tournament=slug),
            en("manage:registration_import", tournament=slug),
        ]
    # The league venues the demo secretary keeps: their tables' links and sheets.
    pages += [
        en("manage:venue", tournament=venue.tournament.slug, venue=venue.pk)
        for venue in Venue.objects.filter(secretary__username=demo.DEMO_USERNAME)
    ]
    return pages
