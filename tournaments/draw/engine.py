"""Drawing players to tables for one series (Auslosung and Setzliste), rules §4.

Terms
-----
entrant
    A player taking part in the series, with their team and club ("" when none).
table
    Three or four players. Four-tables are normal and three-tables fill in: for N players
    there are (−N mod 4) three-tables and the rest are four-tables, four-tables first.
    N = 5 cannot be split; 3, 4 and every N from 6 up can. A North American tournament may
    allow tables of five (rules §3.6, Foster 1909: "Four or five persons can belong to the
    table"): then five-tables take the place of three-tables where they can, so the draw
    has as few three-tables as possible and then as few five-tables; four-tables come
    first, then five-tables, then three-tables. With fives every N from 3 up can be split.
draw
    A list of tables, each a list of player ids in seat order. Seat 1 (who deals first and
    keeps the list) comes first; tables are numbered 1, 2, … in list order.
random draw
    Series 1, or "draw again" for a later series: everyone is seated at random.
seeded draw (Setzliste)
    A later series seeded by the standings: the best four players sit at table 1, the next
    four at table 2 and so on; the three-tables take the last players. Seats within a table
    are random. A player's seeded table is their *home* table.
spread draw (by rating)
    A series seeded by rating, so that the strongest players do not meet: the ranking is
    dealt round the tables in a serpentine (snake): the best player to table 1, the next to
    table 2, ..., one to each table, then back from the last table to the first, and so on
    (with three tables: 1 2 3 3 2 1 1 2 3 ...; a table that is full is passed over). The
    players dealt in one round are a *pot*: every table has at most one player of each
    pot, and the search only ever swaps two players of the same pot, so the first pot (as
    many players as there are tables, the strongest) always sits at different tables,
    whatever keeping apart asks. Seats within a table are random.
keeping apart
    Members of the same team and/or club should not share a table, and *previous
    opponents* (two players who have already met at a table) should not meet again, where
    possible.
conflict
    A pair at one table that keeping apart could not avoid: reason "team", "club" or
    "repeat". `conflicts` lists them so the director can be warned.

How keeping apart works
-----------------------
A random draw first deals the members of large teams or clubs (members for more than half
the tables) round the tables, one per table in turn, and seats everyone else at random; a
seeded draw starts from the seeding, a spread draw from its serpentine (and swaps only
within a pot). A local search then swaps players between tables. Its
cost is a large weight per same-team or same-club pair at one table, a smaller weight per
repeat pair and, in a seeded draw, a small weight per table a player moved away from home.
A seeded draw only ever moves a player to a neighbouring table, so the seeding stays
mostly intact. Swaps are kept only when they lower the cost; when no swap helps, a few
random swaps shake the draw up and the search goes on from there, keeping the best draw
seen. The work is capped in proportion to the number of players, so a draw that cannot
avoid every conflict (one team of eight among eight players) just returns the best it
found: that is never an error.

Everything random comes from ``random.Random(seed)``, and the entrants are sorted by id
first, so the same entrants, options and seed always give the same draw, whatever order
the caller lists them in.

This module is pure Python with no Django import; ``tournaments.draw.services`` turns a
`DrawError` code into a translated message and stores the draw.
"""

import random
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, combinations

KEEP_APART_CHOICES = ("team", "club", "team_and_club", "none")

# A same-team or same-club pair outweighs any number of repeats a swap could trade for it,
# and a repeat outweighs moving two players one table away from their seeded tables.
SAME_GROUP_WEIGHT = 1000
REPEAT_WEIGHT = 10
DISPLACEMENT_WEIGHT = 3
# In a seeded draw a player sits at their home table or a neighbouring one.
MAX_SEED_SHIFT = 1
# Work cap: swap evaluations per player (at least MIN_EVALUATIONS), and the number of
# shake-ups in all and in a row without finding a better draw.
EVALUATIONS_PER_PLAYER = 100
MIN_EVALUATIONS = 10_000
MAX_SHAKES = 200
MAX_SHAKES_WITHOUT_PROGRESS = 50
SWAPS_PER_SHAKE = 2


