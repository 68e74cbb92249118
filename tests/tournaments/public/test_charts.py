"""The player's SVG chart lays out the figures it is given."""

import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tournaments.public.charts import points_chart

SVG = "{http://www.w3.org/2000/svg}"


def test_one_bar_per_series_negative_in_red():
    svg = ET.fromstring(points_chart([("S1", 1332), ("S2", -120), ("S3", 0)]))
    bars = svg.findall(f"{SVG}rect")
    assert len(bars) == 3
    assert [b.find(f"{SVG}title").text for b in bars] == ["S1: 1332", "S2: -120", "S3: 0"]
    assert bars[1].get("fill") == "#b3261e" and bars[0].get("fill") == "#1f6f43"
    # the positive bar rises above the zero line, the negative one hangs below it
    assert float(bars[0].get("y")) < float(bars[1].get("y"))
    assert svg.find(f"{SVG}polyline") is not None


def test_no_series_no_chart():
    assert points_chart([]) == ""


def test_names_are_escaped():
    svg = points_chart([("<b>", 5)])
    assert "<b>" not in svg and "&lt;b&gt;" in svg


@pytest.mark.django_db
def test_player_page_shows_the_chart(client, seated_series):
    table = seated_series(4).tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    player = table.seats.get(number=1).player
    html = client.get(reverse("player_detail", kwargs={"pk": player.pk})).content.decode()
    assert "<svg" in html and ": 1332</title>" in html


def test_labels_grow_on_a_phone_with_the_viewbox():
    # 640 units shown 330 px wide on a 390 px phone: 11-unit text would be 5–6 px there.
    svg = ET.fromstring(points_chart([("S1", 10)]))
    style = svg.find(f"{SVG}style").text
    assert "font-size: 11px" in style and "(max-width: 640px)" in style
    assert "font-size: 21px" in style  # 11 × 640 / 330
    narrow = ET.fromstring(points_chart([("S1", 10)], width=330)).find(f"{SVG}style").text
    assert narrow.count("font-size: 11px") == 2  # shown at its own size: no need to grow


def test_a_phone_shows_fewer_x_labels_than_a_wide_screen():
    svg = ET.fromstring(points_chart([(f"21.11. S{n}", n) for n in range(1, 13)]))
    labels = [t for t in svg.findall(f"{SVG}text") if t.text.startswith("21.11.")]
    on_phone = [t for t in labels if t.get("class") != "wide-only"]
    assert 0 < len(on_phone) < len(labels) <= 12
    assert labels[0] in on_phone  # the first label always shows


def test_the_form_chart_draws_the_moving_average_it_is_given():
    import datetime
    from types import SimpleNamespace

    from tournaments.public.charts import FORM_SHOWN, form_chart

    day = SimpleNamespace(date=datetime.date(2026, 11, 21))
    points = [
        SimpleNamespace(tournament=day, series_number=n, scaled=100.0 * n, moving=50.0)
        for n in range(1, FORM_SHOWN + 6)
    ]
    svg = ET.fromstring(form_chart(points))
    bars = svg.findall(f"{SVG}rect")
    assert len(bars) == FORM_SHOWN  # the last ones only
    assert (
        bars[-1].find(f"{SVG}title").text
        == f"11/21/2026 S{FORM_SHOWN + 5}: {100 * (FORM_SHOWN + 5)}"
    )
    # The line is the moving average: flat at 50 for every bar.
    ys = {pair.split(",")[1] for pair in svg.find(f"{SVG}polyline").get("points").split()}
    assert len(ys) == 1
    assert form_chart([]) == ""
