"""What every page behind a table's phone link shares: `EntryLinkMixin` finds the table
and the keeper from the link's token and answers an unknown, revoked or closed link itself
(a friendly 404, or a 410 for a series closed before the tournament is published), with
the headers that keep a link private; it also builds what the phone shows (the sheet, its
rows and the state the page's script draws from).

`phone_texts` are the phone script's words in the page's language; `read_json` reads a
phone's body, never failing with a 500 on a bad one.
"""

import json
import uuid

from django.http import JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext as _

from tournaments.entry.selectors import CopyRow, copy_sheet, entry_link, sheet_copies_compare
from tournaments.entry.services import SECOND_KEEPER, client_id_entered
from tournaments.formats import describe
from tournaments.models import Series, Tournament
from tournaments.sheets.forms import GameRowForm, seats_of
from tournaments.sheets.selectors import Sheet, table_sheet

# A link must not leak through a Referer header, be indexed, or stay in a shared cache.
PRIVATE_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
    "Cache-Control": "no-store, private",
}


def phone_texts() -> dict:
    """What the phone's script writes, in the page's language ({n}, {seat}, {name}: filled
    in by the script)."""
    return {
        "deals": _("seat {seat} ({name}) deals"),
        "deals_out": _("seat {seat} ({name}) deals and sits out"),
        "deals_out_5": _("seat {seat} ({name}) deals; seats {seat} and {also} sit out"),
        "waiting": _("waiting to send"),
        "sending": _("sending…"),
        "refused": _("not entered"),
        "fix": _("Correct it"),
        "discard": _("Discard"),
        "offline": _(
            "No connection. {n} game(s) wait on this phone and are sent when it returns."
        ),
        "retry": _("Connection trouble. {n} game(s) wait on this phone; trying again…"),
        "sending_n": _("Sending {n} game(s)…"),
        "stuck": _("{n} game(s) not sent: correct or discard the first one below."),
        "gone": _(
            "This link no longer works: {n} game(s) typed here were not entered. Show them to "
            "the director, who enters them; do not type them again."
        ),
        "closed": _("The sheet is closed; {n} game(s) typed here were not entered."),
        "reload": _("Reload the page to go on; {n} game(s) wait on this phone."),
        "choose_game": _("Choose the game first."),
        "complete": _("All games of the series are entered."),
        "game": _("Game {n}"),
        "entered": _("✓ Game {n} is on the sheet."),
        "kept": _("Game {n} is kept on this phone and sent when the connection returns."),
        "queued": _("Game {n} is being sent…"),
        "with": _("with {n}"),
        "without": _("without {n}"),
        "points": _("{n} pts"),
        "bid": _("bid {n}"),
        "undo": _("Take back game {n}"),
        "undo_ask": _("Take back game {n}? It leaves the sheet; you can enter it again."),
        "undone": _("Game {n} was taken back."),
    }


# A phone's row is a flat object; anything nested deeper than this is not one.
MAX_JSON_DEPTH = 16


def read_json(raw: bytes):
    """The decoded body, or None when it is not JSON (bad bytes, bad syntax, nesting deep
    enough to exhaust the parser's recursion): every such body is a 400, never a 500."""
    if not raw:
        return {}
    depth = deepest = 0
    in_string = escaped = False
    # Count the nesting before parsing: a body of 100,000 "[" would otherwise recurse.
    # (Few brackets at all: no need to walk the bytes.)
    brackets = raw.count(b"[") + raw.count(b"{")
    for byte in raw if brackets > MAX_JSON_DEPTH else b"":
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_JSON_DEPTH:
                return None
        elif byte in (0x5D, 0x7D):
            depth -= 1
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None


def wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "") or (
        request.content_type == "application/json"
    )


