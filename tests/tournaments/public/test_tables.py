"""The standings tables' body rows built in Python (`QuickBodyMixin`) are the rows the stock
django-tables2 template renders, and the series page's table cards (`cards`) are complete."""

import re

import django_tables2 as tables
import pytest
from django.template.loader import get_template
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django_tables2 import RequestConfig

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tournaments.caching.advance import standings_advance, standings_progress
from tournaments.draw.services import series_close, series_draw
from tournaments.public.tables import QuickBodyMixin, StandingsTable
from tournaments.sheets.services import table_close
from tournaments.standings.selectors import (
    series_progress,
    series_tables,
    standings_computed,
    tournament_standings,
)

pytestmark = pytest.mark.django_db


def rendered(table_class, rows, query="", **kwargs):
    """The table as `{% render_table %}` shows it, whitespace next to tags dropped (a
    header cell's text is shown the same with or without it)."""
    request = RequestFactory().get("/" + query)
    table = table_class(rows, **kwargs)
    RequestConfig(request, paginate={"per_page": 3}).configure(table)
    html = get_template(table.template_name).render({"table": table}, request=request)
    return re.sub(r"\s*(<[^>]*>)\s*", r"\1", html.strip())


@pytest.fixture
def standings(tournament, series):
    """The worked example, one row provisional, a name to escape and a player who has not
    played (empty series cells show the column's default)."""
    enter(series.tables.get(), sheet_rows(WORKED_EXAMPLE, 4))
    RegistrationFactory(tournament=tournament, player=PlayerFactory(name="<b>Ödön</b> & Co"))
    rows = tournament_standings(tournament)
    rows[1].provisional = True
    return rows


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?page=2",
        "?sort=-player_name",
        "?sort=club&page=2",
        "?category=S&q=%3Cb%3E%26x&sort=won",
    ],
)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_quick_body_is_the_stock_templates_body(standings, query, language):
    options = {"series_numbers": [1, 2], "in_play": True}
    with translation.override(language):
        stock = rendered(
            StandingsTable, standings, query, template_name="django_tables2/table.html", **options
        )
        quick = rendered(StandingsTable, standings, query, **options)
    assert quick == stock
    assert "<tbody" in quick and quick.count("<tr") >= 2
    assert "<b>Ödön" not in quick  # escaped wherever the row is shown
    assert "q=%3Cb%3E%26x" in quick or not query.startswith("?category")


def test_the_quick_header_is_built_in_python(standings):
    """The header row comes from `head_html` (one link per sortable column with the
    request's query kept), not from the stock template's loop."""
    request = RequestFactory().get("/?category=S&sort=won")
    table = StandingsTable(standings, series_numbers=[1])
    RequestConfig(request).configure(table)
    head = str(table.head_html)
    assert head.count("<th ") == len(table.columns) == head.count("<a href=")
    assert '<a href="?category=S&amp;sort=-won">Won</a>' in head
    html = get_template(table.template_name).render({"table": table}, request=request)
    assert head in html
    assert StandingsTable(standings).head_html is None  # no request: the stock template


def test_the_quick_body_escapes_names(standings):
    html = rendered(StandingsTable, standings, "?sort=player_name")
    assert "&lt;b&gt;Ödön&lt;/b&gt; &amp; Co" in html


def test_a_column_the_quick_body_does_not_know_falls_back_to_the_stock_template(standings):
    class WithTemplate(StandingsTable):
        note = tables.TemplateColumn("<i>{{ record.player_name }}</i>", orderable=False)

    quick = rendered(WithTemplate, standings)
    stock = rendered(WithTemplate, standings, template_name="django_tables2/table.html")
    assert quick == stock and "<i>" in quick


class Entry:
    """A plain record with a value read through a dict by its number; its name may be a
    method (django-tables2 calls it) and a value may not be there."""

    def __init__(self, number, *, method=False, missing=True, scores=True):
        self.number = number
        self.scores = {1: {"points": number * 10}} if scores else {}
        if not method:
            self.name = f"Plain <{number}>"
        if missing:
            self.missing = f"m{number}"

    def name(self):
        return f"Called <{self.number}>"


class MixedTable(QuickBodyMixin, tables.Table):
    number = tables.Column()
    name = tables.Column()
    missing = tables.Column(default="?")
    points = tables.Column(accessor=tables.A("scores__1__points"), default="–")


