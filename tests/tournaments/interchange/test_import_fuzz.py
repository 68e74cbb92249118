"""Fuzzing the two document imports (issue 27, defect 9): a valid tournament document with
its archive, and a valid season document, each mutated in every part and imported by the
commands a club runs (`import_tournament`, `import_season`).

A mutation swaps a value for one of another type (text, number, list, object, null),
removes a key, adds an unknown one, puts in a number out of range, a huge string, a NUL
byte or other unicode, or repeats a reference (a player id, a table, a list item). The
part of the document is drawn first (by its shape: `series.*.tables.*.games.*.game` is one
part however many games there are), so the archive and the settings are hit as often as
the games.

Every import must either succeed or end in `CommandError` whose messages are one line
each and name their place; never another exception. A refused import writes nothing (the
row count of every model, before and after). Each example runs inside a savepoint that is
rolled back, so every example starts from the same database.

The counts follow tests/test_fuzz.py: a tenth of `COUNTS` unless FUZZ_FULL=1 (FUZZ_SCALE
overrides both).
"""

import copy
import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_fuzz import SCALE
from tests.tournaments.helpers import complete_tournament
from tests.tournaments.interchange.documents import contract_example, row_counts
from tests.tournaments.leagues.helpers import play_series
from tournaments.interchange import export_document
from tournaments.leagues.interchange import SETTING_RANGES, SETTINGS, export_season
from tournaments.leagues.services import match_day_confirm

pytestmark = pytest.mark.django_db

COUNTS = {"tournament": 1500, "season": 800}

# Values that a reader meets in a document written by hand or by another program.
ODD_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1,
    5,
    32767,
    32768,
    2**31,
    2**63,
    -(2**63) - 1,
    10**30,
    1.5,
    -0.0,
    1e308,
    "",
    " ",
    "x",
    "5.00",
    "1e9",
    "NaN",
    "p1",
    "2026-11-21",
    "2026-02-30",
    "2026-11-21T10:00:00+00:00",
    "\x00",
    "a\x00b",
    "\u202eevil",
    "Öztürk",
    "x" * 5000,
    [],
    [None],
    [1, 2],
    ["p1", "p1"],
    {},
    {"x": 1},
    {"seat": 1, "result": "won"},
    {"seat": [], "result": {}},
]
# Each kind of value as often as the others, so that a type swap is a real one.
value = st.one_of(
    st.sampled_from(ODD_VALUES),
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.lists(st.sampled_from(ODD_VALUES[:30]), max_size=3),
    st.dictionaries(st.text(max_size=6), st.sampled_from(ODD_VALUES[:30]), max_size=3),
)


def paths(doc, prefix=()):
    """Every (path, value) of the document, the document itself first."""
    yield prefix, doc
    if isinstance(doc, dict):
        for key, item in doc.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(doc, list):
        for index, item in enumerate(doc):
            yield from paths(item, (*prefix, index))


def shape(path) -> str:
    return ".".join("*" if isinstance(step, int) else str(step) for step in path)


def by_shape(doc) -> dict[str, list[tuple]]:
    shapes: dict[str, list[tuple]] = {}
    for path, _item in paths(doc):
        if path:
            shapes.setdefault(shape(path), []).append(path)
    return shapes


def at(doc, path):
    for step in path:
        doc = doc[step]
    return doc


KINDS = ["swap", "swap", "remove", "extra", "repeat", "sibling"]


def mutations(shapes):
    """One to three (path, kind, value) to apply to the document (`mutated`); drawn as
    instructions, not as the document, so that a failing example reads short."""
    every = sorted(shapes)
    some = [path for name in every for path in shapes[name][:3]]
    return st.lists(
        st.tuples(
            st.sampled_from(every).flatmap(lambda name: st.sampled_from(shapes[name])),
            st.sampled_from(KINDS),
            st.one_of(value, st.sampled_from(["extra", "", "\x00", "id"])),
            st.sampled_from(some),
        ),
        min_size=1,
        max_size=3,
    )


def mutated(original, instructions):
    """The document with the mutations applied (those whose place an earlier one removed
    are skipped)."""
    doc = copy.deepcopy(original)
    for path, kind, drawn, other in instructions:
        new = copy.deepcopy(drawn)  # not the shared ODD_VALUES list or object itself
        try:
            parent, key = at(doc, path[:-1]), path[-1]
            if not isinstance(parent, dict | list):
                continue
            parent[key]  # noqa: B018 (an earlier mutation may have removed it)
        except (KeyError, IndexError, TypeError):
            continue
        if kind == "swap":
            parent[key] = new
        elif kind == "remove":
            del parent[key]
        elif kind == "extra":
            target = parent[key] if isinstance(parent[key], dict | list) else parent
            if isinstance(target, dict):
                target[new if isinstance(new, str) else "extra"] = new
            else:
                target.append(new)
        elif kind == "repeat" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        elif kind == "sibling":
            # A value of another place of the same document: a duplicate reference, or
            # a well-formed value where another kind belongs.
            parent[key] = copy.deepcopy(at(original, other))
    return doc