class EntryLinkMixin:
    """`self.table` and `self.keeper` (1 or 2) from the link's token, or a 404 page."""

    def dispatch(self, request, *args, **kwargs):
        found = entry_link(kwargs["token"])
        if found is None:
            response = self.unknown_link(request, kwargs["token"])
        else:
            self.table, self.keeper = found
            self.series = self.table.series
            self.tournament = self.series.tournament
            if self.series.status == Series.Status.CLOSED and not self.tournament.published:
                response = self.series_closed(request, kwargs["token"])
            else:
                response = super().dispatch(request, *args, **kwargs)
        for header, value in PRIVATE_HEADERS.items():
            response[header] = value
        return response

    def unknown_link(self, request, token: str):
        message = _(
            "This link does not work (any more). Ask the tournament director for the new one."
        )
        if wants_json(request):
            stored = _stored_elsewhere(request) if request.method == "POST" else None
            if stored is not None:
                # The row went in before the link was revoked or reissued (its answer was
                # lost): say so, so that the phone does not offer it for entry again.
                return JsonResponse(
                    {
                        "ok": False,
                        "code": "gone_entered",
                        "number": stored,
                        "error": _(
                            "This link no longer works, but game %(n)s from this phone is "
                            "on the sheet."
                        )
                        % {"n": stored},
                    },
                    status=410,
                )
            return JsonResponse(
                {"ok": False, "code": "unknown_link", "error": message}, status=404
            )
        return render(
            request,
            "tournaments/entry/unknown.html",
            {
                "title": _("Link not valid"),
                "heading": _("This link does not work"),
                "message": message,
                "storage_key": token[:64],
                "texts": phone_texts(),
            },
            status=404,
        )

    def series_closed(self, request, token: str):
        """Once a series is closed its links take nothing more; the sheet stays on view only
        when the tournament is published (its results are public anyway)."""
        message = _(
            "This series is closed: its sheets take no more games. The results are shown "
            "once the tournament is published."
        )
        if wants_json(request):
            return JsonResponse({"ok": False, "code": "closed", "error": message}, status=410)
        return render(
            request,
            "tournaments/entry/unknown.html",
            {
                "title": _("Series closed"),
                "heading": _("This series is closed"),
                "message": message,
                "storage_key": token[:64],
                "texts": phone_texts(),
            },
        )

    @property
    def second_copy(self) -> bool:
        return self.keeper == SECOND_KEEPER

    @cached_property
    def is_open(self) -> bool:
        return (
            self.tournament.status != Tournament.Status.FINISHED
            and self.series.status == Series.Status.OPEN
            and not self.table.closed
        )

    @cached_property
    def seats(self):
        return seats_of(self.table)

    @cached_property
    def sheet(self) -> Sheet:
        if self.second_copy:
            return copy_sheet(self.table)
        return table_sheet(self.table, blank_rows=False)

    @cached_property
    def compare(self) -> list[CopyRow]:
        if not self.tournament.double_entry:
            return []
        return sheet_copies_compare(self.table)

    @property
    def next_number(self) -> int:
        return max((row.number for row in self.sheet.rows), default=0) + 1

    def urls(self) -> dict:
        token = self.kwargs["token"]
        return {
            name: reverse(f"entry{suffix}", kwargs={"token": token})
            for name, suffix in (
                ("page", ""),
                ("games", "_games"),
                ("preview", "_preview"),
                ("state", "_state"),
                ("confirm", "_phone_confirm"),
                ("undo", "_undo"),
            )
        }

    def row_form(self, data=None, number: int | None = None) -> GameRowForm:
        form = GameRowForm(
            data,
            table=self.table,
            tournament=self.tournament,
            number=number or self.next_number,
            seats=self.seats,
        )
        # On a phone the first tap decides where to start; no keyboard popping up at once.
        form.fields["declarer"].widget.attrs.pop("autofocus", None)
        return form

    # The sheet as the phone shows it --------------------------------------------------

    def can_confirm(self) -> bool:
        """The second keeper may confirm once both copies agree on every row."""
        return (
            self.second_copy
            and self.series.status == Series.Status.OPEN
            and not any(row.unsettled for row in self.compare)
            and any(row.first_game and row.first_game.provisional for row in self.compare)
        )

    def rows(self) -> list[dict]:
        names = {seat.number: seat.player.name for seat in self.seats}
        disputed = {row.number for row in self.compare if row.disputed}
        rows = []
        for row in self.sheet.rows:
            game = row.game
            rows.append(
                {
                    "number": row.number,
                    "dealer": row.dealer,
                    "declarer": game.declarer if game else None,
                    "declarer_name": names.get(game.declarer, "") if game else "",
                    "description": describe(game) if game else _("(this row no longer checks)"),
                    "value": game.value if game else None,
                    "score": game.score if game else None,
                    "running": {str(k): v for k, v in row.running.items()},
                    "total": row.running.get(game.declarer) if game and game.declarer else None,
                    "provisional": bool(game and game.provisional) or self.second_copy,
                    "disputed": row.disputed or row.number in disputed,
                }
            )
        return rows

    def state(self) -> dict:
        """What the phone shows, as JSON: the page's script draws the sheet from it."""
        sheet = self.sheet
        rows = self.rows()
        number = self.next_number
        complete = number > sheet.length
        dealer = self.table.dealer_of(number)
        names = {seat.number: seat.player.name for seat in self.seats}
        context = {
            "sheet": sheet,
            "rows": list(reversed(rows)),
            "keeper": self.keeper,
            "second_copy": self.second_copy,
            "can_confirm": self.can_confirm(),
            "differing": [row.number for row in self.compare if row.disputed],
            "urls": self.urls(),
            "table": self.table,
            "tournament": self.tournament,
        }
        return {
            "open": self.is_open,
            "keeper": self.keeper,
            "length": sheet.length,
            "played": len(rows),
            "next": None
            if complete
            else {
                "number": number,
                "dealer": dealer,
                "dealer_name": names.get(dealer, ""),
                "sits_out": self.table.size >= 4,
                "also_out": self.table.also_out(number),
            },
            "rows": rows,
            "summary": [
                {
                    "seat": line.seat,
                    "name": line.player_name,
                    "game_points": line.game_points,
                    "list_points": line.list_points,
                    "won": line.won,
                    "lost": line.lost,
                }
                for line in sheet.summary
            ],
            "can_confirm": context["can_confirm"],
            "html": render_to_string(
                "tournaments/entry/_sheet.html", context, request=self.request
            ),
            "totals_html": render_to_string(
                "tournaments/entry/_totals.html", context, request=self.request
            ),
        }


def _stored_elsewhere(request) -> int | None:
    """The game number of a phone row (JSON body's client_id) already on a sheet, if any."""
    body = read_json(request.body)
    try:
        client_id = uuid.UUID(str(body.get("client_id")))
    except (ValueError, TypeError, AttributeError):
        return None
    return client_id_entered(client_id)
