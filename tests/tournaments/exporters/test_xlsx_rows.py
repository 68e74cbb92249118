"""The workbooks' fast row writer (exporters/xlsx_rows.py) against openpyxl.

`LeanRows` writes below openpyxl's public API; these tests fail when an openpyxl upgrade
changes what it relies on (module docstring there): each private piece is checked by
itself, and rows are read back cell by cell against the same rows appended with `ws.append`.
"""

import inspect
import io
import os
from decimal import Decimal

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from tournaments.exporters.workbook import text_cell
from tournaments.exporters.xlsx_rows import LeanRows

ROWS = [
    (1, -72, 0, None, "Jörg Łukasz", "=1+1", "+1", "-x", "@sum", "a & b <c> \"d\" 'e'"),
    (None, None, None, None, None, None, None, None, None, None),
    (2, 10**9, -(10**9), 7, " lead", "trail ", "ß\tü", "x", None, "Grand"),
    (3, 0, None, None, "", "bell\x07", None, None, None, None),
]


def test_what_lean_rows_relies_on_is_still_in_openpyxl():
    ws = Workbook(write_only=True).create_sheet("games")
    assert isinstance(ws, WriteOnlyWorksheet)
    assert ws._writer is None and ws._rows is None
    ws._get_writer()
    writer = ws._writer
    assert inspect.isgenerator(writer.xf)
    assert list(inspect.signature(writer.write_row).parameters) == ["xf", "row", "row_idx"]
    assert isinstance(writer.out, str) and os.path.exists(writer.out)
    # close() ends a sheet whose rows were sent (`_rows` set) by closing that generator
    # instead of writing an empty sheetData of its own.
    source = inspect.getsource(WriteOnlyWorksheet.close)
    assert "self._rows.close()" in source and "self._writer.write_rows()" in source
    # Strings are written inline (LeanRows writes them so too).
    plain = Workbook(write_only=True)
    sheet = plain.create_sheet("s")
    sheet.append(["x"])
    sheet.close()
    with open(sheet._writer.out, "rb") as file:
        assert b't="inlineStr"' in file.read()


def test_lean_rows_read_back_as_openpyxls_own_rows():
    workbook = Workbook(write_only=True)
    plain = workbook.create_sheet("plain")
    header = [f"h{n}" for n in range(len(ROWS[0]))]
    plain.append(header)
    for row in ROWS:
        # As the workbooks' `formatted`: "" is an empty cell, texts stay texts.
        plain.append(
            [
                text_cell(plain, v) if isinstance(v, str) and v else None if v == "" else v
                for v in row
            ]
        )
    lean_ws = workbook.create_sheet("lean")
    lean = LeanRows(lean_ws, [WriteOnlyCell(lean_ws, value=title) for title in header])
    for row in ROWS:
        lean.append(row)
    assert lean.count == len(ROWS)
    lean_ws.auto_filter.ref = f"A1:J{lean.count + 1}"
    lean.close()
    buffer = io.BytesIO()
    workbook.save(buffer)
    book = load_workbook(buffer)
    expected = list(book["plain"].iter_rows(values_only=True))
    assert expected[1][5] == "=1+1" and book["plain"]["F2"].data_type == "s"
    assert list(book["lean"].iter_rows(values_only=True)) == expected
    assert book["lean"]["F2"].data_type == "s"
    assert book["lean"].max_row == len(ROWS) + 1
    assert book["lean"].auto_filter.ref == "A1:J5"


def test_lean_rows_refuse_a_value_they_cannot_write():
    for value in (1.5, True, Decimal("1.00")):
        with pytest.raises(TypeError, match=type(value).__name__):
            LeanRows.cell("A2", value)
