"""The pure table draw `tournaments/draw/engine.py` (rules §4): table sizes, random and seeded
draws, keeping players apart; the engine imports nothing from Django."""

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tournaments.draw.engine
from tournaments.draw.engine import (
    MAX_SEED_SHIFT,
    DrawError,
    Entrant,
    conflicts,
    draw,
    pairs_at_tables,
    table_sizes,
)


def make_entrants(count, *, team_size=0, clubs=0, first_id=101):
    """`count` entrants with ids from `first_id` in steps of 7 (so ids are not positions)."""
    return [
        Entrant(
            id=first_id + 7 * number,
            team=f"team {number // team_size}" if team_size else "",
            club=f"club {number % clubs}" if clubs else "",
        )
        for number in range(count)
    ]


def ids_of(entrants):
    return [entrant.id for entrant in entrants]


def seated(tables):
    return [player for table in tables for player in table]


def seeded_slices(entrants):
    """(end, size) of each table's slice of the ranking in a seeded draw."""
    end = 0
    for size in table_sizes(len(entrants)):
        end += size
        yield end, size


def table_number(tables):
    return {player: number for number, table in enumerate(tables) for player in table}


# Table sizes


@pytest.mark.parametrize(
    "n, sizes",
    [
        (3, [3]),  # rules §4: 3 can be seated
        (4, [4]),
        (6, [3, 3]),  # (−6 mod 4) = 2 three-tables
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (13, [4, 3, 3, 3]),
        (14, [4, 4, 3, 3]),
        (200, [4] * 50),
    ],
)
def test_table_sizes_put_four_tables_first_and_three_tables_last(n, sizes):
    assert table_sizes(n) == sizes


@pytest.mark.parametrize("n", [n for n in range(3, 201) if n != 5])
def test_table_sizes_use_three_tables_only_to_fill_in(n):
    sizes = table_sizes(n)
    assert sum(sizes) == n
    assert set(sizes) <= {3, 4}
    assert sizes.count(3) == (-n) % 4
    assert sizes == sorted(sizes, reverse=True)


@pytest.mark.parametrize("n", [-1, 0, 1, 2, 5])
def test_table_sizes_reject_player_counts_that_cannot_be_seated(n):
    with pytest.raises(DrawError) as caught:
        table_sizes(n)
    assert caught.value.code == "impossible_split"
    assert str(caught.value).startswith(f"{n} players cannot be split into tables of 3 and 4")


# Foster 1909: "Four or five persons can belong to the table"; rules §3.6. With tables of
# five allowed, five-tables take the place of three-tables where they can.
@pytest.mark.parametrize(
    "n, sizes",
    [
        (3, [3]),
        (4, [4]),
        (5, [5]),  # cannot be split into 3 and 4, but five play at one table
        (6, [3, 3]),  # no five-table helps
        (7, [4, 3]),
        (9, [4, 5]),  # instead of three three-tables
        (10, [5, 5]),
        (11, [4, 4, 3]),  # one three-table is the fewest possible
        (13, [4, 4, 5]),
        (15, [5, 5, 5]),
        (16, [4, 4, 4, 4]),  # four-tables stay normal
        (203, [4] * 47 + [5] * 3),
    ],
)
def test_table_sizes_with_fives_replace_three_tables(n, sizes):
    assert table_sizes(n, fives=True) == sizes


@pytest.mark.parametrize("n", range(3, 201))
def test_table_sizes_with_fives_seat_everyone_with_the_fewest_three_tables(n):
    sizes = table_sizes(n, fives=True)
    assert sum(sizes) == n and set(sizes) <= {3, 4, 5}
    if n != 5:
        assert sizes.count(3) <= table_sizes(n).count(3)
    # At most two three-tables: three of them would be better as a four and a five.
    assert sizes.count(3) <= 2


def test_a_draw_with_fives_seats_five_at_a_table():
    tables = draw(make_entrants(9), seed=3, fives=True)
    assert sorted(len(table) for table in tables) == [4, 5]
    assert sorted(p for table in tables for p in table) == [e.id for e in make_entrants(9)]


def test_drawing_five_players_explains_how_to_fix_it():
    with pytest.raises(DrawError) as caught:
        draw(make_entrants(5), seed=1)
    assert caught.value.code == "impossible_split"
    assert "add or remove a player" in str(caught.value)


