"""A North American tournament with tables of 3, 4 and 5 from the draw to the interchange.

Issue 14's "done when": drawn, keyed, printed, exported to the workbook and the interchange
and re-imported byte-identically, and its standings equal the plain sheet totals (rules
§3.6). Foster 1909: "Four or five persons can belong to the table, taking turns to sit out
for one deal, but still sharing in the fortunes of the hands that they do not actually
play" and "When five play, the dealer gives cards to the two players on his left and the
one on his right."
"""

import io
import json

import pytest
from openpyxl import load_workbook

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.exporters.helpers import pdf_pages
from tournaments.draw.services import series_draw
from tournaments.errors import UserError
from tournaments.exporters.sheets import ScoreSheetsPdf
from tournaments.exporters.workbook import TournamentWorkbook
from tournaments.interchange import InterchangeError, export_document, import_document
from tournaments.models import Game, Penalty, Seat, Table
from tournaments.sheets.selectors import table_sheet
from tournaments.sheets.services import game_record, penalty_law_record, penalty_record
from tournaments.standings.selectors import tournament_standings

# NA games of every kind, cycled down the sheets (rules §3.1-§3.5).
GAMES = [
    {"game": "tournee", "trump": "hearts", "matadors": 2, "card_points": 75},
    {"game": "solo", "trump": "clubs", "matadors": 1, "card_points": 40},
    {"game": "null", "won": False, "bid": 30},  # rules §3.4: overbid null → −40
    {"game": "passt_mir_nicht", "trump": "spades", "matadors": 1, "card_points": 50},
    {"game": "grand_guckser", "matadors": 2, "card_points": 95},
    {"game": "ramsch", "ramsch": "no_trick"},
]


def first_with_cards(table: Table, number: int) -> int:
    out = table.sitting_out(number)
    return next(seat for seat in range(1, table.size + 1) if seat not in out)


def key_sheet(table: Table, count: int):
    for number in range(1, count + 1):
        row = dict(GAMES[(number + table.number) % len(GAMES)])
        row["declarer"] = first_with_cards(table, number)
        game_record(table=table, data=row)


@pytest.fixture
def five_tables(club):
    tournament = TournamentFactory(
        club=club,
        name="Tournée of 3, 4 and 5",
        slug="tournee-345",
        rules="na",
        five_tables=True,
        ramsch_tie_both_win=True,
    )
    players = [PlayerFactory(club=club, name=f"Spieler {n:02}") for n in range(1, 12)]
    for player in players[:9]:
        RegistrationFactory(tournament=tournament, player=player)
    first = series_draw(tournament=tournament, seed=7)  # 9 players: a 4- and a 5-table
    for player in players[9:]:
        RegistrationFactory(tournament=tournament, player=player)
    second = series_draw(tournament=tournament, seed=8)  # 11 players: 4, 4 and 3
    return tournament, first, second


def test_the_draw_forms_tables_of_three_four_and_five(five_tables):
    tournament, first, second = five_tables
    assert sorted(t.size for t in first.tables.all()) == [4, 5]
    assert sorted(t.size for t in second.tables.all()) == [3, 4, 4]
    assert all(seat.table_size == seat.table.size for seat in Seat.objects.all())


