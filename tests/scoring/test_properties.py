"""Properties that hold for every game (hypothesis)."""

import dataclasses
import json

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring import (
    ISPA_GAMES,
    NA_GAMES,
    SUITS,
    Game,
    GameResult,
    ScoringError,
    result_to_contract,
    score,
    score_mapping,
    valid_bids,
)
from scoring.game import FIELD_NAMES
from scoring.tables import ISPA_BASE, ISPA_BIDS, NA_SOLO_UNITS, NA_TOURNEE_UNITS

SETTINGS = settings(database=None, deadline=None, max_examples=400)


@st.composite
def outcomes(draw, schneider_announced, schwarz_announced, schneider_from):
    """A consistent outcome: card points, or flags, as the contract allows."""
    if draw(st.booleans()):
        card_points = draw(st.integers(0, 120))
        schwarz = card_points in (0, 120) and draw(st.booleans())
        return {"card_points": card_points, "schwarz": schwarz}
    schwarz = draw(st.booleans())
    schneider = schwarz or draw(st.booleans())
    won = draw(st.booleans())
    if (schneider_announced and not schneider) or (schwarz_announced and not schwarz):
        won = False
    return {"won": won, "schneider": schneider, "schwarz": schwarz}


@st.composite
def ispa_trump_games(draw):
    """Valid ISPA suit and grand games (rules §1.2, §1.3)."""
    game = draw(st.sampled_from([*SUITS, "grand"]))
    matadors = draw(st.integers(1, 4 if game == "grand" else 11))
    ouvert = draw(st.booleans())
    hand = ouvert or draw(st.booleans())
    schwarz_announced = hand and draw(st.booleans())
    schneider_announced = hand and (schwarz_announced or draw(st.booleans()))
    kontra = draw(st.booleans())
    fields = {
        "rules": "ispa",
        "game": game,
        "matadors": matadors,
        "without": draw(st.booleans()),
        "hand": hand,
        "ouvert": ouvert,
        "schneider_announced": schneider_announced,
        "schwarz_announced": schwarz_announced,
        "kontra": kontra,
        "re": kontra and draw(st.booleans()),
        "table_size": draw(st.sampled_from([3, 4])),
        "bid": draw(st.none() | st.sampled_from(sorted(ISPA_BIDS))),
    }
    fields.update(
        draw(outcomes(schneider_announced or schwarz_announced or ouvert,
                      schwarz_announced or ouvert, 90))
    )  # fmt: skip
    return Game(**fields)


@st.composite
def na_trump_games(draw):
    """Valid NA tournée, passt mir nicht and solo games (rules §3.1, §3.2)."""
    game = draw(st.sampled_from(["tournee", "passt_mir_nicht", "solo"]))
    trump = draw(st.sampled_from([*SUITS, "grand"]))
    schwarz_announced = game == "solo" and draw(st.booleans())
    schneider_announced = game == "solo" and (schwarz_announced or draw(st.booleans()))
    fields = {
        "rules": "na",
        "game": game,
        "trump": trump,
        "matadors": draw(st.integers(1, 4 if trump == "grand" else 11)),
        "schneider_announced": schneider_announced,
        "schwarz_announced": schwarz_announced,
        "bid": draw(st.none() | st.integers(10, 216)),
    }
    fields.update(draw(outcomes(schneider_announced, schwarz_announced, 91)))
    return Game(**fields)


@SETTINGS
@given(ispa_trump_games())
def test_every_won_ispa_value_is_a_valid_bid(game):
    # rules §1.5: the 63 bids are exactly the possible game values.
    result = score(game)
    if result.won:
        assert result.value in valid_bids("ispa")


@SETTINGS
@given(ispa_trump_games())
def test_lost_ispa_game_scores_minus_twice_its_value(game):
    # rules §1.4: lost → −2 × value; rules §1.7: Kontra/Re multiply the score only.
    result = score(game)
    factor = (4 if game.re else 2) if game.kontra else 1
    if result.won:
        assert result.score == result.value * factor
        assert result.list_declarer == result.score + 50 and result.list_others == 0
    else:
        assert result.score == -2 * result.value * factor
        assert result.list_declarer == result.score - 50
        assert result.list_others == (40 if game.table_size == 3 else 30)


