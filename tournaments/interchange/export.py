"""Export: a tournament as a `skat-tournament/1` document, read from the database."""

from __future__ import annotations

from collections import defaultdict

from tournaments.games import game_mapping_of
from tournaments.interchange import table_rules
from tournaments.interchange.archive_export import archive_export
from tournaments.interchange.common import FORMAT, GAME_BATCH
from tournaments.models import (
    Game,
    GameType,
    Penalty,
    Player,
    Registration,
    Seat,
    Table,
    Tournament,
)


def _players_of(tournament: Tournament) -> list[Player]:
    """Registered players and seated players no longer registered, by name then pk."""
    ids = set(
        Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True)
    )
    ids.update(
        Seat.objects.filter(series__tournament=tournament).values_list("player_id", flat=True)
    )
    players = Player.objects.filter(pk__in=ids).select_related("club")
    return sorted(players, key=lambda p: (p.name, p.pk))


def _export_game(game: Game) -> dict:
    data = game_mapping_of(game)
    if game.game != GameType.RAMSCH:
        return data
    # The row stores the scored seat as `declarer`; the document names it in `ramsch`.
    seat = data.pop("declarer")
    result = data.pop("ramsch")
    data["ramsch"] = [{"seat": seat, "result": result}]
    if "ramsch_tie" in data:  # a tie for the fewest points: both seats scored alike
        data["ramsch"].append({"seat": data.pop("ramsch_tie"), "result": result})
    return data


def player_ids(tournament: Tournament) -> dict[int, str]:
    """The document's player ids ("p1", "p2", …) by player pk: registered and seated
    players by name then pk. The ids stay while the tournament's `layout` stays."""
    return _ids(_players_of(tournament))


def _ids(players: list[Player]) -> dict[int, str]:
    return {player.pk: f"p{i}" for i, player in enumerate(players, start=1)}


def table_objects(
    tournament: Tournament, ids: dict[int, str], *, table_ids: list[int] | None = None
) -> dict[int, tuple[int, dict]]:
    """The tables' objects of the document's `series[].tables[]`, each with its series' pk,
    by table pk in the tables' order: all the tournament's tables, or those of `table_ids`
    (a publishing batch's sheets)."""
    only = {} if table_ids is None else {"table_id__in": table_ids}
    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for table_id, number, player_id in Seat.objects.filter(
        series__tournament=tournament, **only
    ).values_list("table_id", "number", "player_id"):
        seats[table_id].append((number, player_id))

    games: dict[int, list[dict]] = defaultdict(list)
    for game in (
        Game.objects.filter(table__series__tournament=tournament, **only)
        .order_by("table_id", "number")
        .iterator(chunk_size=GAME_BATCH)
    ):
        games[game.table_id].append(_export_game(game))

    penalties: dict[int, list[dict]] = defaultdict(list)
    numbers = dict(
        Game.objects.filter(table__series__tournament=tournament, penalties__isnull=False, **only)
        .values_list("pk", "number")
        .distinct()
    )
    for penalty in Penalty.objects.filter(table__series__tournament=tournament, **only).order_by(
        "table_id", "id"
    ):
        penalties[penalty.table_id].append(table_rules.export_penalty(penalty, numbers))

    tables = Table.objects.filter(series__tournament=tournament)
    if table_ids is not None:
        tables = tables.filter(pk__in=table_ids)
    objects = {}
    for table in tables.order_by("number"):
        entry = {
            "number": table.number,
            "seats": [ids[player_id] for _number, player_id in sorted(seats[table.pk])],
            "games": games[table.pk],
        }
        # `penalties` is optional in the contract: written only when there are some.
        if penalties[table.pk]:
            entry["penalties"] = penalties[table.pk]
        objects[table.pk] = (table.series_id, entry)
    return objects


def export_document(tournament: Tournament, *, archive: bool = True) -> dict:
    """The whole tournament as a `skat-tournament/1` document (key order of the contract).

    With `archive` (the default) the document also carries the optional `archive` object
    (`interchange.archive`): money, history, provisional and double-entry state, draw seeds.
    """
    players = _players_of(tournament)
    ids = _ids(players)
    tables: dict[int, list[dict]] = defaultdict(list)
    for series_id, entry in table_objects(tournament, ids).values():
        tables[series_id].append(entry)

    document = {
        "format": FORMAT,
        "tournament": {
            "name": tournament.name,
            "date": tournament.date.isoformat(),
            "rules": tournament.rules,
            "list_scoring": tournament.list_scoring,
            "bonus": {
                "won": tournament.bonus_won,
                "lost": tournament.bonus_lost,
                "others_3": tournament.bonus_others_3,
                "others_4": tournament.bonus_others_4,
            },
            "games_per_series": table_rules.export_lengths(tournament),
            "kontra": tournament.kontra_allowed,
            **table_rules.export_rules(tournament),
        },
        "players": [
            {
                "id": ids[player.pk],
                "name": player.name,
                "club": player.club.name if player.club else None,
                "team": player.team or None,
            }
            for player in players
        ],
        "series": [
            {"number": series.number, "tables": tables[series.pk]}
            for series in tournament.series.order_by("number")
        ],
    }
    if archive:
        document["archive"] = archive_export(tournament, ids)
    return document
