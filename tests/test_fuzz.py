"""Fuzzing the site's inputs with hypothesis (issue 12): over 10,000 generated inputs across
the secretaries' forms, the phone's JSON endpoints, the player-list and tournament imports
and the scoring command line.

Every request must answer without a server error (the test client raises any exception a
view lets through; no status is 5xx), and every refused input must leave the database as
it was (`fingerprint`). Inputs mix plausible values (so that the checks behind the first
one are reached) with arbitrary text, control characters, huge numbers and nesting.

The full count (`COUNTS`) runs with `FUZZ_FULL=1` in the environment: CI sets it for one
of its two runs (.ci/run), so each CI run fuzzes the full count once. Without it the suite
runs the same tests with a tenth of the examples (about 1,000), so that `make test` stays
quick. `FUZZ_SCALE` (a factor of the full count) overrides both, e.g. 3 for a longer hunt.
"""

import contextlib
import io
import json
import os
import uuid

import pytest
from django.contrib.messages import constants
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.__main__ import run as scoring_run
from tests.factories import RegistrationFactory, TournamentFactory
from tournaments.draw.services import series_draw
from tournaments.errors import UserError
from tournaments.interchange import InterchangeError as DocumentError
from tournaments.interchange import import_document
from tournaments.models import (
    ActionLog,
    Club,
    Game,
    GameChange,
    Payment,
    Penalty,
    Player,
    Prize,
    Registration,
    Series,
    SheetCopy,
    Table,
    Tournament,
)
from tournaments.registry.player_import import ImportFileError, read_player_list

QUICK_SCALE = 0.1
SCALE = float(
    os.environ.get("FUZZ_SCALE") or (1 if os.environ.get("FUZZ_FULL") == "1" else QUICK_SCALE)
)
COUNTS = {  # examples per target at the full count; together at least 10,000
    "phone": 1600,
    "desk_row": 700,
    "preview": 200,
    "forms": 1700,
    "player_list": 1800,
    "document": 1400,
    "scoring": 2600,
}
assert sum(COUNTS.values()) >= 10_000


def examples(name: str) -> int:
    return max(1, int(COUNTS[name] * SCALE))


