"""The archive of a `skat-tournament/1` document: money, history, provisional and
double-entry state, draw seeds; export → import → export byte-identical with all of it."""

import json
from decimal import Decimal
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.helpers import complete_tournament
from tests.tournaments.interchange.documents import fees_due_of, row_counts, settings_of, text_of
from tournaments.interchange import InterchangeError, export_document, import_document
from tournaments.models import ActionLog, GameChange, Payment, PenaltyChange, SheetCopy, Tournament
from tournaments.registry.services import tournament_update
from tournaments.sheets.selectors import disputed_games, table_sheet
from tournaments.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def complete(tournament, roster, secretary):
    return complete_tournament(tournament, roster, secretary)


def test_the_archive_holds_money_history_state_and_draw(complete):
    archive = export_document(complete)["archive"]
    assert archive["tournament"]["slug"] == "herbstpreisskat"
    assert archive["tournament"]["season"]["name"] == "Liga 2026"
    assert archive["money"]["entry_fee"] == "10.00"
    assert len(archive["money"]["prizes"]) == 4
    assert [p["amount"] for p in archive["money"]["payments"]] == ["11.50"] * 3 + ["-5.00"]
    assert {p["by"] for p in archive["money"]["payments"]} == {"secretary"}
    series = archive["series"][0]
    assert series["draw_seed"] == 918_273_645 and series["keep_apart"] == "club"
    closed = next(t for t in series["tables"] if t["closed"])
    assert closed["paper_totals"]
    three = next(t for t in series["tables"] if not t["closed"])
    assert three["provisional"] == [3, 4]
    assert len(three["second_copy"]) == 4
    actions = [(c["game"], c["action"], c["current"]) for c in three["game_changes"]]
    assert (3, "deleted", False) in actions and (1, "corrected", True) in actions
    assert [(c["action"], c["penalty"]) for c in three["penalty_changes"]] == [
        ("created", 0),
        ("created", None),
        ("deleted", None),
    ]
    assert sorted(r["lot"] for r in archive["registrations"] if r["lot"]) == [1, 2]
    logged = archive["director_actions"]
    kinds = [a["kind"] for a in logged]
    assert {"draw", "penalty", "payment", "prize_plan", "lots"} <= set(kinds), kinds
    assert len(logged) >= 5
    assert [a["at"] for a in logged] == sorted(a["at"] for a in logged)
    assert {a["by"] for a in logged if a["kind"] == "payment"} == {"secretary"}
    assert all("key" not in a for a in logged)


def test_export_import_export_is_byte_identical_with_the_archive(complete):
    before = text_of(complete)
    standings = [(r.player_name, r.list_points, r.rank) for r in tournament_standings(complete)]
    disputed = sum(
        len(v) for v in disputed_games(list(complete.series.get().tables.all())).values()
    )
    counts = row_counts()

    again = import_document(json.loads(before), replace=True)

    assert again.pk != complete.pk
    assert text_of(again) == before
    assert row_counts() == counts
    assert [(r.player_name, r.list_points, r.rank) for r in tournament_standings(again)] == (
        standings
    )
    tables = list(again.series.get().tables.all())
    assert sum(len(v) for v in disputed_games(tables).values()) == disputed == 1
    three = again.series.get().tables.get(size=3)
    three.series.tournament = again
    assert table_sheet(three).provisional
    assert GameChange.objects.filter(table=three, game__isnull=True).exists()
    assert PenaltyChange.objects.filter(table=three).count() == 3
    assert SheetCopy.objects.filter(table=three).exists()
    assert Payment.objects.filter(registration__tournament=again, user__username="secretary")
    logged = ActionLog.objects.filter(tournament=again)
    assert logged.count() == len(json.loads(before)["archive"]["director_actions"]) >= 5
    assert logged.filter(user__username="secretary", club=again.club).exists()


def test_a_restored_tournament_has_the_settings_and_fees_due_of_the_original(complete):
    """Read from the database, not only export against export: a setting the archive
    dropped would leave both exports alike and the restored tournament wrong. The fees are
    tiered (0.50 a lost game, from the 4th lost game of a series 1.00) and tied players
    share their prizes."""
    complete = tournament_update(tournament=complete, prizes_split_ties=True)
    settings, fees = settings_of(complete), fees_due_of(complete)
    assert settings["lost_game_fee_from"] == 4
    assert settings["lost_game_fee_high"] == Decimal("1.00")
    assert any(row[6] for row in fees["rows"])  # lost-game fees are due
    before = text_of(complete)

    again = import_document(json.loads(before), replace=True)  # the original deleted first

    assert not Tournament.objects.filter(pk=complete.pk).exists()
    assert settings_of(again) == settings
    assert fees_due_of(again) == fees
    assert text_of(again) == before