@SETTINGS
@given(ispa_trump_games())
def test_ispa_value_is_base_times_level(game):
    # rules §1.3: level = matadors + 1 + the levels reached; at most 18.
    result = score(game)
    assert result.base == ISPA_BASE[game.game]
    assert game.matadors + 1 <= result.multiplier <= game.matadors + 8
    assert result.multiplier <= 18
    if not result.overbid:
        assert result.value == result.base * result.multiplier


@SETTINGS
@given(st.one_of(ispa_trump_games(), na_trump_games()))
def test_more_matadors_never_lower_the_value(game):
    top = 4 if "grand" in (game.game, game.trump) else 11
    assume(game.matadors < top)
    more = dataclasses.replace(game, matadors=game.matadors + 1)
    assert score(more).value >= score(game).value


@SETTINGS
@given(st.one_of(ispa_trump_games(), na_trump_games()))
def test_overbid_value_is_the_smallest_multiple_of_base_reaching_the_bid(game):
    # rules §1.5, §3.4.
    result = score(game)
    if game.bid is None:
        assert not result.overbid
        return
    played = result.base * result.multiplier
    assert result.overbid == (played < game.bid)
    if result.overbid:
        assert result.won is False
        assert result.value % result.base == 0
        assert result.value >= game.bid > result.value - result.base


@SETTINGS
@given(na_trump_games())
def test_na_lost_games_single_or_double(game):
    # rules §3.4: lost single; passt mir nicht double.
    result = score(game)
    units = NA_SOLO_UNITS if game.game == "solo" else NA_TOURNEE_UNITS
    assert result.base == units[game.trump]
    if not result.won:
        factor = 2 if game.game == "passt_mir_nicht" else 1
        assert result.score == -factor * result.value


json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
plausible_values = {
    "rules": st.sampled_from(["ispa", "na", "ispa", "na", "ISPA"]),
    "game": st.sampled_from([*ISPA_GAMES, *NA_GAMES, "x"]),
    "trump": st.none() | st.sampled_from([*SUITS, "grand", "null"]),
    "matadors": st.none() | st.integers(-2, 13),
    "card_points": st.none() | st.integers(-5, 125),
    "bid": st.none() | st.integers(-20, 300),
    "table_size": st.integers(1, 6),
    "ramsch": st.none() | st.sampled_from(["fewest_points", "no_trick", "all_tricks", "x"]),
    "won": st.none() | st.booleans(),
}
plausible_mappings = st.fixed_dictionaries(
    {"rules": plausible_values["rules"], "game": plausible_values["game"]},
    optional={
        name: plausible_values.get(name, st.booleans())
        for name in FIELD_NAMES
        if name not in ("rules", "game")
    },
)
# A valid game with one or two fields changed: reaches the rule checks deep down.
near_valid_mappings = st.builds(
    lambda game, changes: {**dataclasses.asdict(game), **changes},
    st.one_of(ispa_trump_games(), na_trump_games()),
    st.dictionaries(
        st.sampled_from(FIELD_NAMES),
        st.none() | st.booleans() | st.integers(-5, 300) | plausible_values["game"],
        max_size=2,
    ),
)
arbitrary_mappings = st.dictionaries(
    st.sampled_from(FIELD_NAMES) | st.text(max_size=8), json_values, max_size=8
)


@settings(database=None, deadline=None, max_examples=1500)
@given(st.one_of(plausible_mappings, near_valid_mappings, arbitrary_mappings, json_values))
def test_any_input_gives_a_result_or_a_scoring_error(mapping):
    try:
        result = score_mapping(mapping)
    except ScoringError as error:
        assert error.code and str(error)
        return
    assert isinstance(result, GameResult)
    json.dumps(result_to_contract(Game(**mapping), result))