class DrawError(Exception):
    """A draw the user asked for that cannot be made; `code` is stable, the message English."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Entrant:
    id: int
    team: str = ""
    club: str = ""


def table_sizes(n: int, *, fives: bool = False) -> list[int]:
    """Table sizes for n players: four-tables first, then (−n mod 4) three-tables.

    With ``fives`` five-tables replace three-tables where they can (see the module text).
    """
    if fives and n >= 3:
        # Fewest three-tables, then fewest five-tables: n = 4a + 5b + 3c.
        for threes in range(0, 3):
            for five_count in range(0, 4):
                rest = n - 3 * threes - 5 * five_count
                if rest >= 0 and rest % 4 == 0:
                    return [4] * (rest // 4) + [5] * five_count + [3] * threes
    threes = (-n) % 4
    fours, remainder = divmod(n - 3 * threes, 4)
    if n < 3 or fours < 0 or remainder:
        raise DrawError(
            "impossible_split",
            f"{n} players cannot be split into tables of 3 and 4; add or remove a player "
            "(3, 4 and every number from 6 up can be seated).",
        )
    return [4] * fours + [3] * threes


def pairs_at_tables(tables: Iterable[Sequence[int]]) -> list[frozenset[int]]:
    """Every pair of players who sat at one table: `previous_opponents` for the next draw."""
    return [frozenset(pair) for table in tables for pair in combinations(table, 2)]


def draw(
    entrants: Sequence[Entrant],
    *,
    seed: int,
    ranking: Sequence[int] | None = None,
    keep_apart: str = "team",
    previous_opponents: Collection[frozenset[int]] = (),
    fives: bool = False,
    spread: bool = False,
) -> list[list[int]]:
    """Seat the entrants at tables; see the module docstring.

    `ranking` (player ids, best first) makes a seeded draw; without it the draw is random.
    `spread` (with a ranking): the ranking dealt in a serpentine across the tables (a
    spread draw, by rating) instead of the best at table 1 (a seeded draw).
    `keep_apart` is "team", "club", "team_and_club" or "none". `previous_opponents` holds
    pairs of player ids who have already met; they are kept apart where possible too.
    `fives` allows tables of five (North American tournaments, rules §3.6).
    """
    _check_keep_apart(keep_apart)
    ids = [entrant.id for entrant in entrants]
    duplicates = sorted(player for player, count in Counter(ids).items() if count > 1)
    if duplicates:
        raise DrawError(
            "duplicate_player",
            f"Each player can be drawn only once; listed more than once: {_id_list(duplicates)}.",
        )
    players = sorted(entrants, key=lambda entrant: entrant.id)
    sizes = table_sizes(len(players), fives=fives)
    index_of = {entrant.id: index for index, entrant in enumerate(players)}
    rng = random.Random(seed)

    team = _group_keys(players, "team" if keep_apart in ("team", "team_and_club") else None)
    club = _group_keys(players, "club" if keep_apart in ("club", "team_and_club") else None)

    pots = None
    if ranking is None:
        tables = _random_tables(sizes, [team, club], rng)
        seeded = False
    elif spread:
        _check_ranking(ranking, ids)
        tables, pots = _serpentine([index_of[player] for player in ranking], sizes)
        seeded = False
    else:
        _check_ranking(ranking, ids)
        order = [index_of[player] for player in ranking]
        ends = list(accumulate(sizes))
        tables = [order[end - size : end] for end, size in zip(ends, sizes, strict=True)]
        seeded = True

    search = _Search(
        tables, team, club, previous_opponents, index_of, seeded=seeded, rng=rng, pots=pots
    )
    search.run()
    for table in search.tables:
        rng.shuffle(table)
    return [[players[index].id for index in table] for table in search.tables]


def conflicts(
    tables: Sequence[Sequence[int]],
    entrants: Iterable[Entrant],
    previous_opponents: Collection[frozenset[int]] = (),
    keep_apart: str = "team",
) -> list[tuple[int, int, str]]:
    """The pairs sharing a table that should have been kept apart, as (id, id, reason).

    The smaller id comes first; reasons are "team", "club" and "repeat", and a pair is
    listed once per reason. The order follows the tables, then the seats.
    """
    _check_keep_apart(keep_apart)
    by_id = {entrant.id: entrant for entrant in entrants}
    met = {_pair(pair) for pair in previous_opponents}
    found = []
    for table in tables:
        for first, second in combinations(table, 2):
            low, high = sorted((first, second))
            one, other = by_id[low], by_id[high]
            if keep_apart in ("team", "team_and_club") and one.team and one.team == other.team:
                found.append((low, high, "team"))
            if keep_apart in ("club", "team_and_club") and one.club and one.club == other.club:
                found.append((low, high, "club"))
            if (low, high) in met:
                found.append((low, high, "repeat"))
    return found


class _Search:
    """Local search over swaps; players are indices into the entrants sorted by id."""

    def __init__(
        self,
        tables: list[list[int]],
        team: list[int],
        club: list[int],
        previous_opponents: Collection[frozenset[int]],
        index_of: dict[int, int],
        *,
        seeded: bool,
        rng: random.Random,
        pots: list[int] | None = None,
    ):
        self.rng = rng
        # A spread draw's pots: two players swap only within their pot (None: any two).
        self.pots = pots
        self.tables = tables
        self.table_of = [0] * len(team)
        # Home tables only matter in a seeded draw; None means "anywhere".
        self.home: list[int] | None = None
        self.team = team
        self.club = club
        self.met: list[dict[int, int]] = [{} for _ in team]
        for pair in previous_opponents:
            first, second = _pair(pair)
            if first in index_of and second in index_of:
                one, other = index_of[first], index_of[second]
                self.met[one][other] = self.met[one].get(other, 0) + 1
                self.met[other][one] = self.met[other].get(one, 0) + 1
        # Each player's pair cost at their own table, kept up to date after every swap.
        self.cost = [0] * len(team)
        self._restore(tables)
        if seeded:
            self.home = list(self.table_of)
        self.evaluations = 0
        self.budget = max(MIN_EVALUATIONS, EVALUATIONS_PER_PLAYER * len(team))

    def run(self) -> None:
        if len(self.tables) < 2:
            return
        self._climb()
        best_cost = self._total_cost()
        best_tables = [list(table) for table in self.tables]
        shakes = stale = 0
        while (
            any(self.cost)
            and shakes < MAX_SHAKES
            and stale < MAX_SHAKES_WITHOUT_PROGRESS
            and self.evaluations < self.budget
        ):
            shakes += 1
            stale += 1
            self._shake()
            self._climb()
            cost = self._total_cost()
            if cost < best_cost:
                stale = 0
            if cost <= best_cost:
                best_cost = cost
                best_tables = [list(table) for table in self.tables]
            else:
                self._restore(best_tables)
        self._restore(best_tables)

    # Costs

    def _pair_cost(self, one: int, other: int) -> int:
        cost = 0
        team = self.team[one]
        if team >= 0 and team == self.team[other]:
            cost += SAME_GROUP_WEIGHT
        club = self.club[one]
        if club >= 0 and club == self.club[other]:
            cost += SAME_GROUP_WEIGHT
        met = self.met[one]
        if met:
            cost += REPEAT_WEIGHT * met.get(other, 0)
        return cost

    def _cost_at(self, player: int, number: int, without: int) -> int:
        """The player's pair cost at table `number`, leaving out themselves and `without`."""
        pair_cost = self._pair_cost
        return sum(
            pair_cost(player, other)
            for other in self.tables[number]
            if other != player and other != without
        )

    def _displacement(self, player: int, number: int) -> int:
        if self.home is None:
            return 0
        return DISPLACEMENT_WEIGHT * abs(number - self.home[player])

    def _player_cost(self, player: int) -> int:
        return self.cost[player] + self._displacement(player, self.table_of[player])

    def _total_cost(self) -> int:
        return sum(self._player_cost(player) for player in range(len(self.cost)))

    # Moves

    def _allowed(self, player: int, number: int) -> bool:
        return self.home is None or abs(number - self.home[player]) <= MAX_SEED_SHIFT

    def _same_pot(self, one: int, other: int) -> bool:
        return self.pots is None or self.pots[one] == self.pots[other]

    def _candidate_tables(self, player: int) -> list[int]:
        """The other tables the player may move to, in random order."""
        here = self.table_of[player]
        if self.home is None:
            count = len(self.tables)
            start = self.rng.randrange(count)
            numbers = [(start + step) % count for step in range(count)]
        else:
            home = self.home[player]
            low = max(0, home - MAX_SEED_SHIFT)
            numbers = list(range(low, min(len(self.tables), home + MAX_SEED_SHIFT + 1)))
            self.rng.shuffle(numbers)
        return [number for number in numbers if number != here]

    def _swap(self, one: int, other: int) -> None:
        first, second = self.table_of[one], self.table_of[other]
        self.tables[first][self.tables[first].index(one)] = other
        self.tables[second][self.tables[second].index(other)] = one
        self.table_of[one], self.table_of[other] = second, first
        for number in (first, second):
            for player in self.tables[number]:
                self.cost[player] = self._cost_at(player, number, -1)

    def _try_improving_swap(self, player: int) -> bool:
        """Make the best swap for `player` at the first table that offers an improving one."""
        here = self.table_of[player]
        now = self._player_cost(player)
        pair_cost = self._pair_cost
        for there in self._candidate_tables(player):
            members = self.tables[there]
            self.evaluations += 1
            pairs = [pair_cost(player, other) for other in members]
            there_all = sum(pairs) + self._displacement(player, there)
            # The player sheds at most one pair by the swap, the other at most all its cost.
            relief = max(self._player_cost(other) for other in members)
            if there_all - max(pairs) - now - relief >= 0:
                continue
            best_delta, best_other = 0, -1
            for other, pair in zip(members, pairs, strict=True):
                self.evaluations += 1
                if not self._allowed(other, here) or not self._same_pot(player, other):
                    continue
                delta = (
                    there_all
                    - pair
                    + self._cost_at(other, here, player)
                    + self._displacement(other, here)
                    - now
                    - self._player_cost(other)
                )
                if delta < best_delta:
                    best_delta, best_other = delta, other
            if best_other >= 0:
                self._swap(player, best_other)
                return True
            if self.evaluations >= self.budget:
                return False
        return False

    def _climb(self) -> None:
        """Swap while some swap lowers the cost (hill climbing), within the budget."""
        while self.evaluations < self.budget:
            movable = [player for player in range(len(self.cost)) if self._player_cost(player)]
            self.rng.shuffle(movable)
            improved = False
            for player in movable:
                if self.evaluations >= self.budget:
                    return
                if self._player_cost(player) and self._try_improving_swap(player):
                    improved = True
            if not improved:
                return

    def _shake(self) -> None:
        """Swap a few players in conflict with random players at tables they may move to."""
        for _ in range(SWAPS_PER_SHAKE):
            conflicted = [player for player, cost in enumerate(self.cost) if cost]
            if not conflicted:
                return
            player = self.rng.choice(conflicted)
            here = self.table_of[player]
            options = [
                other
                for there in self._candidate_tables(player)
                for other in self.tables[there]
                if self._allowed(other, here) and self._same_pot(player, other)
            ]
            self.evaluations += len(options)
            if options:
                self._swap(player, self.rng.choice(options))

    def _restore(self, tables: list[list[int]]) -> None:
        self.tables[:] = [list(table) for table in tables]
        for number, table in enumerate(self.tables):
            for player in table:
                self.table_of[player] = number
        for number, table in enumerate(self.tables):
            for player in table:
                self.cost[player] = self._cost_at(player, number, -1)


