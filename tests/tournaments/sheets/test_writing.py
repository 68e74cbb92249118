"""The one writing step of score sheets (`sheets.writing.sheet_write`).

Every sheet writer goes through it: each writer below, spied on, refreshes the seats'
totals once and then bumps the version once, last; no module but the step calls
`seat_totals_refresh` or bumps a version with sheets (read from the source); a game carries
the version it was written at; on PostgreSQL, writers at the tables of one tournament
hand out versions in commit order, one each.
"""

import ast
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

import tournaments
from tests.tournaments.helpers import GRAND
from tournaments.entry.services import (
    game_record_at_table,
    row_undo_at_table,
    sheet_confirm,
    sheet_copy_record,
    sheet_settle,
)
from tournaments.models import Game, Tournament
from tournaments.sheets import writing
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    games_bulk_record,
    penalty_delete,
    penalty_law_record,
    penalty_record,
    table_close,
    table_reopen,
)

APP = Path(tournaments.__file__).parent
# Seat 2 declares game 1 at a 3-table: a hearts tournée with 2, worth 18 (rules §3.2).
TOURNEE = {"declarer": 2, "game": "tournee", "trump": "hearts", "matadors": 2, "card_points": 75}


def version(tournament) -> int:
    return Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)


@pytest.fixture
def spy(monkeypatch):
    """The step's refreshes and bumps, in order: ("refresh", table ids), ("bump", sheets)."""
    calls = []
    refresh, bump = writing.seat_totals_refresh, writing.version_bump

    def spied_refresh(*, table_ids):
        calls.append(("refresh", sorted(table_ids)))
        return refresh(table_ids=table_ids)

    def spied_bump(*, tournament_id, sheets=None, layout=False):
        calls.append(("bump", None if sheets is None else sorted(sheets)))
        return bump(tournament_id=tournament_id, sheets=sheets, layout=layout)

    monkeypatch.setattr(writing, "seat_totals_refresh", spied_refresh)
    monkeypatch.setattr(writing, "version_bump", spied_bump)
    return calls


def _phone(table, data=GRAND):
    game, _created = game_record_at_table(table=table, data=data, client_id=uuid.uuid4())
    return game


def _closed(table):
    table_close(table=table, short_reason="the table stopped early")
    return table


# Each writer: (prepare(table) -> what the write needs, write(table, prepared)).
WRITERS = {
    "game_record": (None, lambda t, _p: game_record(table=t, data=GRAND)),
    "games_bulk_record": (
        None,
        lambda t, _p: games_bulk_record(table=t, rows=[GRAND, {**GRAND, "declarer": 3}]),
    ),
    "game_correct": (
        lambda t: game_record(table=t, data=GRAND),
        lambda _t, game: game_correct(game=game, data={**GRAND, "card_points": 50}),
    ),
    "game_delete": (
        lambda t: game_record(table=t, data=GRAND),
        lambda _t, game: game_delete(game=game),
    ),
    "penalty_record": (None, lambda t, _p: penalty_record(table=t, seat=1, points=-10)),
    "penalty_delete": (
        lambda t: penalty_record(table=t, seat=1, points=-10),
        lambda _t, penalty: penalty_delete(penalty=penalty),
    ),
    "table_close": (None, lambda t, _p: _closed(t)),
    "table_reopen": (_closed, lambda t, _p: table_reopen(table=t)),
    "game_record_at_table": (None, lambda t, _p: _phone(t)),
    "sheet_copy_record": (
        None,
        lambda t, _p: sheet_copy_record(table=t, data=GRAND, client_id=uuid.uuid4()),
    ),
    "row_undo_at_table": (
        lambda t: _phone(t),
        lambda t, game: row_undo_at_table(table=t, client_id=game.client_id),
    ),
    "sheet_confirm": (
        lambda t: (_phone(t), sheet_copy_record(table=t, data=GRAND, client_id=uuid.uuid4())),
        lambda t, _p: sheet_confirm(table=t),
    ),
    # The second copy's version corrects the game through `game_correct`, which joins the
    # settlement's step: still one refresh and one version.
    "sheet_settle": (
        lambda t: (
            _phone(t),
            sheet_copy_record(table=t, data={**GRAND, "card_points": 50}, client_id=uuid.uuid4()),
        ),
        lambda t, _p: sheet_settle(table=t, choose="second"),
    ),
}


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_every_sheet_writer_refreshes_the_totals_then_bumps_the_version_once(name, double, spy):
    prepare, write = WRITERS[name]
    prepared = prepare(double) if prepare else None
    start = version(double.series.tournament)
    spy.clear()
    write(double, prepared)
    assert spy == [("refresh", [double.pk]), ("bump", [double.pk])]
    assert version(double.series.tournament) == start + 1


def test_penalty_law_record_goes_through_the_step(na_tournament, seated_series, spy):
    table = seated_series(3, target=na_tournament).tables.get()
    game_record(table=table, data=TOURNEE)
    spy.clear()
    penalty_law_record(table=table, number=1, seat=3, law=7)
    assert spy == [("refresh", [table.pk]), ("bump", [table.pk])]