# Random draws of every size


@pytest.mark.parametrize("n", [n for n in range(3, 201) if n != 5])
def test_random_draw_seats_everyone_once_reproducibly_whatever_the_callers_order(n):
    entrants = make_entrants(n, team_size=3)
    tables = draw(entrants, seed=n)

    assert sorted(seated(tables)) == ids_of(entrants)
    assert [len(table) for table in tables] == table_sizes(n)
    assert draw(entrants, seed=n) == tables
    shuffled = list(entrants)
    random.Random(n).shuffle(shuffled)
    assert draw(shuffled, seed=n) == tables
    draws = {repr(draw(entrants, seed=seed)) for seed in range(n, n + 5)}
    assert len(draws) > 1


def test_random_draw_without_anyone_to_keep_apart_is_a_shuffle_of_all_players():
    entrants = make_entrants(48)
    first_tables = [frozenset(draw(entrants, seed=seed)[0]) for seed in range(200)]
    # Over many seeds, almost every player sits at table 1 at least once.
    assert len(set().union(*first_tables)) >= 45


def test_keep_apart_none_ignores_teams_and_clubs():
    with_groups = make_entrants(40, team_size=4, clubs=2)
    without_groups = make_entrants(40)
    assert draw(with_groups, seed=3, keep_apart="none") == draw(without_groups, seed=3)


# Property: any sizes, teams, clubs and options


@st.composite
def draw_requests(pick):
    n = pick(st.integers(min_value=3, max_value=90).filter(lambda count: count != 5))
    ids = pick(st.lists(st.integers(1, 10**6), min_size=n, max_size=n, unique=True))
    teams = pick(st.lists(st.sampled_from(["", "A", "B", "C", "D"]), min_size=n, max_size=n))
    clubs = pick(st.lists(st.sampled_from(["", "X", "Y"]), min_size=n, max_size=n))
    entrants = [
        Entrant(id=player, team=team, club=club)
        for player, team, club in zip(ids, teams, clubs, strict=True)
    ]
    ranking = pick(st.none() | st.permutations(ids))
    met = pick(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=n))
    previous = [frozenset(pair) for pair in met if pair[0] != pair[1]]
    return {
        "entrants": entrants,
        "seed": pick(st.integers(0, 2**32)),
        "ranking": ranking,
        "keep_apart": pick(st.sampled_from(["team", "club", "team_and_club", "none"])),
        "previous_opponents": previous,
    }


@settings(max_examples=100, deadline=None, database=None)
@given(request=draw_requests())
def test_any_draw_seats_everyone_once_and_is_reproducible(request):
    entrants = request["entrants"]
    tables = draw(**request)

    assert sorted(seated(tables)) == sorted(ids_of(entrants))
    assert [len(table) for table in tables] == table_sizes(len(entrants))
    assert draw(**request) == tables
    assert draw(**{**request, "entrants": entrants[::-1]}) == tables
    if request["ranking"] is not None:
        seeded = table_number(
            [request["ranking"][end - size : end] for end, size in seeded_slices(entrants)]
        )
        drawn = table_number(tables)
        assert all(abs(drawn[player] - seeded[player]) <= MAX_SEED_SHIFT for player in drawn)


# Keeping apart


@pytest.mark.parametrize("seed", range(20))
def test_ten_teams_of_four_at_ten_tables_never_share_a_table(seed):
    entrants = make_entrants(40, team_size=4)
    tables = draw(entrants, seed=seed)
    assert conflicts(tables, entrants) == []


@pytest.mark.parametrize("seed", range(10))
def test_four_teams_of_four_at_four_tables_are_split_one_member_per_table(seed):
    entrants = make_entrants(16, team_size=4)
    assert conflicts(draw(entrants, seed=seed), entrants) == []


@pytest.mark.parametrize("seed", range(10))
def test_clubs_are_kept_apart_when_asked(seed):
    entrants = make_entrants(60, clubs=5)
    tables = draw(entrants, seed=seed, keep_apart="club")
    assert conflicts(tables, entrants, keep_apart="club") == []


@pytest.mark.parametrize("seed", range(10))
def test_teams_and_clubs_are_both_kept_apart_when_asked(seed):
    entrants = make_entrants(48, team_size=4, clubs=6)
    tables = draw(entrants, seed=seed, keep_apart="team_and_club")
    assert conflicts(tables, entrants, keep_apart="team_and_club") == []


