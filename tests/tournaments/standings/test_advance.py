"""Standings advanced from an older version (`standings_advance`) equal the standings
computed afresh, after any sequence of writes: to score sheets alone (advanced) and to
anything else (a new layout: computed afresh)."""

import random
from dataclasses import asdict

import pytest

from tournaments import demo
from tournaments.caching import advance
from tournaments.caching import standings as caching
from tournaments.caching.standings import (
    progress_of,
    series_cards_of,
    series_standings_of,
    standings_forget,
    standings_of,
)
from tournaments.draw.services import series_draw
from tournaments.errors import UserError
from tournaments.models import Game, Player, Registration, Table, Tournament
from tournaments.public.tables import StandingsTable
from tournaments.registry.services import player_update, registration_set_lots
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    penalty_record,
    table_close,
    table_reopen,
)
from tournaments.standings.cards import table_cards_html
from tournaments.standings.selectors import (
    series_progress,
    series_standings,
    series_tables,
    tournament_standings,
)


def _figures(rows):
    return [asdict(row) for row in rows]


def _body(rows) -> str:
    return str(StandingsTable(rows, series_numbers=[1, 2], in_play=True).body_html)


def _random_write(rng: random.Random, tournament: Tournament) -> str:
    """One write through a service, chosen at random; returns its kind."""
    tables = list(Table.objects.filter(series__tournament=tournament).order_by("pk"))
    table = rng.choice(tables)
    games = list(table.games.order_by("number"))
    kind = rng.choice(
        ["game"] * 6 + ["correct"] * 2 + ["delete", "penalty", "close", "rename", "lots"]
    )
    if kind == "game":
        game_record(
            table=table,
            data=demo.random_game(
                rng, rules=tournament.rules, table_size=table.size, number=len(games) + 1
            ),
        )
    elif kind == "correct" and games:
        game = rng.choice(games)
        data = demo.random_game(
            rng, rules=tournament.rules, table_size=table.size, number=game.number
        )
        game_correct(game=game, data=data, reason="typo")
    elif kind == "delete" and games:
        game_delete(game=games[-1], reason="entered twice")
    elif kind == "penalty":
        penalty_record(table=table, seat=rng.randint(1, table.size), points=-rng.choice([10, 50]))
    elif kind == "close":
        if table.closed:
            table_reopen(table=table, reason="one more look")
        else:
            table_close(table=table, short_reason="the hall closes")
    elif kind == "rename":
        registration = rng.choice(list(Registration.objects.filter(tournament=tournament)))
        player_update(player=registration.player, name=f"Renamed {rng.randrange(10**6)}")
    elif kind == "lots":
        ids = list(
            Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True)
        )
        registration_set_lots(tournament=tournament, lots={rng.choice(ids): rng.randint(1, 9)})
    else:
        return "nothing"
    return kind


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_advanced_standings_equal_standings_computed_afresh(
    seed, page_cache, tournament, seated_series, monkeypatch
):
    seated_series(11, seed=seed)  # tables of 4, 4 and 3
    series_draw(tournament=tournament, seed=seed + 10)
    players = Registration.objects.filter(tournament=tournament).values_list("player_id")
    Player.objects.filter(pk__in=[pk for (pk,) in players][::2]).update(category="seniors")
    advanced = []
    real_advance = advance.standings_advance

    def counting(*args, **kwargs):
        result = real_advance(*args, **kwargs)
        advanced.append(result is not None)
        return result

    monkeypatch.setattr(caching, "standings_advance", counting)
    standings_forget()
    rng = random.Random(seed)
    kinds = []
    previous, previous_figures = [], []
    for _ in range(60):
        try:
            kinds.append(_random_write(rng, tournament))
        except UserError:
            kinds.append("refused")
        current = Tournament.objects.get(pk=tournament.pk)
        now = standings_of(current)
        assert _figures(now) == _figures(tournament_standings(current))
        # Rows kept with their HTML (shared rows) show what rows made afresh show.
        assert _body(now) == _body(tournament_standings(current))
        for series in current.series.all():
            shared = series_standings_of(current, series.number)
            assert _figures(shared) == _figures(series_standings(series))
            assert _body(shared) == _body(series_standings(series))
            assert series_cards_of(current, series) == table_cards_html(
                tournament_slug=current.slug,
                series_number=series.number,
                cards=series_tables(series),
            )
        assert progress_of(current) == series_progress(current)
        # The older version's rows (still served for it) were not changed on the way.
        assert _figures(previous) == previous_figures
        previous, previous_figures = now, _figures(now)
        assert _figures(standings_of(current, category="seniors")) == _figures(
            tournament_standings(current, category="seniors")
        )
    assert Game.objects.filter(tournament=tournament).exists()
    # Writes to sheets were advanced (not all computed afresh), the others were not.
    assert sum(advanced) >= 10 and all(advanced)
    assert {"rename", "lots"} & set(kinds)


def test_advanced_standings_share_the_rows_that_did_not_change(
    page_cache, tournament, seated_series
):
    seated_series(8, seed=3)
    standings_forget()
    tables = list(Table.objects.filter(series__tournament=tournament).order_by("number"))
    game_record(
        table=tables[1],
        data=demo.random_game(random.Random(1), rules="ispa", table_size=4, number=1),
    )
    before = standings_of(Tournament.objects.get(pk=tournament.pk))
    figures_before = _figures(before)
    penalised = tables[0].seats.get(number=1).player_id
    penalty_record(table=tables[0], seat=1, points=-10)
    after = standings_of(Tournament.objects.get(pk=tournament.pk))
    by_player = {row.player_id: row for row in before}
    for row in after:
        if row.player_id == penalised:
            assert row is not by_player[row.player_id]
        elif row.rank == by_player[row.player_id].rank:
            assert row is by_player[row.player_id]
    # The older version's rows kept their figures and ranks.
    assert _figures(before) == figures_before
    assert _figures(after) != figures_before


def test_a_write_other_than_to_sheets_draws_a_new_layout(tournament, seated_series):
    seated_series(4)
    layout = Tournament.objects.get(pk=tournament.pk).layout
    table = Table.objects.get(series__tournament=tournament)
    game_record(
        table=table, data=demo.random_game(random.Random(2), rules="ispa", table_size=4, number=1)
    )
    current = Tournament.objects.get(pk=tournament.pk)
    assert current.layout == layout
    assert Table.objects.get(pk=table.pk).sheet_version == current.version
    registration = Registration.objects.filter(tournament=tournament).first()
    player_update(player=registration.player, name="Someone else")
    assert Tournament.objects.get(pk=tournament.pk).layout != layout