def test_a_write_that_changes_nothing_neither_refreshes_nor_bumps(double, spy):
    game = game_record(table=double, data=GRAND)
    start = version(double.series.tournament)
    spy.clear()
    game_correct(game=game, data=GRAND)  # the same row again
    table_reopen(table=double)  # not closed
    assert sheet_confirm(table=double) == 0  # nothing provisional
    assert spy == []
    assert version(double.series.tournament) == start


def test_the_version_is_bumped_last_and_the_game_carries_it(table):
    """After the tournament's version moves, the step only stamps the sheet and the game
    with it: the row lock of the tournament is held from there to the commit only."""
    tournament = table.series.tournament
    with CaptureQueriesContext(connection) as queries:
        game = game_record(table=table, data=GRAND)
    sqls = [q["sql"] for q in queries.captured_queries]
    bump = next(
        i
        for i, sql in enumerate(sqls)
        if sql.startswith('UPDATE "tournaments_tournament"') and '"version"' in sql
    )
    after = [sql for sql in sqls[bump + 1 :] if not sql.startswith(("SAVEPOINT", "RELEASE"))]
    assert after[0].startswith('SELECT "tournaments_tournament"."version"')
    assert after[1].startswith('UPDATE "tournaments_table" SET "sheet_version"')
    assert after[2].startswith('UPDATE "tournaments_game" SET "version"')
    assert len(after) == 3
    assert any('UPDATE "tournaments_seat"' in sql for sql in sqls[:bump])
    assert game.version == version(tournament) == Game.objects.get(pk=game.pk).version


def test_games_written_in_one_step_share_its_version(table):
    games = games_bulk_record(table=table, rows=[GRAND, {**GRAND, "declarer": 3}])
    stored = set(Game.objects.filter(table=table).values_list("version", flat=True))
    assert {game.version for game in games} == stored == {version(table.series.tournament)}


def test_a_refused_write_inside_the_step_leaves_no_trace(table, spy):
    start = version(table.series.tournament)
    with pytest.raises(ValueError), writing.sheet_write(table):
        Game.objects.filter(table=table).update(version=99)
        raise ValueError("refused")
    assert spy == []
    assert version(table.series.tournament) == start


# -- the source: no way round the step -------------------------------------------------


def _calls(path: Path) -> list[tuple[str, ast.Call]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            found.append((name, node))
    return found


def test_no_module_but_the_step_refreshes_totals_or_bumps_a_version_with_sheets():
    offenders = []
    for path in sorted(APP.rglob("*.py")):
        if "migrations" in path.parts or path == APP / "sheets" / "writing.py":
            continue
        for name, call in _calls(path):
            sheets = any(keyword.arg == "sheets" for keyword in call.keywords)
            if name == "seat_totals_refresh" or (name == "version_bump" and sheets):
                offenders.append(f"{path.relative_to(APP)}:{call.lineno} {name}")
    assert offenders == []


WRITER_MODULES = {
    APP / "sheets" / "services.py": (
        "game_record",
        "games_bulk_record",
        "game_correct",
        "game_delete",
        "penalty_record",
        "penalty_law_record",
        "penalty_delete",
        "table_close",
        "table_reopen",
    ),
    APP / "entry" / "services.py": (
        "game_record_at_table",
        "sheet_copy_record",
        "row_undo_at_table",
        "sheet_confirm",
        "sheet_settle",
    ),
}


@pytest.mark.parametrize("path", sorted(WRITER_MODULES), ids=lambda p: p.parent.name)
def test_the_sheet_writers_open_the_step_and_nothing_else_bumps(path):
    """Each writer opens `sheet_write`; no function of these modules calls `version_bump`
    (the links' functions write no sheet and bump nothing)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    for name in WRITER_MODULES[path]:
        opened = [
            node
            for node in ast.walk(functions[name])
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "sheet_write"
        ]
        assert len(opened) == 1, name
    assert [call.lineno for name, call in _calls(path) if name == "version_bump"] == []


# -- PostgreSQL: versions in commit order ----------------------------------------------

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


@pytest.mark.skipif(not ON_POSTGRES, reason="row locks and concurrency need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_at_many_tables_get_one_version_each(tournament, seated_series):
    import threading

    tables = list(seated_series(12).tables.order_by("number"))  # three 4-tables
    start = version(tournament)
    barrier = threading.Barrier(len(tables) * 2)
    errors = []

    def enter(table):
        try:
            barrier.wait()
            for _ in range(3):
                game_record(table=table, data={"game": "passed"})  # whoever deals
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=enter, args=(table,)) for table in tables * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    # Two writers per table, three games each: every game numbered once, each write its
    # own version, and the tournament's version counts them all.
    games = list(Game.objects.filter(table__in=tables).order_by("version"))
    versions = [game.version for game in games]
    assert len(set(versions)) == len(versions)
    assert version(tournament) == start + len(games)
    assert set(versions) == set(range(start + 1, start + len(games) + 1))
    assert len(games) == 6 * len(tables)
    for table in tables:
        numbers = sorted(g.number for g in games if g.table_id == table.pk)
        assert numbers == list(range(1, 7))