def test_the_quick_body_reads_every_kind_of_record_as_the_stock_template():
    """Records whose values the quick body cannot read in one step (a method, a value not
    there, a key not there, a dict) show what the stock template shows."""
    rows = [
        Entry(1),
        Entry(2, method=True),
        Entry(3, missing=False),
        Entry(4, scores=False),
        {"number": 5, "name": "a <dict>", "missing": "x", "scores": {1: {"points": 7}}},
        {"number": 6, "name": "no scores"},
    ]
    for query in ("", "?page=2"):
        quick = rendered(MixedTable, rows, query)
        stock = rendered(MixedTable, rows, query, template_name="django_tables2/table.html")
        assert quick == stock
    first = rendered(MixedTable, rows)
    assert "Plain &lt;1&gt;" in first and ">m1<" in first and ">10<" in first
    assert "Called &lt;2&gt;" in first and ">30<" in first
    later = rendered(MixedTable, rows, "?page=2")
    assert "a &lt;dict&gt;" in later and ">7<" in later and "–" in later


def test_an_empty_table_shows_its_empty_text(tournament):
    html = rendered(StandingsTable, [])
    assert "No results yet." in html


def test_the_series_page_lists_every_table_with_its_players_and_progress(
    client, tournament, roster
):
    for player in roster(7):
        RegistrationFactory(tournament=tournament, player=player)
    series = series_draw(tournament=tournament, seed=3)
    first, second = series.tables.order_by("number")
    enter(first, sheet_rows(WORKED_EXAMPLE, first.size)[:5])
    cards = series_tables(series)
    assert [(c.number, c.size, c.played) for c in cards] == [
        (first.number, first.size, 5),
        (second.number, second.size, 0),
    ]
    html = client.get(
        reverse("series_detail", kwargs={"tournament": tournament.slug, "series": 1})
    ).content.decode()
    for table, played in ((first, 5), (second, 0)):
        url = reverse(
            "table_detail",
            kwargs={"tournament": tournament.slug, "series": 1, "table": table.number},
        )
        assert f'<a href="{url}">Table {table.number}</a>' in html
        assert f"{played}/{tournament.games_per_series(table.size)}</span>" in html
        for seat in table.seats.select_related("player"):
            player = seat.player
            assert f'<li><a href="{player.get_absolute_url()}">{player.name}</a></li>' in html
    assert "closed</span>" not in html.split('<div class="grid">')[1]


def test_a_closed_table_is_marked_on_the_series_page(client, tournament, series):
    table = series.tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    table_close(table=table)
    series_close(series=series)
    html = client.get(
        reverse("series_detail", kwargs={"tournament": tournament.slug, "series": 1})
    ).content.decode()
    assert '<span class="badge finished">closed</span>' in html.split('<div class="grid">')[1]


def test_the_progress_taken_from_the_standings_is_the_progress_read(tournament, roster):
    """`advance.standings_progress` (the progress of the series in play from the standings
    of the same version, no query) equals `series_progress` (read from the database): a
    closed series left out, tables of three and four, played to different lengths, a
    table not yet started."""
    for player in roster(7):
        RegistrationFactory(tournament=tournament, player=player)
    first = series_draw(tournament=tournament, seed=3)
    for table in first.tables.all():
        enter(table, sheet_rows(WORKED_EXAMPLE, table.size)[: table.size + 1])
        table_close(table=table, short_reason="the hall closes")
    second = series_draw(tournament=tournament, seed=4)
    series_close(series=first)
    third = series_draw(tournament=tournament, seed=5)
    for table, played in zip(second.tables.order_by("number"), (2, 5), strict=True):
        enter(table, sheet_rows(WORKED_EXAMPLE, table.size)[:played])
    tournament.refresh_from_db()
    computed = standings_computed(tournament)
    expected = series_progress(tournament)
    assert [p.number for p in expected] == [second.number, third.number]
    assert expected[0].played == 7 and expected[1].played == 0
    assert standings_progress(computed, tournament) == expected
    # And from standings advanced after a game (their seats as of the newer version).
    table = third.tables.order_by("number").first()
    enter(table, sheet_rows(WORKED_EXAMPLE, table.size)[:3])
    tournament.refresh_from_db()
    advanced = standings_advance(tournament, computed)
    assert advanced is not None
    assert standings_progress(advanced, tournament) == series_progress(tournament)
    assert standings_progress(advanced, tournament)[1].played == 3