def fuzz(name: str):
    return settings(
        max_examples=examples(name),
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


# --------------------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------------------

GAMES = [
    "diamonds", "hearts", "spades", "clubs", "grand", "null", "passed", "tournee",
    "passt_mir_nicht", "solo", "grand_guckser", "grand_ouvert", "null_ouvert", "ramsch",
]  # fmt: skip
PLAUSIBLE = [
    *GAMES, "", "0", "1", "2", "3", "4", "5", "-1", "-2", "11", "18", "20", "23", "59", "60",
    "61", "78", "90", "120", "121", "on", "true", "false", "won", "lost", "1e9", "NaN",
    "10,00", "10.00", "-0", " 3 ", "\x00", "\n", "<script>", "=1+1", "ü" * 200,
    "fees", "prize", "refund", "random", "standings", "team", "club", "none", "ladies",
    "fewest_points", "no_trick", "all_tricks",
]  # fmt: skip
value = st.one_of(
    st.sampled_from(PLAUSIBLE),
    st.text(max_size=40),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.decimals(allow_nan=True, allow_infinity=True, places=3).map(str),
)
ROW_FIELDS = [
    "declarer", "game", "trump", "matadors", "without", "hand", "schneider_announced",
    "schwarz_announced", "ouvert", "won", "schneider", "schwarz", "card_points", "bid",
    "kontra", "re", "ramsch",
]  # fmt: skip


def post_data(names):
    """A form's posted fields: some of `names` (and an odd extra) with fuzzed values."""
    return st.dictionaries(
        st.one_of(st.sampled_from(names), st.text(max_size=8)), value, max_size=len(names) + 2
    )


json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(PLAUSIBLE),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
row_mapping = st.dictionaries(
    st.one_of(st.sampled_from(ROW_FIELDS), st.text(max_size=6)), json_value, max_size=10
)


# --------------------------------------------------------------------------------------
# The database before and after
# --------------------------------------------------------------------------------------

MODELS = [
    ActionLog, Club, Game, GameChange, Payment, Penalty, Player, Prize, Registration, Series,
    SheetCopy, Table, Tournament,
]  # fmt: skip


COUNT_SQL = "SELECT " + ", ".join(
    f"(SELECT COUNT(*) FROM {model._meta.db_table})" for model in MODELS
)


# The version columns a write moves so that cached pages follow it.
VERSIONS = {"version", "changed", "layout", "sheet_version"}


def fingerprint(*, versions: bool = True):
    """What a refused input must not change: every row count (one query), and the rows
    that an update (not an insert) would change; without the version columns if not
    `versions`."""
    with connection.cursor() as cursor:
        cursor.execute(COUNT_SQL)
        counts = cursor.fetchone()
    skip = set() if versions else VERSIONS
    return (
        counts,
        tuple(Game.objects.order_by("pk").values_list("pk", "updated", "provisional")),
        tuple(
            Tournament.objects.order_by("pk").values_list(
                *(f.attname for f in Tournament._meta.concrete_fields if f.name not in skip)
            )
        ),
        # Not the typed paper totals: closing with differences keeps them on purpose (the
        # sheet stays open and shows them), which the form answers like a refusal.
        tuple(
            Table.objects.order_by("pk").values_list(
                *(
                    f.attname
                    for f in Table._meta.concrete_fields
                    if f.name != "paper_totals" and f.name not in skip
                )
            )
        ),
        tuple(Series.objects.order_by("pk").values_list()),
        tuple(Registration.objects.order_by("pk").values_list()),
        tuple(SheetCopy.objects.order_by("pk").values_list("pk", "rows")),
    )


def paper_totals():
    return tuple(Table.objects.order_by("pk").values_list("pk", "paper_totals"))


def refused(response) -> bool:
    """A form re-rendered with its errors, a redirect carrying an error, or a JSON 4xx."""
    assert response.status_code < 500, response
    if response.status_code >= 400:
        return True
    stored = getattr(response.wsgi_request, "_messages", None)
    # Only the messages of this request (earlier ones wait in the cookie, unread).
    added = getattr(stored, "_queued_messages", [])
    errors = [m for m in added if m.level == constants.ERROR]
    if errors:
        return True
    return response.status_code == 200 and "errorlist" in response.content.decode(errors="ignore")


def check(response, before):
    """No server error; a refusal changed nothing."""
    if refused(response):
        assert fingerprint() == before, response


# --------------------------------------------------------------------------------------
# The evening under fuzz: two 3-tables of series 1, links issued
# --------------------------------------------------------------------------------------


@pytest.fixture
def evening(club, secretary, roster):
    tournament = TournamentFactory(club=club, name="Fuzz", slug="fuzz", games_per_series_3=6)
    for player in roster(6):
        RegistrationFactory(tournament=tournament, player=player)
    series = series_draw(tournament=tournament, seed=7)
    desk = Client(raise_request_exception=True)
    desk.force_login(secretary)
    return tournament, series, desk


def urls(tournament):
    t = {"tournament": tournament.slug}
    tb = {**t, "series": 1, "table": 1}
    return {
        "sheet": reverse("manage:sheet", kwargs=tb),
        "preview": reverse("manage:sheet_preview", kwargs=tb),
        "penalty": reverse("manage:sheet_penalty", kwargs=tb),
        "close": reverse("manage:sheet_close", kwargs=tb),
        "reopen": reverse("manage:sheet_reopen", kwargs=tb),
        "correct": reverse("manage:game_correct", kwargs={**tb, "game": 1}),
        "draw": reverse("manage:series_draw", kwargs=t),
        "series": reverse("manage:series_action", kwargs={**t, "series": 1}),
        "action": reverse("manage:tournament_action", kwargs=t),
        "settings": reverse("manage:tournament_settings", kwargs=t),
        "lots": reverse("manage:tournament_lots", kwargs=t),
        "quick": reverse("manage:registration_quick_add", kwargs=t),
        "money_settings": reverse("manage:money_settings", kwargs=t),
        "prizes": reverse("manage:money_prizes", kwargs=t),
        "import": reverse("manage:registration_import", kwargs=t),
        "confirm": reverse("manage:entry_confirm", kwargs=tb),
        "settle": reverse("manage:entry_settle", kwargs=tb),
    }


FORMS = {
    "penalty": ["seat", "points", "reason", "once"],
    "close": ["seat_1", "seat_2", "seat_3", "short_reason", "accept"],
    "reopen": ["reason"],
    "correct": [*ROW_FIELDS, "reason"],
    "draw": ["method", "keep_apart", "seed", "number", "once"],
    "series": ["action", "seat", "seed", "keep_apart", "reason"],
    "action": ["action", "confirmed", "reason"],
    "settings": [
        "name",
        "date",
        "rules",
        "list_scoring",
        "bonus_won",
        "bonus_lost",
        "bonus_others_3",
        "bonus_others_4",
        "games_per_series_3",
        "games_per_series_4",
        "kontra_allowed",
        "team_best_n",
        "double_entry",
        "prizes_split_ties",
        "published",
    ],  # fmt: skip
    "lots": ["lot_1", "lot_2", "lot_3", "lot_999999999999"],
    "quick": ["name", "team", "category", "federation_number", "once"],
    "money_settings": [
        "currency",
        "entry_fee",
        "table_fee",
        "lost_game_fee",
        "lost_game_fee_from",
        "lost_game_fee_high",
    ],  # fmt: skip
    "prizes": ["plan"],
    "confirm": ["next"],
    "settle": ["choose", "number"],
}


@pytest.mark.django_db
@fuzz("desk_row")
@given(data=post_data([*ROW_FIELDS, "number"]))
def test_the_desks_sheet_row(evening, data):
    tournament, _series, desk = evening
    before = fingerprint()
    check(desk.post(urls(tournament)["sheet"], data), before)


@pytest.mark.django_db
@fuzz("preview")
@given(data=post_data(ROW_FIELDS), game=value)
def test_the_live_preview_writes_nothing(evening, data, game):
    tournament, _series, desk = evening
    before = fingerprint()
    response = desk.post(urls(tournament)["preview"] + "?game=" + game[:20], data)
    assert response.status_code == 200
    assert fingerprint() == before


@pytest.mark.django_db
@fuzz("forms")
@given(form=st.sampled_from(sorted(FORMS)), data=st.data())
def test_every_secretary_form(evening, form, data):
    tournament, series, desk = evening
    posted = data.draw(post_data(FORMS[form]))
    if form == "series" and data.draw(st.booleans()):
        # Real seats, so that swaps are tried as well.
        seats = list(series.seats.values_list("pk", flat=True))
        posted = {
            "action": "swap",
            "seat": data.draw(st.lists(st.sampled_from(seats), max_size=3)),
        }
    before = fingerprint()
    before_plain = fingerprint(versions=False)
    papers = paper_totals()
    closed_before = Table.objects.filter(closed=True).count()
    response = desk.post(urls(tournament)[form], posted)
    closed = Table.objects.filter(closed=True).count()
    if form == "close" and paper_totals() != papers and closed == closed_before:
        # Closing with differences keeps the typed totals and shows them on the sheet (the
        # sheet stays open), so the versions move for the pages' caches; nothing else may
        # change: a sheet really closed would show in its row.
        assert response.status_code < 500, response
        assert fingerprint(versions=False) == before_plain, response
        return
    check(response, before)


@pytest.mark.django_db
@fuzz("phone")
@given(
    body=st.one_of(
        st.fixed_dictionaries(
            {"client_id": st.one_of(st.uuids().map(str), json_value), "data": row_mapping},
            optional={"number": st.one_of(st.integers(-3, 40), json_value)},
        ),
        json_value,
        st.binary(max_size=60).map(lambda b: {"raw": b.decode("latin-1")}),
    ),
    where=st.sampled_from(["entry_games", "entry", "entry_preview", "unknown"]),
    raw=st.booleans(),
)
def test_the_phones_json_endpoints(evening, body, where, raw):
    _tournament, series, _desk = evening
    table = series.tables.get(number=2)
    token = "x" * 32 if where == "unknown" else table.entry_token
    url = reverse("entry_games" if where == "unknown" else where, kwargs={"token": token})
    payload = json.dumps(body) if not raw else json.dumps(body)[::-1]
    before = fingerprint()
    response = Client(raise_request_exception=True).post(
        url, payload, content_type="application/json", HTTP_ACCEPT="application/json"
    )
    check(response, before)
    if response.status_code >= 400:
        assert response.json()["error"]


@pytest.mark.django_db
@fuzz("player_list")
@given(
    rows=st.lists(st.lists(value, max_size=6), max_size=6),
    header=st.lists(
        st.sampled_from(["name", "first name", "last name", "club", "team", "category", "x"]),
        max_size=6,
    ),
    raw=st.binary(max_size=200),
    kind=st.sampled_from(["csv", "xlsx", "txt", "pdf"]),
    through_view=st.sampled_from([False, False, False, True]),
)
def test_the_player_list_import(evening, rows, header, raw, kind, through_view):
    tournament, _series, desk = evening
    if kind == "csv":
        content = "\n".join(";".join(str(c) for c in line) for line in [header, *rows]).encode(
            "utf-8", "surrogatepass"
        )
    else:
        content = raw
    if not through_view:
        with contextlib.suppress(ImportFileError):
            read_player_list(f"list.{kind}", content, home_club=tournament.club.name)
        return
    before = fingerprint()
    upload = SimpleUploadedFile(f"list.{kind}", content)
    check(desk.post(urls(tournament)["import"], {"file": upload}), before)
    confirm = desk.post(urls(tournament)["import"], {"confirm": "1"})
    check(confirm, before)


@pytest.mark.django_db
@fuzz("document")
@given(
    doc=st.one_of(
        json_value,
        st.fixed_dictionaries(
            {"format": st.just("skat-tournament/1")},
            optional={"tournament": json_value, "players": json_value, "series": json_value},
        ),
    )
)  # noqa: E501
def test_the_tournament_document_import(evening, doc):
    before = fingerprint()
    try:
        import_document(doc, club=evening[0].club)
    except (DocumentError, UserError):
        assert fingerprint() == before


@fuzz("scoring")
@given(
    lines=st.lists(
        st.one_of(
            st.binary(max_size=80),
            json_value.map(lambda v: json.dumps(v).encode()),
            row_mapping.map(
                lambda m: json.dumps({"rules": "ispa", "table_size": 3, **m}).encode()
            ),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_the_scoring_command_line_answers_every_line(lines):
    lines = [line.replace(b"\n", b" ") for line in lines]
    out = io.BytesIO()
    scoring_run(lines, out)
    # JSON lines end in "\n" only (a U+0085 inside a string is not a line break).
    answers = out.getvalue().decode().split("\n")[:-1] if out.getvalue() else []
    assert len(answers) == sum(1 for line in lines if line.strip(b" \t\r"))
    for answer in answers:
        assert isinstance(json.loads(answer), dict)


def test_the_fuzz_counts_add_up_to_ten_thousand():
    assert sum(COUNTS.values()) >= 10_000 and uuid.uuid4()
