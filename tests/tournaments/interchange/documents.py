"""Interchange documents the tests read: the example of interchange.md, two tables, the
rules §2 worked example; `counts` of the rows an import writes; two faults of a document
(`without_clubs`, `seated_twice`); `row_counts` of every table (nothing written by a
refused import), `text_of` a tournament as its exported document, and what a restore must
give back read from the database (`settings_of`, `fees_due_of`).

"""

import json

from django.apps import apps

from tournaments.interchange import export_document
from tournaments.models import Club, Game, Penalty, Player, Registration, Series, Table, Tournament
from tournaments.money.selectors import tournament_money


def contract_example():
    """The example of interchange.md, with the two players its table also seats."""
    return {
        "format": "skat-tournament/1",
        "tournament": {
            "name": "Herbstpreisskat 2026",
            "date": "2026-11-21",
            "rules": "ispa",
            "list_scoring": True,
            "bonus": {"won": 50, "lost": 50, "others_3": 40, "others_4": 30},
            "games_per_series": {"3": 36, "4": 48},
            "kontra": False,
        },
        "players": [
            {
                "id": "p1",
                "name": "Anna Schmidt",
                "club": "Skatfreunde Altenburg",
                "team": "Altenburg I",
            },
            {"id": "p2", "name": "Jörg Łukasz", "club": None, "team": None},
            {"id": "p3", "name": "Carla Weiß", "club": "Skatfreunde Altenburg", "team": None},
            {"id": "p4", "name": "Dieter Groß", "club": None, "team": None},
        ],
        "series": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": ["p1", "p2", "p3", "p4"],
                        "games": [
                            {
                                "declarer": 2,
                                "game": "grand",
                                "matadors": 2,
                                "card_points": 78,
                                "bid": 20,
                            },
                            {"game": "passed"},
                            {
                                "declarer": 1,
                                "game": "null",
                                "ouvert": True,
                                "won": False,
                                "bid": 46,
                            },
                        ],
                        "penalties": [{"seat": 3, "points": -10, "reason": "misdeal"}],
                    }
                ],
            }
        ],
    }


def two_table_document():
    """Eight players at two 4-tables, a few games each: the base for the error cases."""
    doc = contract_example()
    doc["players"] += [
        {"id": f"p{n}", "name": f"Spieler {n}", "club": "Skatfreunde Altenburg", "team": None}
        for n in range(5, 9)
    ]
    doc["series"][0]["tables"].append(
        {
            "number": 2,
            "seats": ["p5", "p6", "p7", "p8"],
            "games": [
                {"declarer": 3, "game": "clubs", "matadors": 1, "won": True},
                {"declarer": 1, "game": "hearts", "matadors": 2, "without": True, "won": True},
            ],
        }
    )
    return doc


def counts():
    return {
        model.__name__: model.objects.count()
        for model in (Club, Player, Tournament, Registration, Series, Table, Game, Penalty)
    }


def assign_declarers(games_by_seat: dict[int, list[dict]], size: int = 4) -> list[dict]:
    """A sheet order for these games in which the dealer never declares (rules §4)."""
    left = {seat: list(games) for seat, games in games_by_seat.items()}
    sheet = []
    for number in range(1, sum(len(g) for g in left.values()) + 1):
        dealer = (number - 1) % size + 1
        seat = max(
            (s for s in left if left[s] and not (size == 4 and s == dealer)),
            key=lambda s: (len(left[s]), -s),
        )
        sheet.append({"declarer": seat, **left[seat].pop()})
    return sheet


def game(kind, matadors, won):
    return {"game": kind, "matadors": matadors, "won": won}


# rules §2 worked example (preisskat.org): game points/won/lost per seat
# A +492/12/0, B +628/12/2, C +660/10/1, D −32/6/5 → A 1332, C 1320, B 1308, D 108.
WORKED_EXAMPLE_GAMES = {
    # 8 × grand with 1 (48) + 4 × diamonds with 2 (27) = 492
    1: [game("grand", 1, True)] * 8 + [game("diamonds", 2, True)] * 4,
    # 9 × grand with 2 (72) + 3 × hearts with 1 (20) − 2 × 2 × 20 = 628
    2: [game("grand", 2, True)] * 9
    + [game("hearts", 1, True)] * 3
    + [game("hearts", 1, False)] * 2,
    # 9 × grand with 2 (72) + hearts with 5 (60) − 2 × clubs with 1 (24) = 660
    3: [game("grand", 2, True)] * 9 + [game("hearts", 5, True)] + [game("clubs", 1, False)],
    # 4 × spades with 1 (22) + 2 × hearts with 2 (30) − 5 × 2 × diamonds with 1 (18) = −32
    4: [game("spades", 1, True)] * 4
    + [game("hearts", 2, True)] * 2
    + [game("diamonds", 1, False)] * 5,
}


def worked_example_document():
    doc = contract_example()
    for player, name in zip(doc["players"], "ABCD", strict=True):
        player["name"] = name
    table = doc["series"][0]["tables"][0]
    table["games"] = assign_declarers(WORKED_EXAMPLE_GAMES)
    del table["penalties"]
    return doc


# Two faults of a document, refused on import and by the command alike.
def without_clubs(doc):
    for player in doc["players"]:
        player["club"] = None


def seated_twice(doc):
    doc["series"][0]["tables"][1]["seats"][2] = "p4"


def row_counts() -> dict[str, int]:
    """The rows of every model of the app and of the users, by model."""
    models = [*apps.get_app_config("tournaments").get_models(), apps.get_model("auth", "User")]
    return {model.__name__: model.objects.count() for model in models}


def text_of(tournament) -> str:
    """The tournament's exported document as text."""
    return json.dumps(export_document(tournament), ensure_ascii=False, indent=2)


# The row's own bookkeeping (its id, when it was written, the caches' keys), not settings.
NOT_SETTINGS = {"id", "club", "season", "created", "version", "changed", "layout"}


def settings_of(tournament) -> dict:
    """Every setting a restore must give back, read from the database: the tournament's
    own fields, its club by name and its season by slug."""
    tournament = Tournament.objects.select_related("club", "season").get(pk=tournament.pk)
    values = {
        f.name: getattr(tournament, f.attname)
        for f in Tournament._meta.concrete_fields
        if f.name not in NOT_SETTINGS
    }
    values["club"] = tournament.club.name
    values["season"] = tournament.season.slug if tournament.season else None
    return values


def fees_due_of(tournament) -> dict:
    """What each player owes, paid and won, and the cash summary: the money page's figures
    (`money.selectors.tournament_money`), by player name."""
    money = tournament_money(Tournament.objects.get(pk=tournament.pk))
    return {
        "rows": [
            (
                r.player_name,
                r.club,
                r.category,
                r.lost_by_series,
                r.entry_fee,
                r.table_fees,
                r.lost_game_fees,
                r.paid_in,
                r.refunded,
                r.prizes_paid,
                r.total_due,
                r.balance,
            )
            for r in money.rows
        ],
        "prizes": [(p.title, p.amount, p.player_name, p.split) for p in money.prizes],
        "summary": money.summary,
    }
