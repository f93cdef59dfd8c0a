"""Conventions of gnubg_nn, verified, and exact conversion between our positions and its boards."""

from __future__ import annotations

import random

import gnubg_nn
import pytest

from computer.engine import (
    engine_best,
    engine_position_id,
    evaluate,
    evaluate_after,
    from_gnubg,
    nets,
    to_gnubg,
)
from rules.position import Dice, Position, legal_plays, parse_fixture


def engine_plays(position: Position, dice: Dice) -> set[Position]:
    """The resulting positions of every legal play according to gnubg's own move generator."""
    if position.is_game_over():
        return {position}
    keys = nets().moves(to_gnubg(position), dice[0], dice[1])
    if not keys:
        return {position}
    return {from_gnubg(nets().board_from_position_key(k)) for k in keys}


def random_positions(count: int, seed: int) -> list[Position]:
    """Positions from seeded random games (both sides random), restarting when a game ends."""
    rng = random.Random(seed)
    out: list[Position] = []
    position = Position.start()
    while len(out) < count:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        play = rng.choice(legal_plays(position, dice))
        position = play.position.flip()
        if position.is_game_over():
            position = Position.start()
            continue
        out.append(position)
    return out


POSITIONS = random_positions(3000, seed=6)


def test_board_layout_of_the_start() -> None:
    # Given the opening position, when converted, then each side is 24:2 13:5 8:3 6:5, bar last
    opponent, mover = to_gnubg(Position.start())
    expected = [0] * 25
    for point, count in {24: 2, 13: 5, 8: 3, 6: 5}.items():
        expected[point - 1] = count
    assert opponent == expected and mover == expected


def test_conversion_round_trips_and_matches_gnubg_position_id() -> None:
    for position in POSITIONS:
        assert from_gnubg(to_gnubg(position)) == position
        assert engine_position_id(position) == position.to_id()
        assert from_gnubg(gnubg_nn.board_from_position_id(position.to_id())) == position


def test_bars_convert_both_ways() -> None:
    position = parse_fixture("x bar:2 6:5 8:3; o bar:1 24:2 13:5 6:5")
    opponent, mover = to_gnubg(position)
    assert mover[24] == 2 and opponent[24] == 1
    assert from_gnubg([opponent, mover]) == position


def test_gnubg_generates_exactly_our_legal_plays() -> None:
    rng = random.Random(7)
    for position in POSITIONS[:1500]:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        ours = {play.position for play in legal_plays(position, dice)}
        assert engine_plays(position, dice) == ours, (position.to_fixture(), dice)


def test_probabilities_are_for_the_side_on_roll() -> None:
    # One checker left on the 1 point against fifteen checkers at home: the side on roll wins.
    almost_done = parse_fixture("x 1:1; o 6:5 5:5 4:5")
    p = evaluate(almost_done)
    assert p.win == pytest.approx(1.0) and p.win_gammon == pytest.approx(1.0)
    # Seen from the other side: it loses, and a gammon only if it rolls 2-1 (2 rolls in 36).
    q = evaluate(almost_done.flip())
    assert q.win == pytest.approx(0.0)
    assert q.lose_gammon == pytest.approx(2 / 36, abs=1e-6)


def test_evaluate_after_is_seen_from_the_side_that_played() -> None:
    # x has just played and leaves one checker on its 1 point; o rolls next with 15 at home.
    after = parse_fixture("x 1:1; o 6:5 5:5 4:5")
    p = evaluate_after(after)
    assert p.win == pytest.approx(1 - evaluate(after.flip()).win)
    # o cannot finish in one roll, so x wins; o bears off a checker with every roll but 2-1,
    # so x wins a gammon with 2 rolls in 36.
    assert p.win == pytest.approx(1.0)
    assert p.win_gammon == pytest.approx(2 / 36, abs=1e-6)


def test_finished_games_are_scored_exactly() -> None:
    # x has borne off everything; o has a checker in x's home board and none off: backgammon
    won = parse_fixture("x; o 19:1 6:14")
    p = evaluate(won)
    assert (p.win, p.win_gammon, p.win_backgammon) == (1.0, 1.0, 1.0)
    assert evaluate(won.flip()).lose_backgammon == 1.0
    single = parse_fixture("x; o 6:10")
    assert evaluate(single).win_gammon == 0.0


def test_gnubg_best_move_maps_to_one_of_our_plays() -> None:
    rng = random.Random(8)
    for position in POSITIONS[1500:2500]:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        assert engine_best(position, dice) in {p.position for p in legal_plays(position, dice)}


def test_engine_best_passes_when_nothing_can_be_played() -> None:
    # x on the bar against a closed board: the only play is a pass
    closed = parse_fixture("x bar:1 6:14; o 6:2 5:2 4:2 3:2 2:2 1:2")
    assert engine_best(closed, Dice(6, 6)) == closed
