"""What the hall's tests share: sheets of many games, and a stand-in public site that
answers batches as protocol `skat-publish/1` says (on loopback, in a thread)."""

from __future__ import annotations

import gzip
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.tournaments.helpers import enter


def grand(number: int) -> dict:
    """Game `number` of a 4-table: a won grand declared by the seat after the dealer."""
    return {"declarer": number % 4 + 1, "game": "grand", "matadors": 2, "card_points": 78}


def fill(table, games: int, start: int = 1):
    return enter(table, [grand(n) for n in range(start, start + games)])


ARCHIVE_PARTS = (
    "closed",
    "paper_totals",
    "provisional",
    "client_ids",
    "second_copy",
    "game_changes",
    "penalty_changes",
)


def plain_sheet(sheet: dict) -> dict:
    """A batch's sheet as the document's table object (its archive entry left out)."""
    return {k: v for k, v in sheet.items() if k not in ARCHIVE_PARTS}


def archive_part(sheet: dict) -> dict:
    """A batch's sheet's archive entry, as the document's `archive.series[].tables[]`."""
    return {k: v for k, v in sheet.items() if k in ("number", *ARCHIVE_PARTS)}


class FakePublicSite:
    """A public site's publishing endpoint, answering as the protocol says.

    `copy`: the hall version held; `tables`: (series, table) → the table's object, from the
    last document and the sheets since; `applied`: (base, version) of every batch applied;
    `drops`: the next requests' fates: "before" (connection dropped, nothing applied) or
    "after" (applied, then dropped before the answer). `keys`: the keys it accepts.
    """

    def __init__(self, keys=("good-key",)):
        self.keys = set(keys)
        self.copy = 0
        self.hall = None
        self.document = None
        self.tables: dict[tuple[int, int], dict] = {}
        self.applied: list[tuple[int, int]] = []
        self.received: list[dict] = []
        self.drops: list[str] = []
        self.lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.headers.get("Content-Encoding") == "gzip":
                    raw = gzip.decompress(raw)
                with site.lock:
                    fate = site.drops.pop(0) if site.drops else None
                    if fate == "before":
                        return self._drop()
                    status, answer = site.answer(self.headers.get("Authorization", ""), raw)
                    if fate == "after":
                        return self._drop()
                body = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _drop(self):
                self.close_connection = True
                self.connection.close()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def answer(self, authorization: str, raw: bytes) -> tuple[int, dict]:
        key = authorization.removeprefix("Bearer ")
        if not authorization.startswith("Bearer ") or key not in self.keys:
            return 403, {"version": self.copy, "detail": "Unknown publishing key."}
        try:
            batch = json.loads(raw)
        except ValueError:
            return 400, {"version": self.copy, "detail": "Not JSON."}
        if batch.get("format") != "skat-publish/1":
            return 400, {"version": self.copy, "detail": "Not a skat-publish/1 batch."}
        self.received.append(batch)
        if self.hall == batch["hall"] and batch["version"] <= self.copy:
            return 200, {"version": self.copy, "applied": False}
        if batch["base"] != self.copy:
            return 409, {"version": self.copy}
        if "document" in batch:
            self.document = batch["document"]
            self.tables = {
                (series["number"], table["number"]): table
                for series in batch["document"]["series"]
                for table in series["tables"]
            }
        elif self.document is None:
            return 409, {"version": 0}
        for sheet in batch.get("sheets", []):
            self.tables[(sheet["series"], sheet["table"])] = plain_sheet(sheet["sheet"])
        self.hall = batch["hall"]
        self.applied.append((batch["base"], batch["version"]))
        self.copy = batch["version"]
        return 200, {"version": self.copy, "applied": True}
