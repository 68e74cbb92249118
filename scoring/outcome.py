"""How the play ended, for suit and grand games of both rule sets.

The outcome is given either as flags (``won``, ``schneider``, ``schwarz``) or as the
declarer's ``card_points``, from which ``won`` and ``schneider`` follow. ``schwarz`` is
always a flag: card points cannot show whether a side took no trick. Card points include
the skat: in ISPA it is the declarer's even when he takes no trick, so a schwarz declarer
has the skat's points (0 to 22); in NA the opponents get it (card points 0).
"""

from __future__ import annotations

from bisect import bisect_right

from scoring.errors import fail
from scoring.game import Game
from scoring.tables import (
    ISPA_SCHNEIDER_FROM,
    ISPA_SCHWARZ_SKAT_MAX,
    NA_SCHNEIDER_FROM,
)

__all__ = ["card_points_band", "play_outcome", "schneider_reached"]

# Where a test of the card points can change its answer: every comparison the engine
# makes (the range 0-120, the schwarz declarer's skat points, the declarer schneider at 30,
# 61 to win, the opponents schneider at 90 or 91, all tricks at 120) falls between two of
# these. Both rule sets' limits are here, so a band means the same under either.
_BAND_STARTS = tuple(
    sorted(
        {
            0,
            1,  # NA: a schwarz declarer has none (the skat is the opponents')
            ISPA_SCHWARZ_SKAT_MAX + 1,
            31,
            61,
            ISPA_SCHNEIDER_FROM,
            NA_SCHNEIDER_FROM,
            120,
            121,
        }
    )
)

_JSON_BOOL = {True: "true", False: "false"}
_SCHNEIDER_FROM = {"ispa": ISPA_SCHNEIDER_FROM, "na": NA_SCHNEIDER_FROM}


def schneider_reached(
    rules: str, *, card_points: int | None, schneider: bool = False, schwarz: bool = False
) -> bool:
    """Whether the play of an accepted game ended schneider, for either side: as the flags
    say, or as the declarer's card points show (rules §1.3, §3.3: the opponents from 90 in
    ISPA, 91 in NA; the declarer with 30 or fewer). Schwarz is schneider too."""
    if schneider or schwarz:
        return True
    if card_points is None:
        return False
    return card_points >= _SCHNEIDER_FROM[rules] or card_points <= 30


def card_points_band(card_points: int) -> int:
    """The band of an integer ``card_points``: two games that differ only in card points of
    one band are accepted or refused alike and, if accepted, score the same result (no rule
    of either rule set tells them apart; ``tests/scoring`` checks every card point). A cache
    of results may key on the band instead of the card points; a refusal's message still
    names the card points, so only accepted games should be cached."""
    return bisect_right(_BAND_STARTS, card_points)


def play_outcome(
    game: Game,
    schneider_announced: bool,
    schwarz_announced: bool,
    schneider_from: int,
    schwarz_skat_max: int,
) -> tuple[bool, bool, bool]:
    """Return (won, schneider, schwarz) of the play, before any overbid check.

    ``schneider_from`` is the declarer's card points that make the opponents schneider:
    90 in ISPA (rules §1.3), 91 in NA (rules §3.3). The declarer is schneider himself with
    30 or fewer in both. ``schwarz_skat_max`` is the most card points a declarer who took
    no trick can have: the skat's 22 in ISPA, 0 in NA. The announcement flags already
    include what they imply.
    """
    schwarz = game.schwarz
    card_points = game.card_points
    if card_points is None:
        won = game.won
        if won is None:
            raise fail("result_required")
        schneider = game.schneider
        # rules §1.3: schwarz implies schneider; with flags both must be given.
        if schwarz and not schneider:
            raise fail("schwarz_without_schneider")
        if won:
            # rules §1.3 / §3.2: an announced level not reached loses the game, so a
            # "won" game without it is a mistake in the entry.
            if schwarz_announced and not schwarz:
                raise fail("announced_not_reached", level="schwarz")
            if schneider_announced and not schneider:
                raise fail("announced_not_reached", level="schneider")
        return won, schneider, schwarz

    if not 0 <= card_points <= 120:
        raise fail("card_points_range")
    if schwarz and schwarz_skat_max < card_points < 120:
        # Schwarz: the declarer took every trick (120) or none (the skat's points at most).
        if schwarz_skat_max:
            raise fail("schwarz_skat_points", skat=schwarz_skat_max, card_points=card_points)
        raise fail("schwarz_card_points", card_points=card_points)
    schneider = card_points >= schneider_from or card_points <= 30
    if game.schneider and not schneider:
        raise fail(
            "contradiction",
            field="schneider",
            given="true",
            card_points=card_points,
            derived="false",
        )
    # 61 card points win (rules §1.4, §3.3); an announcement must also be reached: schneider
    # by the card points, schwarz by the declarer taking every trick.
    won = (
        card_points >= 61
        and (not schneider_announced or card_points >= schneider_from)
        and (not schwarz_announced or (schwarz and card_points == 120))
    )
    given = game.won
    if given is not None and given is not won:
        raise fail(
            "contradiction",
            field="won",
            given=_JSON_BOOL[given],
            card_points=card_points,
            derived=_JSON_BOOL[won],
        )
    return won, schneider, schwarz
