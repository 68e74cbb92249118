"""The projector in the hall, in a real browser at 1920 × 1080 and at 1280 × 720.

Each page of the standings fits the screen (the script asks for as many rows as fit), the
pages turn through every rank in turn, the page is dark down to the screen's bottom edge,
and a QR code leads to the public standings.

Playwright drives Debian's chromium (/usr/bin/chromium; `playwright install` is never
used). Its sync API runs an event loop in this thread, hence DJANGO_ALLOW_ASYNC_UNSAFE.
"""

import io

import pytest

from tests.browser.conftest import en
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.draw.services import series_draw

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = 61


@pytest.fixture
def hall(db):
    club = ClubFactory(name="Skatfreunde Altenburg")
    tournament = TournamentFactory(club=club, name="Hallenturnier", slug="hallenturnier")
    for number in range(PLAYERS):
        player = PlayerFactory(club=club, name=f"Spielerin Nummer {number + 1:02d}")
        RegistrationFactory(tournament=tournament, player=player)
    series_draw(tournament=tournament, seed=3)
    return tournament


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_projector_shows_every_rank_in_turn_on_one_screen(
    live_server, browser, hall, width, height
):
    from PIL import Image

    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    page = context.new_page()
    projector = f"{live_server.url}{en('tournament_projector', tournament=hall.slug)}"
    page.goto(projector)
    page.wait_for_url(lambda url: "fit=1" in url)  # the script measured the screen
    page.wait_for_load_state("load")

    # Nobody has played yet, so everyone shares rank 1 (issue 12): follow the rows.
    seen: list[str] = []
    for _turn in range(PLAYERS):
        ranks = page.locator("tbody tr td:first-child").all_inner_texts()
        names = page.locator("tbody tr td:nth-child(2)").all_inner_texts()
        bottom = page.evaluate(
            "() => document.querySelector('.projector-standings tbody tr:last-child')"
            ".getBoundingClientRect().bottom"
        )
        assert bottom <= height, f"rank {ranks[-1]} is below the screen ({bottom} > {height})"
        assert page.evaluate("() => document.documentElement.scrollHeight") <= height
        seen += names
        following = page.locator("[data-projector]").get_attribute("data-next")
        if "page=1&" in following:
            break
        page.goto(f"{projector}{following}")
    assert len(seen) == len(set(seen)) == PLAYERS
    rows = int(page.locator("[data-projector]").get_attribute("data-rows"))
    # The screen is used: no more than a row's worth of room is left below the last rank.
    assert rows >= (12 if height == 720 else 20)

    # Dark down to the bottom edge: the screen's last line of pixels is the page's green.
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    for x in (5, width // 2, width - 5):
        assert max(shot.getpixel((x, height - 2))) < 40, shot.getpixel((x, height - 2))

    # The QR code leads to the public standings.
    caption = page.locator(".standings-qr figcaption").inner_text()
    assert f"{live_server.url}{en('tournament_detail', tournament=hall.slug)}" in caption
    assert page.locator(".standings-qr svg").count() == 1
    context.close()