def test_a_tournament_of_tables_of_three_four_and_five_from_sheet_to_document(five_tables):
    tournament, first, second = five_tables
    five = first.tables.get(size=5)
    for table in [*first.tables.all(), *second.tables.all()]:
        key_sheet(table, 12)
    # Who sits out cannot declare: at a 5-table the seat third after the dealer too.
    number = five.games.count() + 1
    out = sorted(five.sitting_out(number) - {five.dealer_of(number)})
    with pytest.raises(UserError, match=r"sits out game 13 \(rules §3\.6\)"):
        game_record(table=five, data={**GAMES[0], "declarer": out[0]})
    # Game 13: a ramsch in which two players with cards tie for the fewest points.
    with_cards = [s for s in range(1, 6) if s not in five.sitting_out(13)]
    tie = {"declarer": with_cards[0], "ramsch_tie": with_cards[1]}
    game_record(table=five, data={"game": "ramsch", "ramsch": "fewest_points", **tie})
    penalty_record(table=five, seat=2, points=-10, reason="misdeal")
    # Law 7 at the value of a won game: charge an opponent who held cards.
    won = five.games.filter(is_won=True).order_by("number").first()
    opponent = next(
        s for s in range(1, 6) if s != won.declarer and s not in five.sitting_out(won.number)
    )
    (charge,) = penalty_law_record(table=five, number=won.number, seat=opponent, law=7)
    assert charge.points == -won.value

    # Printed: the blank sheets of the series and the filled 5-table.
    blank = "\n".join(pdf_pages(ScoreSheetsPdf.blank(first).render()))
    assert "Seat 5" in blank and "at a 5-table the dealer and the seat marked" in blank
    filled = pdf_pages(ScoreSheetsPdf.filled(five).render())[0]
    assert "Overbid null" in filled
    for seat in five.seats.select_related("player"):
        assert seat.player.name in filled

    # The workbook: every game with its seats without cards, the Rules sheet.
    book = load_workbook(io.BytesIO(TournamentWorkbook(tournament).render()), read_only=True)
    games = list(book["Games"].iter_rows(values_only=True))
    head = {title: index for index, title in enumerate(games[0])}
    assert len(games) - 1 == Game.objects.filter(table__series__tournament=tournament).count()
    five_rows = [r for r in games[1:] if (r[head["Series"]], r[head["Table"]]) == (1, five.number)]
    assert five_rows[0][head["Seats without cards"]] == "1, 4"  # deal 1: seats 1 and 4
    rules = {row[0]: row[1] for row in book["Rules"].iter_rows(min_row=2, values_only=True)}
    assert rules["Games per series (players: games)"] == "3: 36, 4: 48, 5: 60"
    assert "next multiple of its value" in rules["Overbid null"]

    # Standings are the plain sheet totals (rules §3.6): declared scores plus penalties.
    sheet_totals: dict[int, int] = {}
    for table in Table.objects.filter(series__tournament=tournament):
        for line in table_sheet(table).summary:
            sheet_totals[line.player_id] = sheet_totals.get(line.player_id, 0) + line.list_points
    standings = tournament_standings(tournament)
    assert {row.player_id: row.list_points for row in standings} == sheet_totals
    assert {row.player_id: row.game_points for row in standings} == sheet_totals
    games = Game.objects.filter(table__series__tournament=tournament)
    total = sum(g.score * (2 if g.ramsch_tie else 1) for g in games)
    total += sum(p.points for p in Penalty.objects.filter(table__series__tournament=tournament))
    assert sum(sheet_totals.values()) == total

    # The interchange: written field for field, imported, written again byte for byte.
    document = export_document(tournament)
    assert document["tournament"]["games_per_series"] == {"3": 36, "4": 48, "5": 60}
    sizes = sorted(len(t["seats"]) for s in document["series"] for t in s["tables"])
    assert sizes == [3, 4, 4, 4, 5]
    penalties = [
        p for s in document["series"] for t in s["tables"] for p in t.get("penalties", [])
    ]
    (five_entry,) = [t for t in document["series"][0]["tables"] if t["number"] == five.number]
    ramsch_13 = five_entry["games"][12]
    assert ramsch_13["ramsch"] == [
        {"seat": tie["declarer"], "result": "fewest_points"},
        {"seat": tie["ramsch_tie"], "result": "fewest_points"},
    ]
    assert document["tournament"]["ramsch_tie_both_win"] is True
    law_entry = {"seat": opponent, "points": -won.value, "game": won.number, "law": 7}
    assert law_entry.items() <= penalties[1].items()
    text = json.dumps(document, ensure_ascii=False, indent=1)
    copy = import_document(json.loads(text), club=tournament.club, replace=True)
    assert json.dumps(export_document(copy), ensure_ascii=False, indent=1) == text
    # A penalty at a game's value must say what the engine charges.
    tampered = json.loads(text)
    (entry,) = [t for t in tampered["series"][0]["tables"] if t["number"] == five.number]
    entry["penalties"][1]["points"] = -1
    with pytest.raises(InterchangeError, match=r"points must be -\d+: law 7 at the value of game"):
        import_document(tampered, club=tournament.club)
    assert [(r.player_name, r.list_points) for r in tournament_standings(copy)] == [
        (r.player_name, r.list_points) for r in standings
    ]


def test_ispa_tournaments_keep_tables_of_three_and_four(tournament, roster):
    for player in roster(9):
        RegistrationFactory(tournament=tournament, player=player)
    series = series_draw(tournament=tournament, seed=1)
    assert sorted(t.size for t in series.tables.all()) == [3, 3, 3]


def test_an_interchange_document_may_not_seat_five_at_an_ispa_table(tournament, roster):
    document = {
        "format": "skat-tournament/1",
        "tournament": {"name": "X", "date": "2026-11-21", "rules": "ispa"},
        "players": [{"id": f"p{n}", "name": f"P {n}"} for n in range(1, 6)],
        "series": [
            {"number": 1, "tables": [{"number": 1, "seats": ["p1", "p2", "p3", "p4", "p5"]}]}
        ],
    }
    with pytest.raises(Exception, match="a table has 3 or 4 seats, not 5"):
        import_document(document, club="Club")
    document["tournament"]["games_per_series"] = {"5": 60}
    with pytest.raises(Exception, match=r'tables of five \(games_per_series "5"\) are for na'):
        import_document(document, club="Club")
