"""Rows and addresses shared by the entry tests: the phone's script sending a row (`send`),
the private link's addresses, the director's pages, and three rows for a 3-table."""

import json
import uuid

from django.urls import reverse
from django.utils import translation

from tournaments.entry.selectors import entry_link
from tournaments.models import SheetCopy, Table

# A 3-table: seat 1 deals game 1 and plays. Rules §1.3: grand with 2, won → 3 × 24 = 72.
GRAND = {"declarer": "2", "game": "grand", "matadors": "2", "won": "won", "bid": "20"}
CLUBS = {"declarer": "3", "game": "clubs", "matadors": "1", "card_points": "70", "bid": "18"}
NULL_LOST = {"declarer": "1", "game": "null", "won": "lost", "bid": "23"}


def en(name: str, **kwargs) -> str:
    with translation.override("en"):
        return reverse(name, kwargs=kwargs or None)


def link(token: str, what: str = "") -> str:
    return en(f"entry{what}", token=token)


def manage(name: str, table: Table, **extra) -> str:
    series = table.series
    return en(
        f"manage:{name}",
        tournament=series.tournament.slug,
        series=series.number,
        table=table.number,
        **extra,
    )


def next_number(token: str) -> int:
    """The game the phone behind `token` would enter next (1 for an unknown link)."""
    found = entry_link(token)
    if found is None:
        return 1
    table, keeper = found
    if keeper == 2:
        copy = SheetCopy.objects.filter(table=table).first()
        return len(copy.rows if copy else []) + 1
    return table.games.count() + 1


def send(client, token: str, data: dict, *, client_id=None, number=None):
    """The phone's script sending one row (JSON); `number` defaults to the next game."""
    number = next_number(token) if number is None else number
    body = {"client_id": str(client_id or uuid.uuid4()), "number": number, "data": data}
    return client.post(
        link(token, "_games"),
        json.dumps(body),
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )


def keys_both(phone, table, *rows):
    for row in rows:
        assert send(phone, table.entry_token, row).status_code == 201
        assert send(phone, table.entry_token_2, row).status_code == 201
