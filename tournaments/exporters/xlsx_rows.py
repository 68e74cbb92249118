"""The workbooks' one fast row writer: the data rows of a sheet of every game.

Both workbooks' *Games* sheets (the tournament's, `exporters.workbook`, and the season's,
`exporters.season`) hold one row of about 17 filled cells per game: 1.6 million cells at a
2,000-player tournament, 3.7 million in a club's annual ranking of 197,000 games. Their
rows come here; every other sheet uses openpyxl's public write-only API (`ws.append`).

Why not `ws.append` for these too: openpyxl builds a Cell, its coordinate and an lxml
element for every value. Measured with `python bench/season.py --writers` (PostgreSQL,
openpyxl 3.1.5; medians of interleaved runs), the whole workbook with its Games rows
written by `LeanRows` and by openpyxl's public `append` (the same cells):

    workbook                    LeanRows   ws.append   ratio
    tournament, 2,000 players     41.7 s     143.3 s    3.4
    league season, 41,472 games   14.3 s      64.2 s    4.5
    club season, 198,576 games    62.3 s     421.8 s    6.8

(medians of 3 interleaved runs on a 2-core machine shared by several heavy jobs, so the
seconds are several times a quiet machine's; the ratios are the point). Both ways give the
same cells, values and number formats (the bench compares every cell).

Below openpyxl's public API, on purpose and only here. It relies on this of openpyxl's
write-only worksheet (`openpyxl.worksheet._write_only.WriteOnlyWorksheet`): `_get_writer()`
opens the sheet's stream (`_writer`, a `WorksheetWriter` whose `xf` generator takes
`send(True)` for the XML writer and `send(None)` to end the sheet data, and whose
`write_row(xf, cells, row)` writes the header); an empty generator in `_rows` makes
`close()` write the tail only; `_writer.out` is the sheet's file, which the workbook
archives when it is saved. tests/tournaments/exporters/test_xlsx_rows.py checks each of
these and reads rows back cell by cell against `ws.append`'s: it fails when an openpyxl
upgrade changes them. Remove this module (and use `ws.append`) once it no longer measures.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from xml.sax.saxutils import escape

from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.utils import get_column_letter
from openpyxl.xml.functions import Element


class LeanRows:
    """Data rows of a write-only sheet formatted straight into the sheet's XML.

    A row holds only ints, strs and None, and becomes text as ECMA-376 part 1 gives it
    (§18.3.1.73 `<row r>`, §18.3.1.4 `<c r>`): an int is `<v>`, a str an escaped inline
    string (`t="inlineStr"`, as openpyxl writes them, so never a formula; characters XML
    forbids are dropped, as openpyxl refuses them; an empty str is no cell, as the
    workbooks write ""), None no cell. The rows go to a temporary file of their own;
    openpyxl writes the sheet around them (columns, frozen panes, the styled header, the
    auto filter) with a marker where the rows belong, and `close` splices the rows in
    there. Memory stays flat: both are files.

    Use: `rows = LeanRows(ws, header_cells)`, `rows.append(values)` per row, set the
    sheet's auto filter (`rows.count` data rows), then `rows.close()`.
    """

    MARKER = "leanRows"
    batch = 1000
    texts_kept = 20_000

    def __init__(self, ws, header: list[WriteOnlyCell]):
        self.ws = ws
        ws._get_writer()
        xf = ws._writer.xf.send(True)
        with xf.element("sheetData"):
            for column, cell in enumerate(header, start=1):
                cell.row, cell.column = 1, column
            ws._writer.write_row(xf, header, 1)
            xf.write(Element(self.MARKER))
        ws._writer.xf.send(None)
        ws._rows = (row for row in ())  # the rows are ours: ws.close() writes the tail only
        self.letters = [get_column_letter(n) for n in range(1, len(header) + 1)]
        # A text's cell after its reference, kept once per text: a sheet of games repeats
        # a few hundred texts (names, labels, "x") a million times.
        self.texts: dict[str, str] = {}
        self.rows = 1
        self.pending: list[str] = []
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 (lives until close())

    @property
    def count(self) -> int:
        """Data rows so far (the header not counted)."""
        return self.rows - 1

    def append(self, values: Sequence[int | str | None]):
        self.rows += 1
        r = str(self.rows)
        cells = []
        texts = self.texts
        for letter, value in zip(self.letters, values, strict=True):
            if value is None:
                continue
            if type(value) is int:  # most cells: kept inline, this runs millions of times
                cells.append(f'<c r="{letter}{r}"><v>{value}</v></c>')
            elif value != "":
                text = texts.get(value) if type(value) is str else None
                if text is None:
                    text = self.cell("", value)[len('<c r=""') :]
                    if type(value) is str and len(texts) < self.texts_kept:
                        texts[value] = text
                cells.append(f'<c r="{letter}{r}"{text}')
        self.pending.append(f'<row r="{r}">{"".join(cells)}</row>')
        if len(self.pending) >= self.batch:
            self.flush()

    @staticmethod
    def cell(reference: str, value: int | str) -> str:
        if isinstance(value, str):
            value = ILLEGAL_CHARACTERS_RE.sub("", value)
            space = ' xml:space="preserve"' if value != value.strip() else ""
            return f'<c r="{reference}" t="inlineStr"><is><t{space}>{escape(value)}</t></is></c>'
        if type(value) is int:
            return f'<c r="{reference}"><v>{value}</v></c>'
        raise TypeError(f"LeanRows takes int, str or None, not {type(value).__name__}")

    def flush(self):
        if self.pending:
            self.file.write("".join(self.pending).encode())
            self.pending = []

    def close(self):
        """Close the sheet (set its auto filter before) with the rows in their place."""
        self.flush()
        self.ws.close()
        path = self.ws._writer.out
        with open(path, "rb") as sheet:
            before, after = sheet.read().split(f"<{self.MARKER}/>".encode())
        with open(path, "wb") as sheet:
            sheet.write(before)
            self.file.seek(0)
            shutil.copyfileobj(self.file, sheet)
            sheet.write(after)
        self.file.close()