# "place: message", or one of the messages about the document as a whole.
LOCATED = re.compile(r"^[^\n:]{1,200}: \S")
WHOLE = (
    "name the club that runs the tournament",
    "This is no skat-season/1 document",
    "does not hold a JSON object",
    "format must be",
    "already on the site",
    "… and ",
)


def run_import(command: str, doc, tmp_path, *extra) -> tuple[str, str | None]:
    """(slug or "", the refusal's text or None)."""
    path = tmp_path / "document.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    try:
        call_command(command, str(path), *extra, stdout=out, stderr=io.StringIO())
    except CommandError as error:
        return "", str(error)
    return out.getvalue().strip(), None


def check_refusal(text: str):
    lines = text.split("\n")
    assert lines and all(line.strip() for line in lines), text
    for line in lines:
        assert "Traceback" not in line
        assert LOCATED.match(line) or any(w in line for w in WHOLE), line


def import_once(command, doc, tmp_path, *extra):
    """One import inside a savepoint rolled back afterwards; a refusal wrote nothing."""
    with transaction.atomic():
        before = row_counts()
        slug, refusal = run_import(command, doc, tmp_path, *extra)
        if refusal is not None:
            check_refusal(refusal)
            assert row_counts() == before, refusal
        else:
            assert slug
        transaction.set_rollback(True)


@pytest.fixture
def tournament_document(tournament, roster, secretary):
    """The archive's every part; the tournament then gone from the site (its players and
    season stay), so that a document without its archived slug is no copy of it."""
    doc = export_document(complete_tournament(tournament, roster, secretary))
    tournament.delete()
    return doc


@pytest.fixture
def season_document(match_day):
    play_series(match_day)
    match_day_confirm(tournament=match_day)
    doc = export_season(match_day.season)
    match_day.season.tournaments.all().delete()
    match_day.season.delete()
    return doc


def test_the_unmutated_documents_import(tournament_document, season_document, tmp_path):
    """The base of the fuzz is valid: without a mutation both imports succeed."""
    with transaction.atomic():
        slug, refusal = run_import("import_tournament", tournament_document, tmp_path, "--replace")
        assert refusal is None and slug
        slug, refusal = run_import("import_season", season_document, tmp_path)
        assert refusal is None and slug
        transaction.set_rollback(True)


def test_every_part_of_both_documents_is_mutated(tournament_document, season_document):
    for doc in (tournament_document, season_document):
        shapes = by_shape(doc)
        assert len(shapes) > 40
    assert "archive.series.*.tables.*.game_changes.*.diff" in by_shape(tournament_document)
    assert "match_days.*.tournament.series.*.tables.*.games.*.game" in by_shape(season_document)