def _serpentine(order: list[int], sizes: list[int]) -> tuple[list[list[int]], list[int]]:
    """The players of `order` (best first) dealt round the tables in a serpentine, and each
    player's pot (the round they were dealt in); see "spread draw" in the module text.

    Round r deals to the tables with a seat left, first to last when r is even, last to
    first when it is odd, so the best of each round and the worst of the next sit at the
    same end and every table's strength evens out."""
    tables: list[list[int]] = [[] for _ in sizes]
    pots = [0] * len(order)
    players = iter(order)
    for pot in range(max(sizes, default=0)):
        open_tables = [number for number, size in enumerate(sizes) if size > pot]
        for number in open_tables if pot % 2 == 0 else reversed(open_tables):
            player = next(players)
            tables[number].append(player)
            pots[player] = pot
    return tables, pots


def _random_tables(
    sizes: list[int], groups: list[list[int]], rng: random.Random
) -> list[list[int]]:
    """Seat players at random, but deal the members of large groups round the tables first.

    `groups` holds one key list per kind of group (team, club), −1 for none. A group is
    large when it has members for more than half the tables: seated at random they would
    crowd together, and swapping them apart one by one is slow. So their members are dealt
    one seat per table in turn, largest group first, and everyone else fills the remaining
    seats in random order. Without large groups this is a plain random draw.
    """
    order = list(range(sum(sizes)))
    rng.shuffle(order)
    members = Counter((kind, key) for kind, keys in enumerate(groups) for key in keys if key >= 0)
    large = sorted(group for group, count in members.items() if 2 * count > len(sizes))
    rng.shuffle(large)
    # Largest group first; groups of one size in random order.
    rank = {group: (-members[group], place) for place, group in enumerate(large)}
    dealt: list[tuple[tuple[int, int], int]] = []
    rest = []
    for player in order:
        own = [(kind, keys[player]) for kind, keys in enumerate(groups)]
        own = [group for group in own if group in rank]
        if own:
            dealt.append((min(rank[group] for group in own), player))
        else:
            rest.append(player)
    dealt.sort(key=lambda item: item[0])  # stable: members of a group stay in random order
    numbers = list(range(len(sizes)))
    rng.shuffle(numbers)
    seats = [number for seat in range(max(sizes)) for number in numbers if seat < sizes[number]]
    tables: list[list[int]] = [[] for _ in sizes]
    for player, number in zip([player for _, player in dealt] + rest, seats, strict=True):
        tables[number].append(player)
    return tables


