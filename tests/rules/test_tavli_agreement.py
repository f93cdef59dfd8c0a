"""The fast Plakoto, Fevga and Long Nardy generator agrees with the brute-force one
(``bruteforce_tavli.py``, written separately from the rule text) on a sample of position x roll
pairs: self-play positions x all 21 rolls with the default options, and crafted positions that
put each special rule to work x every option set. The default run takes every 5th position of
each (``[sample]``), CI all of them (``[full]``, see tests/sampling.py);
``bench/tavli_agreement.py`` runs the full count (over 100,000 pairs)."""

from __future__ import annotations

import random

import pytest

from oracles.bruteforce_tavli import brute_results
from oracles.tavli_crafted import OPTION_SETS, crafted_positions
from rules.common.dice import ALL_ROLLS
from rules.selfplay import steps_selfplay_positions
from rules.steps.board import Variant
from rules.steps.legal import legal_plays
from tests.sampling import sample_or_full

GAMES = (Variant.PLAKOTO, Variant.FEVGA, Variant.NARDY)


def fast(position, roll, options=None):  # type: ignore[no-untyped-def]
    return {play.position for play in legal_plays(position, roll, options)}


EVERY = sample_or_full(10, 1)
"""Every n-th position of each corpus."""


@pytest.mark.parametrize("step", EVERY)
@pytest.mark.parametrize("variant", GAMES)
def test_agrees_on_self_play_positions_and_every_roll(variant: Variant, step: int) -> None:
    positions = steps_selfplay_positions(variant, 15, seed=77)[::step]
    for position in positions:
        for roll in ALL_ROLLS:
            assert fast(position, roll) == brute_results(position, roll), (position, roll)


@pytest.mark.parametrize("step", EVERY)
@pytest.mark.parametrize("variant", GAMES)
def test_agrees_on_crafted_positions_under_every_option(variant: Variant, step: int) -> None:
    rng = random.Random(5)
    cases = [(position, options, rng.sample(ALL_ROLLS, 2))
             for position in crafted_positions(variant, 15, seed=99)
             for options in OPTION_SETS[variant]]
    per_position = len(OPTION_SETS[variant])
    for i, (position, options, rolls) in enumerate(cases):
        if (i // per_position) % step:
            continue
        for roll in rolls:
            assert fast(position, roll, options) == brute_results(position, roll, options), (
                position, roll, options)


def test_the_crafted_positions_reach_each_special_rule() -> None:
    """The corpus is only worth its count if the rules it is for come into play."""
    plakoto = crafted_positions(Variant.PLAKOTO, 200, seed=99)
    assert sum(any(p.pins) for p in plakoto) > 50
    assert sum(p.pins[1] == -1 for p in plakoto) > 5  # their mother pinned
    fevga = crafted_positions(Variant.FEVGA, 200, seed=99)
    assert sum(p.board[24] >= 14 for p in fevga) > 30  # the first checker
    assert sum(all(p.board[q] > 0 for q in range(19, 24)) for p in fevga) > 3  # the quarter
    assert sum(len([q for q in range(1, 25) if p.board[q] < 0]) == 1 for p in fevga) > 30
    nardy = crafted_positions(Variant.NARDY, 200, seed=99)
    assert sum(p.board[24] == 15 for p in nardy) > 30  # first turns
