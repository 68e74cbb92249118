"""Benchmark of the rules engine: seeded random games through the API and the command line.

    python bench/scoring.py [--games 1000000] [--seed 1]

Generates valid games of every kind of both rule sets (a fixed mix, see ``random_game``),
then times three paths and prints games per second for each:

- ``score(Game)`` on pre-built Game objects (the engine alone; target ≥ 200,000/s),
- ``score_mapping(dict)`` on the decoded JSON objects (types checked, Game built),
- ``python -m scoring`` fed the JSON lines through a pipe (decode, score, encode, I/O).

The command line's output is compared with the API's, so the numbers are for right answers.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    # Run as a script, this file's own folder comes first on sys.path and its name would
    # shadow the scoring package.
    sys.path[0] = str(ROOT)

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from scoring import (  # noqa: E402
    Game,
    ScoringError,
    result_to_contract,
    score,
    score_mapping,
    valid_bids,
)

SUITS = ("diamonds", "hearts", "spades", "clubs")
ISPA_BIDS = sorted(valid_bids("ispa"))
ISPA_LOW_BIDS = [bid for bid in ISPA_BIDS if bid <= 72]
ISPA_NULL = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}

# (weight, kind) of the generated mix: mostly suit and grand games, as on a real list.
MIX = [
    (50, "ispa_trump"),
    (6, "ispa_null"),
    (3, "ispa_passed"),
    (14, "na_tournee"),
    (4, "na_passt_mir_nicht"),
    (12, "na_solo"),
    (3, "na_grand_guckser"),
    (1, "na_grand_ouvert"),
    (4, "na_null"),
    (3, "na_ramsch"),
]
KINDS = [kind for _, kind in MIX]
WEIGHTS = [weight for weight, _ in MIX]


# The most card points a declarer who took no trick can have: the skat's in ISPA (rules
# "Terms"), none in NA (Foster 1909: the skat goes to the opponents).
SCHWARZ_SKAT_MAX = {"ispa": 22, "na": 0}


def _outcome(
    rng: random.Random, fields: dict[str, Any], schneider_announced: bool, schwarz_announced: bool
) -> None:
    """Add card points or flags that agree with each other and with the announcements."""
    if rng.random() < 0.6:
        card_points = rng.randint(0, 120)
        fields["card_points"] = card_points
        schwarz_possible = card_points == 120 or card_points <= SCHWARZ_SKAT_MAX[fields["rules"]]
        if schwarz_possible and rng.random() < 0.5:
            fields["schwarz"] = True
        return
    schwarz = rng.random() < 0.05
    schneider = schwarz or rng.random() < 0.2
    won = rng.random() < 0.7
    if (schneider_announced and not schneider) or (schwarz_announced and not schwarz):
        won = False
    fields["won"] = won
    if schneider:
        fields["schneider"] = True
    if schwarz:
        fields["schwarz"] = True


def random_game(rng: random.Random) -> dict[str, Any]:
    """One valid game as the decoded JSON object a club would enter."""
    kind = rng.choices(KINDS, WEIGHTS)[0]
    table_size = 4 if rng.random() < 0.7 else 3
    if kind == "ispa_trump":
        game = rng.choice((*SUITS, "grand"))
        fields: dict[str, Any] = {
            "rules": "ispa",
            "game": game,
            "matadors": rng.randint(1, 4 if game == "grand" else 11),
            "table_size": table_size,
        }
        if rng.random() < 0.3:
            fields["without"] = True
        ouvert = rng.random() < 0.02
        hand = ouvert or rng.random() < 0.15
        schwarz_announced = hand and rng.random() < 0.05
        schneider_announced = hand and (schwarz_announced or rng.random() < 0.1)
        if ouvert:
            fields["ouvert"] = True
        elif hand:
            fields["hand"] = True
        if schneider_announced:
            fields["schneider_announced"] = True
        if schwarz_announced:
            fields["schwarz_announced"] = True
        _outcome(rng, fields, schneider_announced or ouvert, schwarz_announced or ouvert)
        if rng.random() < 0.7:
            fields["bid"] = rng.choice(ISPA_LOW_BIDS)
        if rng.random() < 0.05:
            fields["kontra"] = True
            if rng.random() < 0.3:
                fields["re"] = True
        return fields
    if kind == "ispa_null":
        hand, ouvert = rng.random() < 0.3, rng.random() < 0.3
        fields = {"rules": "ispa", "game": "null", "won": rng.random() < 0.6}
        if hand:
            fields["hand"] = True
        if ouvert:
            fields["ouvert"] = True
        value = ISPA_NULL[hand, ouvert]
        if rng.random() < 0.7:
            fields["bid"] = rng.choice([bid for bid in ISPA_BIDS if bid <= value])
        return fields
    if kind == "ispa_passed":
        return {"rules": "ispa", "game": "passed", "table_size": table_size}

    game = kind[3:]
    fields = {"rules": "na", "game": game}
    if rng.random() < 0.1:
        fields["table_size"] = rng.choice((4, 5))  # rules §3.6
    if game == "ramsch":
        fields["ramsch"] = rng.choice(("fewest_points", "fewest_points", "no_trick", "all_tricks"))
        return fields
    if game == "null":
        if rng.random() < 0.3:
            fields["game"] = "null_ouvert"
        fields["won"] = rng.random() < 0.6
        if rng.random() < 0.7:
            fields["bid"] = rng.randint(10, 24)  # above the value: overbid (rules §3.4)
        return fields
    if game in ("tournee", "passt_mir_nicht", "solo"):
        trump = rng.choice((*SUITS, "grand"))
        fields["trump"] = trump
        grand = trump == "grand"
    else:
        grand = True
    fields["matadors"] = rng.randint(1, 4 if grand else 11)
    if rng.random() < 0.3:
        fields["without"] = True
    schwarz_announced = game == "solo" and rng.random() < 0.03
    schneider_announced = game == "solo" and (schwarz_announced or rng.random() < 0.1)
    if schneider_announced:
        fields["schneider_announced"] = True
    if schwarz_announced:
        fields["schwarz_announced"] = True
    ouvert = game == "grand_ouvert"
    _outcome(rng, fields, schneider_announced or ouvert, schwarz_announced or ouvert)
    if rng.random() < 0.7:
        fields["bid"] = rng.randint(10, 60)
    return fields


def _rate(count: int, seconds: float) -> str:
    return f"{count:>9,} games in {seconds:7.3f} s = {count / seconds:>11,.0f} games/s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games to generate")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generator")
    options = parser.parse_args(argv)

    rng = random.Random(options.seed)
    started = time.perf_counter()
    mappings = [random_game(rng) for _ in range(options.games)]
    games = [Game(**mapping) for mapping in mappings]
    lines = "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in mappings).encode()
    print(f"generated {len(games):,} games in {time.perf_counter() - started:.1f} s")

    # Every generated game must be valid, or the numbers would time the error path.
    results = []
    rejected = 0
    started = time.perf_counter()
    for game in games:
        try:
            results.append(score(game))
        except ScoringError:
            rejected += 1
    print("score(Game)          ", _rate(len(games), time.perf_counter() - started))
    if rejected:
        print(f"{rejected} generated games were rejected", file=sys.stderr)
        return 1

    started = time.perf_counter()
    for mapping in mappings:
        score_mapping(mapping)
    print("score_mapping(dict)  ", _rate(len(games), time.perf_counter() - started))

    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "scoring"],
        input=lines,
        capture_output=True,
        cwd=ROOT,
        check=False,
    )
    elapsed = time.perf_counter() - started
    print("python -m scoring    ", _rate(len(games), elapsed), "(incl. start-up)")
    if done.returncode != 0:
        print(done.stderr.decode()[-2000:], file=sys.stderr)
        return 1

    expected = [
        json.dumps(result_to_contract(game, result), separators=(",", ":"))
        for game, result in zip(games, results, strict=True)
    ]
    if done.stdout.decode().splitlines() != expected:
        print("the command line disagrees with the API", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
