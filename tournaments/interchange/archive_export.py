"""The archive written: `archive_export` gives a tournament's optional `archive` object of
a `skat-tournament/1` document (its fields, terms and how it is read back: `archive`).

Every field is written: the tournament's own settings, the registrations, the money, each
series with its draw and its tables' history, provisional and double-entry state, and the
director's actions in time order (then id), each by a username.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from decimal import Decimal

from django.contrib.auth import get_user_model

from tournaments.interchange.archive import FEE_FIELDS
from tournaments.models import (
    ActionLog,
    Game,
    GameChange,
    Payment,
    Penalty,
    PenaltyChange,
    Player,
    Registration,
    SheetCopy,
    Table,
    Tournament,
)


def director_actions_export(tournament: Tournament, users: dict[int, str]) -> list | None:
    """The director's actions as archive entries, in time order."""
    actions = ActionLog.objects.filter(tournament=tournament).order_by("at", "id")
    missing = {a.user_id for a in actions if a.user_id is not None and a.user_id not in users}
    if missing:
        users = users | dict(
            get_user_model().objects.filter(pk__in=missing).values_list("pk", "username")
        )
    return [
        {
            "kind": action.kind,
            "at": _time(action.at),
            "by": users.get(action.user_id),
            "by_name": action.by_name,
            "series": action.series_number,
            "table": action.table_number,
            "details": action.details,
            "reason": action.reason,
        }
        for action in actions
    ]


def _amount(value: Decimal | None) -> str | None:
    """Two decimal places, as the fields store them (a fresh instance may hold 0 or 5)."""
    return None if value is None else f"{Decimal(value):.2f}"


def _time(value: datetime.datetime) -> str:
    return value.astimezone(datetime.UTC).isoformat()


def _usernames(*querysets) -> dict[int, str]:
    ids = set()
    for queryset in querysets:
        ids.update(pk for pk in queryset.values_list("user_id", flat=True) if pk is not None)
    return dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))


def archive_export(tournament: Tournament, ids: dict[int, str]) -> dict:
    """The archive of a tournament; `ids` maps player pks to the document's player ids."""
    tables = Table.objects.filter(series__tournament=tournament)
    game_changes = GameChange.objects.filter(table__in=tables).order_by("id")
    penalty_changes = PenaltyChange.objects.filter(table__in=tables).order_by("id")
    payments = Payment.objects.filter(registration__tournament=tournament).order_by("id")
    users = _usernames(game_changes, penalty_changes, payments)

    players = {
        pk: (category, number, listed)
        for pk, category, number, listed in Player.objects.filter(pk__in=ids).values_list(
            "pk", "category", "federation_number", "listed"
        )
    }
    registrations = Registration.objects.filter(tournament=tournament).values_list(
        "player_id", "lot"
    )
    season = tournament.season
    archive = {
        "tournament": {
            "slug": tournament.slug,
            "club": tournament.club.name,
            "season": None
            if season is None
            else {"slug": season.slug, "name": season.name, "teams_best_n": season.teams_best_n},
            "status": tournament.status,
            "published": tournament.published,
            "double_entry": tournament.double_entry,
            "team_best_n": tournament.team_best_n,
        },
        "players": [
            {
                "id": local,
                "category": players[pk][0],
                "federation_number": players[pk][1],
                # Only for a player not listed publicly: other archives stay as they were.
                **({} if players[pk][2] else {"listed": False}),
            }
            for pk, local in ids.items()
        ],
        "registrations": sorted(
            ({"player": ids[pk], "lot": lot} for pk, lot in registrations),
            key=lambda r: int(r["player"][1:]),
        ),
        "money": {
            "currency": tournament.currency,
            **{name: _amount(getattr(tournament, name)) for name in FEE_FIELDS},
            "lost_game_fee_from": tournament.lost_game_fee_from,
            "prizes_split_ties": tournament.prizes_split_ties,
            "prizes": [
                {
                    "scope": prize.scope,
                    "series": prize.series_number,
                    "category": prize.category,
                    "rank": prize.rank,
                    "amount": _amount(prize.amount),
                    "share": _amount(prize.share),
                }
                for prize in tournament.prizes.order_by(
                    "scope", "series_number", "category", "rank"
                )
            ],
            "payments": [
                {
                    "player": ids[payment.registration.player_id],
                    "kind": payment.kind,
                    "amount": _amount(payment.amount),
                    "note": payment.note,
                    "at": _time(payment.at),
                    "by": users.get(payment.user_id),
                }
                for payment in payments.select_related("registration")
            ],
        },
        "series": _series_export(tournament, tables, game_changes, penalty_changes, users),
    }
    actions = director_actions_export(tournament, users)
    if actions is not None:
        archive["director_actions"] = actions
    return archive


