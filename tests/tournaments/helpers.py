"""Test data, sheet builders and page readers shared by the tournaments tests.

- `GRAND`: a won grand with 2 (declarer seat 2, 78 card points, bid 20), worth 72;
- `WORKED_EXAMPLE`, `sheet_rows`, `enter`: the rules §2 worked series, entered in an order
  in which nobody declares while dealing;
- `USERS`: the cast of tests/conftest.py, from nobody signed in to the club's secretary;
- `form_posting`, `FormFields`: what the forms of a rendered page post;
- `complete_tournament`: a tournament with everything the archive and a backup keep.
"""

import re
from decimal import Decimal
from html import unescape
from html.parser import HTMLParser

from tests.factories import RegistrationFactory
from tournaments.draw.services import series_draw
from tournaments.entry.services import game_record_at_table, sheet_copy_record
from tournaments.models import Category
from tournaments.money.services import payment_record, prize_plan_replace, tournament_money_update
from tournaments.registry.services import registration_set_lots, season_create, tournament_update
from tournaments.sheets.selectors import table_seat_totals
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    penalty_delete,
    penalty_record,
    table_close,
)

# Rules §2 worked 4-table series (preisskat.org): game points/won/lost per seat
# A +492/12/0, B +628/12/2, C +660/10/1, D −32/6/5 → A 1332, C 1320, B 1308, D 108.
# Games chosen so that each seat's won games and lost games add up to those figures:
GRAND_1 = {"game": "grand", "matadors": 1, "won": True}  # 2 × 24 = 48
GRAND_2 = {"game": "grand", "matadors": 2, "won": True}  # 3 × 24 = 72
HEARTS_1 = {"game": "hearts", "matadors": 1, "won": True}  # 2 × 10 = 20
CLUBS_2 = {"game": "clubs", "matadors": 2, "won": True}  # 3 × 12 = 36
DIAMONDS_LOST = {"game": "diamonds", "matadors": 1, "won": False}  # −2 × 18 = −36
HEARTS_LOST = {"game": "hearts", "matadors": 1, "won": False}  # −2 × 20 = −40

WORKED_EXAMPLE = {
    1: [GRAND_1] * 9 + [HEARTS_1] * 3,  # 432 + 60 = +492, 12 won
    2: [GRAND_2] * 8 + [GRAND_1, CLUBS_2, HEARTS_1, HEARTS_1] + [DIAMONDS_LOST] * 2,
    # 576 + 124 − 72 = +628, 12 won 2 lost
    3: [GRAND_2] * 9 + [GRAND_1] + [DIAMONDS_LOST],  # 648 + 48 − 36 = +660, 10 won 1 lost
    4: [GRAND_1] + [HEARTS_1] * 5 + [DIAMONDS_LOST] * 5,  # 48 + 100 − 180 = −32, 6 won 5 lost
}


def sheet_rows(per_seat: dict[int, list[dict]], table_size: int) -> list[dict]:
    """Order the games so that nobody declares while dealing (the dealer sits out at 4)."""
    remaining = {seat: list(games) for seat, games in per_seat.items()}
    rows = []
    number = 1
    while any(remaining.values()):
        dealer = (number - 1) % table_size + 1
        candidates = [
            s for s, games in remaining.items() if games and (table_size == 3 or s != dealer)
        ]
        seat = max(candidates, key=lambda s: (len(remaining[s]), -s))
        rows.append({"declarer": seat, **remaining[seat].pop()})
        number += 1
    return rows


def enter(table, rows, user=None):
    return [game_record(table=table, data=row, user=user) for row in rows]


