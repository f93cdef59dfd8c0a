"""The strong level of Plakoto, Fevga and Long Nardy: the shipped nets, their inputs on crafted
positions, legal plays only, and a training run that repeats itself."""

from __future__ import annotations

import random

import numpy as np
import pytest

from computer.steps_features import batch, column, feature_count
from computer.steps_medium import steps_player
from computer.steps_net import StepsNet, StepsStrongPlayer, after_equities, equity, load_net
from computer.train import train
from rules.games import game_outcome, legal_plays, start_position
from rules.steps.board import StepsPosition, parse_steps
from tests.sampling import sample_or_full

GAMES = ("plakoto", "fevga", "nardy")


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_its_net_in_the_package(game: str) -> None:
    net = load_net(game)
    assert net.variant == game
    assert net.w1.shape[0] == feature_count(game) and net.w2.shape[1] == 3
    start = start_position(game)
    assert isinstance(start, StepsPosition)
    # The set-up is close to even for the side to move: neither side is far ahead.
    assert -0.5 < equity(game, start) < 0.5


def test_a_pinned_mother_is_worth_a_game_and_more() -> None:
    # x pins o's mother (o's last checker on its start, x's 1) while x's own mother could still
    # be pinned back (x has checkers on its start): not decided yet, but far ahead; beside the
    # same position with o's mother free and x's two checkers on x's 4, it is worth much more.
    pinned = parse_steps("plakoto", "x 24:4 13:3 9:2 8:2 6:2 1:2p; o 23:2 22:3 20:3 18:3 15:3")
    free = parse_steps("plakoto",
                       "x 24:4 13:3 9:2 8:2 6:2 4:2; o 24:1 23:2 22:3 20:3 18:3 15:3")
    assert game_outcome(pinned) is None and game_outcome(free) is None
    rows = batch([pinned, free])
    assert rows[0, column("plakoto", "mother_pinned_them")] == 1.0
    assert rows[1, column("plakoto", "mother_pinned_them")] == 0.0
    assert rows[1, column("plakoto", "mother_alone_them")] == 1.0
    assert rows[0, column("plakoto", "pins_them")] == pytest.approx(1 / 3)
    values = after_equities([pinned, free])
    assert values[0] > 0.5 and values[0] - values[1] > 0.5
    # With x's start empty the pinned mother ends the game: 2 points, not the net's guess.
    won = parse_steps("plakoto", "x 6:5 4:5 3:4 1:1p; o 20:3 18:3 15:4 13:4")
    assert after_equities([won])[0] == 2.0


def test_a_blot_in_reach_is_exposed_and_one_out_of_reach_is_not() -> None:
    # o's checkers stand on x's 1 (o's start): x's blots on x's 7 and 6 are 6 and 5 away, those
    # on x's 23 and 22 are 22 and 21 away, which no roll moves one checker.
    near = parse_steps("plakoto", "x 24:13 7:1 6:1; o 24:15")
    far = parse_steps("plakoto", "x 24:13 23:1 22:1; o 24:15")
    rows = batch([near, far])
    exposed = column("plakoto", "exposed_us")
    assert rows[0, exposed] == pytest.approx((17 + 15) / 36)  # the shot table's rolls
    assert rows[1, exposed] == 0.0


def test_a_closed_six_prime_in_front_of_all_their_checkers() -> None:
    # Fevga: o's start is x's 12; x holds 11-6, the six points in front of it.
    prime = parse_steps("fevga", "x 24:3 11:2 10:2 9:2 8:2 7:2 6:2; o 24:15")
    open_ = parse_steps("fevga", "x 24:3 11:2 10:2 9:2 8:2 7:2 5:2; o 24:15")
    rows = batch([prime, open_])
    assert rows[0, column("fevga", "row_us")] == 1.0  # six in a row
    assert rows[1, column("fevga", "row_us")] == pytest.approx(5 / 6)
    # Every die of theirs is blocked: they lose the whole roll (8 1/6 pips on average).
    assert rows[0, column("fevga", "lost_them")] == pytest.approx(294 / 36 / 10)
    assert rows[1, column("fevga", "lost_them")] < rows[0, column("fevga", "lost_them")]
    assert rows[0, column("fevga", "ahead_them")] == 1.0  # all 15 have six closed points ahead
    assert rows[0, column("fevga", "quarter_us")] == pytest.approx(5 / 6)  # 7-11 of 7-12


@pytest.mark.parametrize("turns", sample_or_full(12, 40))
@pytest.mark.parametrize("game", GAMES)
def test_the_strong_player_makes_only_legal_plays(game: str, turns: int) -> None:
    # A game against random play: its first twelve turns in the default run, forty (or to
    # its end) in CI's ``[full]``.
    rng = random.Random(f"strong-{game}")
    player = steps_player("strong")
    assert isinstance(player, StepsStrongPlayer)
    position = start_position(game)
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        play = player.choose_play(position, dice)
        assert play in legal_plays(position, dice)
        if game_outcome(play.position) is not None:
            break
        # the other side plays at random, so the strong player meets all sorts of positions
        other = rng.choice(legal_plays(play.position.flip(), (rng.randint(1, 6),
                                                               rng.randint(1, 6))))
        if game_outcome(other.position) is not None:
            break
        position = other.position.flip()


def test_a_training_run_repeats_itself_from_its_seed() -> None:
    # one game taught by the hand evaluation, then self-play TD(λ)
    first = train("nardy", 2, seed=7, parallel=2, teacher_games=1)
    again = train("nardy", 2, seed=7, parallel=2, teacher_games=1)
    other = train("nardy", 2, seed=8, parallel=2, teacher_games=1)
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(first, name), getattr(again, name))
    assert not np.array_equal(first.w1, other.w1)
    # A longer run passes through the same net: its snapshot after 2 games is the 2-game net.
    snapshots: dict[int, StepsNet] = {}
    longer = train("nardy", 3, seed=7, parallel=2, teacher_games=1,
                   save=lambda net, done: snapshots.__setitem__(done, net), save_every=1)
    assert np.array_equal(snapshots[2].w1, first.w1) and np.array_equal(snapshots[2].b2, first.b2)
    assert not np.array_equal(longer.w1, first.w1)