def archive_tables(tournament: Tournament, table_ids: list[int]) -> dict[int, dict]:
    """The named tables' entries of the archive's `series[].tables[]` (closed, paper
    totals, provisional games, phones' ids, second copy, the games' and penalties'
    history), by table pk: computed as `archive_export` computes them for the document."""
    tables = Table.objects.filter(series__tournament=tournament, pk__in=table_ids)
    game_changes = GameChange.objects.filter(table__in=tables).order_by("id")
    penalty_changes = PenaltyChange.objects.filter(table__in=tables).order_by("id")
    users = _usernames(game_changes, penalty_changes)
    series = _series_export(tournament, tables, game_changes, penalty_changes, users)
    pks = {
        (series_number, number): pk
        for pk, series_number, number in tables.values_list("pk", "series__number", "number")
    }
    return {
        pks[(entry["number"], table["number"])]: table
        for entry in series
        for table in entry["tables"]
    }


def _series_export(tournament, tables, game_changes, penalty_changes, users) -> list[dict]:
    provisional: dict[int, list[int]] = defaultdict(list)
    client_ids: dict[int, dict[str, str]] = defaultdict(dict)
    for table_id, number, is_provisional, client_id in (
        Game.objects.filter(table__in=tables)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "provisional", "client_id")
    ):
        if is_provisional:
            provisional[table_id].append(number)
        if client_id is not None:
            client_ids[table_id][str(number)] = str(client_id)
    copies = dict(SheetCopy.objects.filter(table__in=tables).values_list("table_id", "rows"))
    # A penalty change names its penalty by its place in the table's `penalties` (id order).
    penalty_index: dict[int, int] = {}
    per_table: dict[int, int] = defaultdict(int)
    for pk, table_id in (
        Penalty.objects.filter(table__in=tables)
        .order_by("table_id", "id")
        .values_list("pk", "table_id")
    ):
        penalty_index[pk] = per_table[table_id]
        per_table[table_id] += 1
    changes: dict[int, list[dict]] = defaultdict(list)
    for change in game_changes:
        changes[change.table_id].append(
            {
                "game": change.game_number,
                "action": change.action,
                "current": change.game_id is not None,
                "at": _time(change.at),
                "by": users.get(change.user_id),
                "diff": change.diff,
                "reason": change.reason,
            }
        )
    fines: dict[int, list[dict]] = defaultdict(list)
    for change in penalty_changes:
        fines[change.table_id].append(
            {
                "action": change.action,
                "penalty": penalty_index.get(change.penalty_id),
                "seat": change.seat,
                "points": change.points,
                "penalty_reason": change.penalty_reason,
                "at": _time(change.at),
                "by": users.get(change.user_id),
                "reason": change.reason,
            }
        )
    by_series: dict[int, list[dict]] = defaultdict(list)
    for table in tables.order_by("number"):
        by_series[table.series_id].append(
            {
                "number": table.number,
                "closed": table.closed,
                "paper_totals": table.paper_totals,
                "provisional": provisional[table.pk],
                "client_ids": client_ids[table.pk],
                "second_copy": copies.get(table.pk),
                "game_changes": changes[table.pk],
                "penalty_changes": fines[table.pk],
            }
        )
    return [
        {
            "number": series.number,
            "draw_seed": series.draw_seed,
            "draw_method": series.draw_method,
            "keep_apart": series.keep_apart,
            "status": series.status,
            "started": series.started,
            "tables": by_series[series.pk],
        }
        for series in tournament.series.order_by("number")
    ]
