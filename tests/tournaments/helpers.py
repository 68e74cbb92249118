"""Test data, sheet builders and page readers shared by the tournaments tests.

- `GRAND`: a won grand with 2 (declarer seat 2, 78 card points, bid 20), worth 72;
- `WORKED_EXAMPLE`, `sheet_rows`, `enter`: the rules §2 worked series, entered in an order
  in which nobody declares while dealing;
- `USERS`: the cast of tests/conftest.py, from nobody signed in to the club's secretary;
- `form_posting`, `FormFields`: what the forms of a rendered page post.
"""

from html.parser import HTMLParser

from tournaments.sheets.services import game_record

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
