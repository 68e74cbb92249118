"""The fixed values of both rule sets, in one place.

Base value (ISPA) and unit value (NA) are the factor a game's level or multiplier is
multiplied with; null games have fixed values instead.
"""

from __future__ import annotations

from types import MappingProxyType

__all__ = [
    "ISPA_BASE",
    "ISPA_BIDS",
    "ISPA_GAMES",
    "ISPA_MAX_LEVEL",
    "ISPA_NULL",
    "ISPA_SCHNEIDER_FROM",
    "ISPA_SCHWARZ_SKAT_MAX",
    "ISPA_TABLE_SIZES",
    "MAX_MATADORS",
    "NA_GAMES",
    "NA_GRAND_GUCKSER",
    "NA_GRAND_OUVERT",
    "NA_HIGHEST_VALUE",
    "NA_MIN_BID",
    "NA_NULL",
    "NA_NULL_OUVERT",
    "NA_SCHNEIDER_FROM",
    "NA_SOLO_UNITS",
    "NA_TABLE_SIZES",
    "NA_TOURNEE_UNITS",
    "RAMSCH_RESULTS",
    "RULE_SETS",
    "SUITS",
    "TRUMPS",
]

RULE_SETS: tuple[str, ...] = ("ispa", "na")

SUITS: tuple[str, ...] = ("diamonds", "hearts", "spades", "clubs")
#: What an NA tournée, passt mir nicht or solo may name as trump (rules §3.1).
TRUMPS: tuple[str, ...] = (*SUITS, "grand")

ISPA_GAMES: tuple[str, ...] = ("diamonds", "hearts", "spades", "clubs", "grand", "null", "passed")
NA_GAMES: tuple[str, ...] = (
    "tournee",
    "passt_mir_nicht",
    "solo",
    "grand_guckser",
    "grand_ouvert",
    "null",
    "null_ouvert",
    "ramsch",
)

# rules §1.1: base values.
ISPA_BASE: MappingProxyType[str, int] = MappingProxyType(
    {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}
)
# rules §1.1: null values, indexed [hand][ouvert].
ISPA_NULL: tuple[tuple[int, int], tuple[int, int]] = ((23, 46), (35, 59))
# rules §1.3: matadors + 1 + 7 levels at most.
ISPA_MAX_LEVEL = 18
# rules §1.3: the opponents are schneider when the declarer has 90 card points.
ISPA_SCHNEIDER_FROM = 90
# A schwarz declarer (no trick) still owns the skat in ISPA (rules "Terms"; Wikipedia: "The
# Skat always belongs to the declarer"), so his card points are the skat's: two aces at most.
ISPA_SCHWARZ_SKAT_MAX = 22
# rules §1.2: matadors per kind of game, both rule sets.
MAX_MATADORS: MappingProxyType[str, int] = MappingProxyType({"suit": 11, "grand": 4})

# rules §1.5: a bid must be a game value: base × 2..18 for suits, 24 × 2..11 for grand
# (with 4 + 7 levels), and the four null values; 63 values in all.
ISPA_BIDS: frozenset[int] = frozenset(
    {base * level for base in (9, 10, 11, 12) for level in range(2, ISPA_MAX_LEVEL + 1)}
    | {24 * level for level in range(2, 4 + 7 + 1)}
    | {value for row in ISPA_NULL for value in row}
)

# rules §3.1: unit values; passt mir nicht uses the tournée's.
NA_TOURNEE_UNITS: MappingProxyType[str, int] = MappingProxyType(
    {"diamonds": 5, "hearts": 6, "spades": 7, "clubs": 8, "grand": 12}
)
NA_SOLO_UNITS: MappingProxyType[str, int] = MappingProxyType(
    {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 20}
)
NA_GRAND_OUVERT = 24
NA_GRAND_GUCKSER = 16
NA_NULL = 20
NA_NULL_OUVERT = 40

# rules §3.4: bids start at 10. The scoring contract allows every integer bid from there
# ("NA: ≥ 10"); a bid above every game the hand can reach is simply overbid (rules §3.4).
NA_MIN_BID = 10
# rules §3.2: the highest NA game value, grand ouvert with 4: (4 + 5) × 24. The engine takes
# higher bids (the contract); the site refuses them as typing mistakes (services).
NA_HIGHEST_VALUE = NA_GRAND_OUVERT * (MAX_MATADORS["grand"] + 5)
# rules §3.3: the declarer needs 91 card points to make the opponents schneider.
NA_SCHNEIDER_FROM = 91

# Players at a table: ISPA 3 or 4 (rules §4); NA 3, 4 or 5 (rules §3.6: players without
# cards share the defenders' result, so the size does not change a game's score).
ISPA_TABLE_SIZES: frozenset[int] = frozenset({3, 4})
NA_TABLE_SIZES: frozenset[int] = frozenset({3, 4, 5})

# rules §3.5: the Ramsch result of the player described.
RAMSCH_RESULTS: MappingProxyType[str, int] = MappingProxyType(
    {"fewest_points": 10, "no_trick": 20, "all_tricks": -30}
)