def test_re_importing_the_same_document_changes_nothing_without_replace(complete):
    document = json.loads(text_of(complete))
    counts = row_counts()
    with pytest.raises(InterchangeError, match="'herbstpreisskat' already exists"):
        import_document(document)
    assert row_counts() == counts
    assert Tournament.objects.get().pk == complete.pk


def test_the_import_command_refuses_an_existing_tournament_and_replaces_with_the_flag(
    complete, tmp_path
):
    path = tmp_path / "t.json"
    path.write_text(text_of(complete), encoding="utf-8")
    counts = row_counts()
    with pytest.raises(CommandError, match="already exists"):
        call_command("import_tournament", str(path))
    assert row_counts() == counts
    out = StringIO()
    call_command("import_tournament", str(path), "--replace", stdout=out)
    assert out.getvalue().strip() == "herbstpreisskat"
    assert row_counts() == counts
    assert text_of(Tournament.objects.get()) == path.read_text(encoding="utf-8")


def test_the_export_command_can_leave_the_archive_out(complete):
    out = StringIO()
    call_command("export_tournament", complete.slug, "--no-archive", stdout=out)
    assert list(json.loads(out.getvalue())) == ["format", "tournament", "players", "series"]


def test_an_archive_into_a_site_without_the_users_keeps_the_history_unsigned(complete):
    document = json.loads(text_of(complete))
    complete.delete()
    apps.get_model("auth", "User").objects.filter(username="secretary").delete()
    again = import_document(document)
    archive = export_document(again)["archive"]
    assert {p["by"] for p in archive["money"]["payments"]} == {None}
    assert archive["money"] == {
        **document["archive"]["money"],
        "payments": [p | {"by": None} for p in document["archive"]["money"]["payments"]],
    }


def _table_with_history(archive):
    return next(t for t in archive["series"][0]["tables"] if t["penalty_changes"])


def _action_without_series(archive):
    action = archive["director_actions"][0]
    action["series"] = None
    return action


@pytest.mark.parametrize(
    "where, key, value, message",
    [
        (lambda a: a["money"], "entry_fee", "ten", 'entry_fee must be an amount such as "5.00"'),
        (lambda a: a["money"]["payments"][0], "player", "p99", "names unknown player 'p99'"),
        (lambda a: a["money"]["payments"][0], "at", "yesterday", "at must be a time in ISO"),
        (lambda a: a["series"][0], "draw_method", "coin", "draw_method must be one of random"),
        (_table_with_history, "provisional", [99], "provisional names no game"),
        (lambda a: _table_with_history(a)["penalty_changes"][0], "penalty", 7, "penalty must"),
        (lambda a: a["tournament"], "slug", "no spaces here", "slug may hold only"),
        (lambda a: a["tournament"], "status", "done", "status must be one of planned"),
        (lambda a: a["series"][0], "number", 9, "the document has no series 9"),
        (lambda a: a, "director_log", [], "unknown field(s) director_log"),
        (lambda a: a, "director_actions", {}, "director_actions must be a list"),
        (lambda a: a["director_actions"][0], "kind", "coup", "kind must be one of draw"),
        (lambda a: a["director_actions"][0], "at", "noon", "at must be a time in ISO"),
        (lambda a: a["director_actions"][0], "details", [1], "details must be a JSON object"),
        (lambda a: a["director_actions"][0], "table", 0, "table must be"),
        (_action_without_series, "table", 1, "a table is named with its series"),
        (lambda a: a["director_actions"][0], "key", "abc", "unknown field(s) key"),
    ],
)
def test_a_bad_archive_is_refused_whole_with_a_located_message(
    complete, where, key, value, message
):
    document = json.loads(text_of(complete))
    complete.delete()
    where(document["archive"])[key] = value
    counts = row_counts()
    with pytest.raises(InterchangeError) as raised:
        import_document(document)
    assert any(message in text for text in raised.value.messages), raised.value.messages
    assert all(text.startswith("archive") for text in raised.value.messages)
    assert row_counts() == counts


def test_a_document_without_an_archive_still_imports_as_before(complete):
    document = export_document(complete, archive=False)
    complete.delete()
    again = import_document(document)
    assert again.published and again.series.get().draw_seed == 0
    assert export_document(again, archive=False) == document


def test_an_archive_under_another_slug_whose_phone_rows_the_site_holds_is_refused(complete):
    document = json.loads(text_of(complete))
    document["archive"]["tournament"]["slug"] = "a-copy"
    counts = row_counts()
    with pytest.raises(InterchangeError, match="already holds games of these phone rows"):
        import_document(document)
    assert row_counts() == counts
