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
def outcomes(draw, schneider_announced, schwarz_announced, rules):
    """A consistent outcome: card points, or flags, as the contract allows."""
    if draw(st.booleans()):
        card_points = draw(st.integers(0, 120))
        # A schwarz declarer keeps the skat in ISPA (up to 22 card points, rules "Terms"),
        # not in NA (Foster 1909: the skat goes to the opponents).
        skat_max = 22 if rules == "ispa" else 0
        schwarz = (card_points == 120 or card_points <= skat_max) and draw(st.booleans())
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
                      schwarz_announced or ouvert, "ispa"))
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
        "table_size": draw(st.sampled_from([3, 4, 5])),  # rules §3.6
        "bid": draw(st.none() | st.integers(10, 300)),  # contract: any bid ≥ 10
    }
    fields.update(draw(outcomes(schneider_announced, schwarz_announced, "na")))
    return Game(**fields)


@st.composite
def na_grand_games(draw):
    """Valid NA grand guckser and grand ouvert games (rules §3.1, §3.2)."""
    game = draw(st.sampled_from(["grand_guckser", "grand_ouvert"]))
    ouvert = game == "grand_ouvert"
    fields = {
        "rules": "na",
        "game": game,
        "matadors": draw(st.integers(1, 4)),
        "without": draw(st.booleans()),
        # rules §3.2: grand ouvert counts as schwarz announced; saying so is harmless.
        "schwarz_announced": ouvert and draw(st.booleans()),
        "table_size": draw(st.sampled_from([3, 4, 5])),
        "bid": draw(st.none() | st.integers(10, 300)),
    }
    fields.update(draw(outcomes(ouvert, ouvert, "na")))
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
    # rules §1.3: level = matadors + 1 + one each for hand, schneider, schneider announced,
    # schwarz, schwarz announced, ouvert: matadors + 7 at most, and 18 at most.
    result = score(game)
    assert result.base == ISPA_BASE[game.game]
    assert game.matadors + 1 <= result.multiplier <= game.matadors + 7
    assert result.multiplier <= 18
    if game.ouvert:  # rules §1.3: suit/grand ouvert has all levels
        assert result.multiplier == game.matadors + 7
    if not result.overbid:
        assert result.value == result.base * result.multiplier


@SETTINGS
@given(st.one_of(ispa_trump_games(), na_trump_games(), na_grand_games()))
def test_more_matadors_never_lower_the_value(game):
    top = 4 if "grand" in game.game or game.trump == "grand" else 11
    assume(game.matadors < top)
    more = dataclasses.replace(game, matadors=game.matadors + 1)
    assert score(more).value >= score(game).value


@SETTINGS
@given(st.one_of(ispa_trump_games(), na_trump_games(), na_grand_games()))
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


@SETTINGS
@given(na_grand_games())
def test_na_grand_guckser_loses_double_and_grand_ouvert_is_matadors_plus_5(game):
    # rules §3.1: guckser 16, grand ouvert 24; rules §3.2: grand ouvert counts as schwarz
    # announced (matadors + 3 + 2); rules §3.4: guckser loses double, grand ouvert single.
    result = score(game)
    if game.game == "grand_ouvert":
        assert (result.base, result.multiplier) == (24, game.matadors + 5)
        factor = 1
    else:
        assert result.base == 16
        assert game.matadors + 1 <= result.multiplier <= game.matadors + 3
        factor = 2
    if not result.overbid:
        assert result.value == result.base * result.multiplier
    assert result.score == (result.value if result.won else -factor * result.value)


@st.composite
def schwarz_declarers(draw):
    """Any valid trump game, played out with the declarer taking no trick."""
    game = draw(st.one_of(ispa_trump_games(), na_trump_games(), na_grand_games()))
    skat_max = 22 if game.rules == "ispa" else 0  # rules "Terms"; Foster 1909 for NA
    card_points = draw(st.integers(0, skat_max))
    return dataclasses.replace(
        game, card_points=card_points, schwarz=True, won=None, schneider=False
    )


@SETTINGS
@given(schwarz_declarers())
def test_schwarz_declarer_loses_with_schneider_and_schwarz_levels(game):
    # rules §1.3 / §3.2: a declarer who took no trick is schneider and schwarz and loses.
    result = score(game)
    assert result.won is False
    assert result.multiplier >= game.matadors + 3


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
    st.one_of(ispa_trump_games(), na_trump_games(), na_grand_games()),
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
