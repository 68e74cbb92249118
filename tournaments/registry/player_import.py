"""Reading a player list (CSV or Excel) for registration, with a report of bad rows.

A list has a header row; columns are found by name in English or German (case and spaces
ignored): `name` (or `first name` + `last name`), `club`, `team`, `category`,
`federation number`. Every row is checked; the secretary sees the good rows and every bad
one with its line and reason before anything is written (`registry.services.players_import`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tournaments.models import Category, has_control_characters

MAX_BYTES = 2 * 1024 * 1024
MAX_ROWS = 5000

HEADERS = {
    "name": {"name", "player", "spieler", "spielername", "spielerin"},
    "first_name": {"firstname", "first", "vorname"},
    "last_name": {"lastname", "last", "surname", "nachname", "familienname"},
    "club": {"club", "verein", "klub"},
    "team": {"team", "mannschaft"},
    "category": {"category", "kategorie", "klasse", "wertung"},
    "federation_number": {
        "federationnumber",
        "federationno",
        "membernumber",
        "mitgliedsnummer",
        "passnummer",
        "dskvnr",
        "dskvnummer",
        "ispanr",
    },
}
CATEGORIES = {
    "": "",
    "ladies": Category.LADIES,
    "lady": Category.LADIES,
    "damen": Category.LADIES,
    "dame": Category.LADIES,
    "women": Category.LADIES,
    "youth": Category.YOUTH,
    "jugend": Category.YOUTH,
    "junior": Category.YOUTH,
    "juniors": Category.YOUTH,
    "seniors": Category.SENIORS,
    "senior": Category.SENIORS,
    "senioren": Category.SENIORS,
}


@dataclass
class ImportRow:
    line: int
    name: str
    club: str = ""
    team: str = ""
    category: str = ""
    federation_number: str = ""
    new_club: bool = False  # the club is not on the site yet: importing creates it

    def as_dict(self) -> dict:
        return {
            "line": self.line,
            "name": self.name,
            "club": self.club,
            "team": self.team,
            "category": self.category,
            "federation_number": self.federation_number,
        }


@dataclass
class ImportReport:
    rows: list[ImportRow] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)  # (line, reason); 0 = file


class ImportFileError(Exception):
    """The file as a whole cannot be read (wrong type, no header, too large)."""


def _key(header) -> str:
    return "".join(ch for ch in str(header or "").casefold() if ch.isalnum())


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def _table_from_csv(data: bytes) -> list[list[str]]:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:  # pragma: no cover - cp1252 decodes nearly anything
        raise ImportFileError(_("The file is not a readable text (CSV) file."))
    if "\x00" in text:
        raise ImportFileError(_("The file is not a readable text (CSV) file."))
    sample = text[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        return [[_cell(c) for c in row] for row in csv.reader(io.StringIO(text), dialect)]
    except csv.Error:  # a cell over the reader's limit (128 KB), a stray quote
        raise ImportFileError(
            _("The file cannot be read as CSV: a cell is too long or a quote is not closed.")
        ) from None


def _table_from_xlsx(data: bytes) -> list[list[str]]:
    import zipfile

    from openpyxl import load_workbook

    unreadable = _("The file is not a readable Excel workbook (.xlsx).")
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError):
        raise ImportFileError(unreadable) from None
    except Exception:  # openpyxl and the XML parser raise many kinds for a damaged file
        raise ImportFileError(unreadable) from None
    try:
        sheet = workbook.worksheets[0]
        rows = []
        # The sheet's XML is parsed only while rows are read: damage shows up here.
        for row in sheet.iter_rows(values_only=True):
            rows.append([_cell(c) for c in row])
            if len(rows) > MAX_ROWS + 1:
                break
        return rows
    except Exception:
        raise ImportFileError(unreadable) from None
    finally:
        workbook.close()


def read_player_list(
    filename: str, data: bytes, *, home_club: str = "", known_clubs: Iterable[str] = ()
) -> ImportReport:
    """Parse an uploaded list; raises ImportFileError when the file itself is unusable.

    `home_club` is the tournament's club (a row without a club plays for it, as
    `registry.services.players_import` reads it); a club not in `known_clubs` is marked new.
    """
    if len(data) > MAX_BYTES:
        raise ImportFileError(_("The file is larger than 2 MB."))
    lower = filename.lower()
    if lower.endswith(".xlsx"):
        table = _table_from_xlsx(data)
    elif lower.endswith((".csv", ".txt")):
        table = _table_from_csv(data)
    else:
        raise ImportFileError(_("Upload a .csv or an .xlsx file."))
    # Keep the file's own line numbers: blank lines are skipped, not renumbered.
    numbered = [(line, row) for line, row in enumerate(table, start=1) if any(row)]
    if not numbered:
        raise ImportFileError(_("The file is empty."))
    if len(numbered) > MAX_ROWS + 1:
        raise ImportFileError(_("The file has more than %(n)s rows.") % {"n": MAX_ROWS})
    columns: dict[str, int] = {}
    header_row = numbered[0][1]
    for index, header in enumerate(header_row):
        key = _key(header)
        for name, aliases in HEADERS.items():
            if key in aliases and name not in columns:
                columns[name] = index
    if "name" not in columns and not {"first_name", "last_name"} <= set(columns):
        raise ImportFileError(
            _(
                "The first row must name the columns; a column “name” (or “first name” and "
                "“last name”) is required. Found: %(found)s."
            )
            % {"found": ", ".join(h for h in header_row if h) or "—"}
        )

    def get(row, name):
        index = columns.get(name)
        return row[index] if index is not None and index < len(row) else ""

    report = ImportReport()
    known = {name.casefold() for name in known_clubs} | {home_club.casefold()}
    # A row's player is the same as an earlier row's when the resolved club and the name,
    # or the resolved club and the federation number, agree (`registry.services.players_import`).
    seen: dict[tuple[str, str], int] = {}
    seen_numbers: dict[tuple[str, str], int] = {}
    for line, row in numbered[1:]:
        name = get(row, "name") or " ".join(
            part for part in (get(row, "first_name"), get(row, "last_name")) if part
        )
        if not name:
            report.errors.append((line, _("the name is missing")))
            continue
        if len(name) > 120:
            report.errors.append((line, _("the name is longer than 120 characters")))
            continue
        category_text = get(row, "category").casefold()
        if category_text not in CATEGORIES:
            report.errors.append(
                (
                    line,
                    _("unknown category “%(c)s” (use ladies, youth or seniors)")
                    % {"c": get(row, "category")},
                )
            )
            continue
        club = get(row, "club")[:120]
        team = get(row, "team")[:120]
        if any(has_control_characters(text) for text in (name, club, team)):
            report.errors.append((line, _("a name contains a control character")))
            continue
        resolved = (club or home_club).casefold()
        number = get(row, "federation_number")[:40]
        key = (name.casefold(), resolved)
        if key in seen:
            report.errors.append(
                (
                    line,
                    _("%(name)s is listed twice (line %(first)s)")
                    % {"name": name, "first": seen[key]},
                )
            )
            continue
        if number and (number, resolved) in seen_numbers:
            report.errors.append(
                (
                    line,
                    _("federation number %(n)s is listed twice (line %(first)s)")
                    % {"n": number, "first": seen_numbers[(number, resolved)]},
                )
            )
            continue
        seen[key] = line
        if number:
            seen_numbers[(number, resolved)] = line
        report.rows.append(
            ImportRow(
                line=line,
                name=name,
                club=club,
                team=team,
                category=str(CATEGORIES[category_text]),
                federation_number=number,
                new_club=bool(club) and club.casefold() not in known,
            )
        )
    return report