GRAND = {"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78, "bid": 20}
USERS = ["anonymous", "player", "other_club_secretary", "secretary"]


class FormFields(HTMLParser):
    """The fields each <form> of a page posts: {form index: [(name, value), ...]}."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._select = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"fields": [], "buttons": []})
        elif not self.forms:
            return
        elif tag == "input" and attrs.get("name"):
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                return
            self.forms[-1]["fields"].append((attrs["name"], attrs.get("value", "")))
        elif tag == "button" and attrs.get("name"):
            self.forms[-1]["buttons"].append((attrs["name"], attrs.get("value", "")))
        elif tag == "select":
            self._select = attrs["name"]
        elif tag == "option" and self._select and "selected" in attrs:
            self.forms[-1]["fields"].append((self._select, attrs.get("value", "")))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def form_posting(html: str, button: tuple[str, str]) -> dict[str, str]:
    """What the page's form with that submit button posts when the button is pressed."""
    parser = FormFields()
    parser.feed(html)
    for form in parser.forms:
        if button in form["buttons"]:
            return dict([*form["fields"], button])
    raise AssertionError(f"no form with the button {button}")


def complete_tournament(tournament, roster, user):
    """A tournament with everything the archive keeps (tests of the archive and backup).

    A league season and categories; double entry; fees, a prize plan and payments; a seeded
    draw of seven players (a 4-table and a 3-table) with lots; the 4-table's worked sheet
    closed against the paper totals; at the 3-table a correction, a deleted game, a kept
    and a deleted penalty, provisional rows from the phone and a second copy that differs
    from them (a disputed row). `user` makes the secretary's writes.
    """
    season = season_create(club=tournament.club, name="Liga 2026", teams_best_n=2)
    tournament = tournament_update(
        tournament=tournament, season=season, double_entry=True, team_best_n=3
    )
    players = roster(7)
    for index, player in enumerate(players):
        player.category = Category.LADIES if index % 3 == 0 else ""
        player.federation_number = f"DSKV-{index:04d}"
        player.team = "Altenburg I" if index < 4 else ""
        player.save()
        RegistrationFactory(tournament=tournament, player=player)
    registration_set_lots(tournament=tournament, lots={players[0].pk: 2, players[1].pk: 1})
    series = series_draw(tournament=tournament, seed=918_273_645, keep_apart="club")
    four = series.tables.get(size=4)
    three = series.tables.get(size=3)

    enter(four, sheet_rows(WORKED_EXAMPLE, 4), user=user)
    totals = {line.seat: line.list_points for line in table_seat_totals(four)}
    table_close(table=four, paper_totals=totals, user=user)

    first, second = enter(three, [GRAND | {"declarer": 1}, GRAND], user=user)
    game_correct(game=first, data=GRAND | {"declarer": 3}, user=user, reason="wrong seat")
    (third,) = enter(three, [GRAND], user=user)
    game_delete(game=third, user=user, reason="entered twice")
    penalty_record(table=three, seat=2, points=-10, reason="misdeal", user=user)
    gone = penalty_record(table=three, seat=1, points=-5, reason="late", user=user)
    penalty_delete(penalty=gone, user=user, reason="not late after all")
    rows = [GRAND | {"declarer": 1}, {"game": "passed"}]
    for number, data in enumerate(rows, start=3):
        game_record_at_table(
            table=three, data=data, client_id=f"00000000-0000-4000-8000-00000000000{number}"
        )
    copy = [GRAND | {"declarer": 3}, GRAND, GRAND | {"declarer": 2}, {"game": "passed"}]
    for number, data in enumerate(copy, start=1):
        sheet_copy_record(
            table=three, data=data, client_id=f"00000000-0000-4000-9000-00000000000{number}"
        )

    tournament_money_update(
        tournament=tournament,
        entry_fee=Decimal("10"),
        table_fee=Decimal("1.50"),
        lost_game_fee=Decimal("0.50"),
        lost_game_fee_from=4,
        lost_game_fee_high=Decimal("1"),
    )
    prize_plan_replace(
        tournament=tournament,
        prizes=[
            {"scope": "overall", "rank": 1, "share": Decimal("50")},
            {"scope": "overall", "rank": 2, "amount": Decimal("5")},
            {"scope": "series", "series_number": 1, "rank": 1, "amount": Decimal("3")},
            {"scope": "category", "category": "ladies", "rank": 1, "amount": Decimal("2")},
        ],
    )
    for registration in tournament.registrations.all()[:3]:
        payment_record(registration=registration, kind="fees", amount="11.50", user=user)
    payment_record(
        registration=tournament.registrations.first(),
        kind="prize",
        amount="5",
        note="2nd place",
        user=user,
    )
    tournament.refresh_from_db()
    return tournament


def confirmation_posting(page: str) -> tuple[str, dict[str, list[str]]]:
    """Where the button of a confirmation page (`shared_views.confirmation_page`) posts and
    what: the fields of the form that asked, and `confirmed`."""
    found = re.search(
        r'<form method="post" action="([^"]*)" class="card" id="confirm-action">', page
    )
    assert found, "no confirmation page"
    parser = FormFields()
    parser.feed(page)
    fields = next(form["fields"] for form in parser.forms if ("confirmed", "1") in form["fields"])
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(unescape(value))
    return unescape(found.group(1)), data