def test_half_the_field_from_one_club_sits_two_to_a_table():
    entrants = [Entrant(id=player, club="host" if player % 2 else "") for player in range(200)]
    tables = draw(entrants, seed=4, keep_apart="club")
    assert all(sum(player % 2 for player in table) == 2 for table in tables)


@pytest.mark.parametrize("seed", range(10))
def test_second_series_avoids_the_first_series_opponents(seed):
    entrants = make_entrants(48, team_size=4)
    first = draw(entrants, seed=seed)
    previous = pairs_at_tables(first)
    second = draw(entrants, seed=seed + 100, previous_opponents=previous)
    assert conflicts(second, entrants, previous) == []


@pytest.mark.parametrize("seed", range(5))
def test_third_series_avoids_both_earlier_series_opponents(seed):
    entrants = make_entrants(48, team_size=4)
    previous = pairs_at_tables(draw(entrants, seed=seed))
    previous += pairs_at_tables(draw(entrants, seed=seed + 100, previous_opponents=previous))
    third = draw(entrants, seed=seed + 200, previous_opponents=previous)
    assert conflicts(third, entrants, previous) == []


def test_one_team_of_eight_among_eight_players_is_drawn_with_conflicts_not_an_error():
    entrants = make_entrants(8, team_size=8)
    tables = draw(entrants, seed=1)
    assert sorted(seated(tables)) == ids_of(entrants)
    assert len(conflicts(tables, entrants)) == 2 * 6


@pytest.mark.parametrize("seed", range(10))
def test_team_of_five_at_four_tables_shares_only_one_table(seed):
    entrants = [Entrant(id=player, team="big" if player < 5 else "") for player in range(16)]
    tables = draw(entrants, seed=seed)
    assert len(conflicts(tables, entrants)) == 1


# Seeded draws (Setzliste)


@pytest.mark.parametrize("n", [12, 13, 14, 15, 40])
def test_seeded_draw_puts_the_ranking_four_by_four_at_the_tables(n):
    entrants = make_entrants(n)
    ranking = ids_of(entrants)
    random.Random(n).shuffle(ranking)
    tables = draw(entrants, seed=1, ranking=ranking)

    assert set(tables[0]) == set(ranking[:4])
    expected = [set(ranking[end - size : end]) for end, size in seeded_slices(entrants)]
    assert [set(table) for table in tables] == expected


def test_seeded_draw_puts_the_last_players_at_the_three_tables():
    entrants = make_entrants(10)
    ranking = ids_of(entrants)
    tables = draw(entrants, seed=2, ranking=ranking)
    assert [set(table) for table in tables] == [
        set(ranking[:4]),
        set(ranking[4:7]),
        set(ranking[7:]),
    ]


def test_seeded_draw_seats_players_at_random_within_their_table():
    entrants = make_entrants(12)
    ranking = ids_of(entrants)
    first_seats = {draw(entrants, seed=seed, ranking=ranking)[0][0] for seed in range(30)}
    assert first_seats == set(ranking[:4])


def test_seeded_draw_does_not_depend_on_the_callers_order_of_entrants():
    entrants = make_entrants(30, team_size=3)
    ranking = ids_of(entrants)[::-1]
    assert draw(entrants, seed=5, ranking=ranking) == draw(entrants[::-1], seed=5, ranking=ranking)