def _count(name: str) -> settings:
    return settings(
        max_examples=max(1, int(COUNTS[name] * SCALE)),
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


def test_mutated_tournament_documents_are_imported_or_refused_with_located_messages(
    tournament_document, tmp_path
):
    shapes = by_shape(tournament_document)

    @_count("tournament")
    @given(instructions=mutations(shapes))
    def run(instructions):
        doc = mutated(tournament_document, instructions)
        import_once("import_tournament", doc, tmp_path, "--replace")

    run()


def test_mutated_season_documents_are_imported_or_refused_with_located_messages(
    season_document, tmp_path
):
    shapes = by_shape(season_document)

    @_count("season")
    @given(instructions=mutations(shapes))
    def run(instructions):
        import_once("import_season", mutated(season_document, instructions), tmp_path)

    run()


# --------------------------------------------------------------------------------------
# What the fuzz found, one row each (each ended in a traceback before)
# --------------------------------------------------------------------------------------


def copied_table(doc) -> dict:
    """The archive's table with a second copy."""
    return next(t for t in doc["archive"]["series"][0]["tables"] if t["second_copy"])


def same_client_id(doc):
    """A phone row's id given to a second game."""
    ids = next(t for t in doc["archive"]["series"][0]["tables"] if len(t["client_ids"]) > 1)[
        "client_ids"
    ]
    first, second = list(ids)[:2]
    ids[second] = ids[first]


def ramsch(doc, result):
    doc["tournament"].update(rules="na", ramsch_rule="hoyle")
    doc["series"][0]["tables"][0]["games"][1] = {
        "game": "ramsch",
        "ramsch": [{"seat": 1, "result": result}],
    }


@pytest.mark.parametrize(
    ("spoil", "place"),
    [
        (lambda d: d["archive"]["registrations"][0].update(player=["p1"]), "registrations[0]"),
        (lambda d: d["archive"]["money"]["payments"][0].update(player={}), "payments[0]"),
        (lambda d: d["archive"]["players"][1].update(id=[]), "archive, players[1]"),
        (lambda d: copied_table(d)["second_copy"][0].pop("number"), "second_copy[0]"),
        (lambda d: copied_table(d)["second_copy"].__setitem__(1, "row"), "second_copy[1]"),
        (lambda d: d["tournament"].update({"a\nb": 1}), "tournament"),
        (lambda d: d["players"][0].update(name="x\n" * 30), "players[0]"),
        (lambda d: d["players"][2].update(id={"p": 3}), "players[2]: id is required"),
        (
            lambda d: d["archive"]["players"][1].update(
                federation_number=d["archive"]["players"][0]["federation_number"]
            ),
            "archive, players[1]",
        ),
        (
            lambda d: d["archive"]["money"]["prizes"].append(d["archive"]["money"]["prizes"][0]),
            "prizes[4]: the same prize as prizes[0]",
        ),
        (same_client_id, "client_ids: "),
        (
            lambda d: d["archive"]["registrations"].pop(
                next(
                    i
                    for i, r in enumerate(d["archive"]["registrations"])
                    if r["player"] == d["archive"]["money"]["payments"][0]["player"]
                )
            ),
            "payments[0]: player ",
        ),
        (
            lambda d: d["archive"]["director_actions"][0].update(details={"a\x00": 1}),
            "director_actions[0]: details contains a NUL character",
        ),
        (
            lambda d: copied_table(d)["second_copy"][0]["data"].update(game="\x00"),
            "second_copy[0]: data contains a NUL character",
        ),
    ],
)
def test_a_wrong_type_in_the_tournament_document_is_a_located_refusal(
    tournament_document, tmp_path, spoil, place
):
    spoil(tournament_document)
    before = row_counts()
    slug, refusal = run_import("import_tournament", tournament_document, tmp_path, "--replace")
    assert refusal is not None, slug
    check_refusal(refusal)
    assert place in refusal
    assert row_counts() == before


def test_an_archive_without_its_tournament_object_imports(tournament_document, tmp_path):
    del tournament_document["archive"]["tournament"]
    slug, refusal = run_import("import_tournament", tournament_document, tmp_path, "--replace")
    assert refusal is None and slug


@pytest.mark.parametrize("result", [{}, [], ["won"]])
def test_a_ramsch_result_of_the_wrong_type_is_a_located_refusal(tmp_path, result):
    doc = contract_example()
    ramsch(doc, result)
    before = row_counts()
    slug, refusal = run_import("import_tournament", doc, tmp_path)
    assert refusal is not None, slug
    check_refusal(refusal)
    assert "series 1, table 1, game 2: ramsch must be a list" in refusal
    assert row_counts() == before


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (
            lambda d: d["season"]["settings"].update(best_series=[]),
            "season.settings: best_series must be a whole number from 1 to 32767",
        ),
        (
            lambda d: d["season"]["settings"].update(teams_best_n=""),
            "season.settings: teams_best_n must be a whole number",
        ),
        (lambda d: d["season"]["settings"].update(colour=1), "season.settings: unknown setting"),
        (lambda d: d["teams"][0].update(name=["x"]), "teams[0]: name must be a string"),
        (lambda d: d["teams"][1].update(club=None), "teams[1]: club must be a string"),
        (lambda d: d["teams"][1].update(club="a\x00b"), "teams[1]: club contains a control"),
        (lambda d: d["teams"].__setitem__(0, True), "teams[0]: must be a JSON object"),
        (
            lambda d: d["season"]["league"]["clubs"].append(7),
            "season.league.clubs[2]: club must be a string",
        ),
        (
            lambda d: d["match_days"][0]["venues"][0]["teams"].append({"a": 1}),
            "match_days[0].venues[0]: no team named an object",
        ),
        (
            lambda d: d["match_days"][0]["venues"][0].update(tables=[5]),
            "match_days[0].venues[0].tables[0]: must be a JSON object",
        ),
        (
            lambda d: d["match_days"][0]["venues"][0]["tables"][0].pop("tables"),
            "match_days[0].venues[0].tables[0]: tables must be a list",
        ),
        (
            lambda d: d["match_days"][0]["venues"][0]["tables"][0].update(series="1"),
            "match_days[0].venues[0].tables[0]: series must be a whole number",
        ),
        (lambda d: d["match_days"][0].update(confirmed="yes"), "match_days[0]: confirmed must"),
    ],
)
def test_a_wrong_type_in_the_season_document_is_a_located_refusal(
    season_document, tmp_path, spoil, message
):
    spoil(season_document)
    before = row_counts()
    slug, refusal = run_import("import_season", season_document, tmp_path)
    assert refusal is not None, slug
    check_refusal(refusal)
    assert message in refusal
    assert row_counts() == before


def test_the_season_settings_checked_are_the_ones_exported():
    assert set(SETTING_RANGES) == set(SETTINGS)