def _group_keys(players: Sequence[Entrant], attribute: str | None) -> list[int]:
    """A small int per team (or club) name, −1 for none, so comparing is cheap."""
    if attribute is None:
        return [-1] * len(players)
    numbers: dict[str, int] = {}
    keys = []
    for entrant in players:
        name = getattr(entrant, attribute)
        keys.append(numbers.setdefault(name, len(numbers)) if name else -1)
    return keys


def _pair(pair: frozenset[int]) -> tuple[int, int]:
    if len(pair) != 2:
        raise ValueError(f"previous_opponents holds pairs of two player ids, not {set(pair)}")
    first, second = sorted(pair)
    return first, second


def _check_keep_apart(keep_apart: str) -> None:
    if keep_apart not in KEEP_APART_CHOICES:
        raise ValueError(f"keep_apart must be one of {KEEP_APART_CHOICES}, not {keep_apart!r}")


def _check_ranking(ranking: Sequence[int], ids: Sequence[int]) -> None:
    ranked = list(ranking)
    if len(ranked) == len(set(ranked)) and set(ranked) == set(ids):
        return
    missing = sorted(set(ids) - set(ranked))
    extra = sorted(set(ranked) - set(ids))
    twice = sorted(player for player, count in Counter(ranked).items() if count > 1)
    details = []
    if missing:
        details.append(f"missing {_id_list(missing)}")
    if extra:
        details.append(f"not in this draw {_id_list(extra)}")
    if twice:
        details.append(f"listed more than once {_id_list(twice)}")
    raise DrawError(
        "ranking_mismatch",
        "The ranking must list every player of the draw exactly once ("
        + "; ".join(details)
        + ").",
    )


def _id_list(ids: Sequence[int]) -> str:
    return ", ".join(str(player) for player in ids)