def test_seeded_draw_moves_team_mates_only_to_a_neighbouring_table():
    # Tables 1 and 2 of the seeding each hold two pairs of team mates.
    teams = {0: "red", 1: "red", 2: "blue", 3: "blue", 4: "green", 5: "green"}
    entrants = [Entrant(id=player, team=teams.get(player, "")) for player in range(24)]
    ranking = list(range(24))
    tables = draw(entrants, seed=7, ranking=ranking)

    assert conflicts(tables, entrants) == []
    drawn = table_number(tables)
    assert all(abs(drawn[player] - player // 4) <= 1 for player in ranking)
    assert set(seated(tables[:2])) == set(range(8))


def test_seeded_draw_avoids_repeats_by_moving_players_to_a_neighbouring_table():
    entrants = make_entrants(24)
    ranking = ids_of(entrants)
    previous = pairs_at_tables([ranking[0:2], ranking[4:6]])
    tables = draw(entrants, seed=3, ranking=ranking, previous_opponents=previous)

    assert conflicts(tables, entrants, previous) == []
    drawn = table_number(tables)
    assert all(abs(drawn[player] - number // 4) <= 1 for number, player in enumerate(ranking))


def test_seeded_draw_keeps_the_seeding_when_a_conflict_cannot_be_avoided_nearby():
    # Four team mates seeded at table 1 can only spread over tables 1 and 2.
    entrants = [Entrant(id=player, team="red" if player < 4 else "") for player in range(24)]
    ranking = list(range(24))
    tables = draw(entrants, seed=7, ranking=ranking)

    assert len(conflicts(tables, entrants)) == 2
    assert [set(table) for table in tables[2:]] == [
        set(ranking[start : start + 4]) for start in range(8, 24, 4)
    ]


@pytest.mark.parametrize(
    "ranking, detail",
    [
        ([1, 2, 3], "missing 4"),
        ([1, 2, 3, 4, 9], "not in this draw 9"),
        ([1, 2, 3, 3], "missing 4; listed more than once 3"),
    ],
)
def test_ranking_must_list_exactly_the_drawn_players(ranking, detail):
    entrants = [Entrant(id=player) for player in (1, 2, 3, 4)]
    with pytest.raises(DrawError) as caught:
        draw(entrants, seed=1, ranking=ranking)
    assert caught.value.code == "ranking_mismatch"
    assert detail in str(caught.value)


# Mistakes


def test_a_player_listed_twice_is_refused():
    entrants = [Entrant(id=player) for player in (1, 2, 3, 4, 2, 5, 6)]
    with pytest.raises(DrawError) as caught:
        draw(entrants, seed=1)
    assert caught.value.code == "duplicate_player"
    assert str(caught.value).endswith("listed more than once: 2.")


def test_unknown_keep_apart_option_is_a_programming_error():
    with pytest.raises(ValueError, match="keep_apart"):
        draw(make_entrants(8), seed=1, keep_apart="family")


def test_previous_opponents_must_be_pairs():
    with pytest.raises(ValueError, match="pairs"):
        draw(make_entrants(8), seed=1, previous_opponents=[frozenset({101, 108, 115})])


# Conflicts


def test_conflicts_lists_each_remaining_pair_with_its_reason():
    entrants = [
        Entrant(id=1, team="A", club="X"),
        Entrant(id=2, team="A", club="X"),
        Entrant(id=3, club="Y"),
        Entrant(id=4, club="Y"),
        Entrant(id=5),
        Entrant(id=6),
        Entrant(id=7),
    ]
    tables = [[2, 1, 3, 4], [7, 6, 5]]
    previous = [frozenset({1, 3}), frozenset({7, 5}), frozenset({1, 5})]

    assert conflicts(tables, entrants, previous, "team_and_club") == [
        (1, 2, "team"),
        (1, 2, "club"),
        (1, 3, "repeat"),
        (3, 4, "club"),
        (5, 7, "repeat"),
    ]
    assert conflicts(tables, entrants, previous, "none") == [
        (1, 3, "repeat"),
        (5, 7, "repeat"),
    ]
    assert conflicts(tables, entrants) == [(1, 2, "team")]


def test_pairs_at_tables_lists_every_pair_who_met():
    assert set(pairs_at_tables([[1, 2, 3], [4, 5, 6, 7]])) == {
        frozenset(pair)
        for pair in [(1, 2), (1, 3), (2, 3), (4, 5), (4, 6), (4, 7), (5, 6), (5, 7), (6, 7)]
    }


# Large fields (the speed of the draw is measured in bench/, not here) and purity


def test_two_thousand_players_with_teams_clubs_and_repeats_meet_nobody_twice():
    entrants = make_entrants(2000, team_size=4, clubs=100)
    previous = pairs_at_tables(draw(entrants, seed=1, keep_apart="team_and_club"))
    tables = draw(entrants, seed=2, keep_apart="team_and_club", previous_opponents=previous)
    assert conflicts(tables, entrants, previous, "team_and_club") == []


def test_draw_module_has_no_django_import():
    tree = ast.parse(Path(tournaments.draw.engine.__file__).read_text(encoding="utf-8"))
    imported = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [name for name in imported if name.split(".")[0] == "django"]
