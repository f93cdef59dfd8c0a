"""Invariants of Plakoto, Fevga and Long Nardy, on generated positions (hypothesis)."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from oracles.tavli_crafted import CRAFTERS
from rules.board import CHECKERS
from rules.dice import Dice
from rules.legal import Play
from rules.tavliboard import TavliPosition, Variant, parse_tavli
from rules.tavliinput import TavliTurnInput
from rules.tavlilegal import legal_plays
from rules.tavlinotation import format_tavli_play, parse_tavli_play
from rules.tavlisteps import stepper

GAMES = (Variant.PLAKOTO, Variant.FEVGA, Variant.NARDY)


@st.composite
def positions(draw: st.DrawFn) -> TavliPosition:
    """A crafted board of one of the three games, from a drawn seed."""
    variant = draw(st.sampled_from(GAMES))
    rng = random.Random(draw(st.integers(0, 10**9)))
    while True:
        try:
            return CRAFTERS[variant](rng)
        except ValueError:
            continue


dice = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))


def totals(position: TavliPosition) -> tuple[int, int]:
    return (
        sum(position.mover_points().values()) + position.mover_off,
        sum(position.opponent_points().values()) + position.opponent_off,
    )


@settings(max_examples=200, deadline=None)
@given(positions(), dice)
def test_checkers_are_conserved_and_the_opponent_never_moves(
    position: TavliPosition, roll: Dice
) -> None:
    for play in legal_plays(position, roll):
        after = play.position
        assert isinstance(after, TavliPosition)
        assert totals(after) == (CHECKERS, CHECKERS)
        assert after.board[0] == after.board[25] == 0  # no bar, nobody is hit
        assert after.opponent_points() == position.opponent_points()


@settings(max_examples=200, deadline=None)
@given(positions(), dice)
def test_every_play_uses_as_many_dice_as_possible(position: TavliPosition, roll: Dice) -> None:
    plays = legal_plays(position, roll)
    used = {len(p.moves) for p in plays}
    assert len(used) == 1
    if plays[0].moves and len(plays[0].moves) == 1 and not roll.is_double:
        # Only one die: the larger when some play uses it.
        st_ = stepper(position, (roll.die1, roll.die2))
        if st_.steps(st_.initial(), max(roll)):
            assert all(p.moves[0].die == max(roll) for p in plays)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_flip_twice_fixture_and_pickle_give_the_position_back(position: TavliPosition) -> None:
    assert position.flip().flip() == position
    assert parse_tavli(position.variant, position.to_fixture()) == position
    assert pickle.loads(pickle.dumps(position)) == position
    assert eval(repr(position), {"parse_tavli": parse_tavli}) == position
    assert position.flip().pips() == tuple(reversed(position.pips()))


@settings(max_examples=150, deadline=None)
@given(positions(), dice)
def test_every_legal_play_can_be_tapped_in_and_nothing_else_can(
    position: TavliPosition, roll: Dice
) -> None:
    keyboard = TavliTurnInput(position, roll)
    plays = legal_plays(position, roll)
    finals = {p.position for p in plays}
    for play in plays:
        for i, move in enumerate(play.moves):
            assert move in keyboard.next_moves(play.moves[:i])
        assert keyboard.is_complete(play.moves)
        assert keyboard.play(play.moves).position == play.position
    # Whatever the keyboard offers can be finished into a legal play.
    chosen: tuple = ()
    rng = random.Random(len(plays))
    while not keyboard.is_complete(chosen):
        offered = keyboard.next_moves(chosen)
        assert offered
        chosen = (*chosen, rng.choice(offered))
    assert keyboard.position_after(chosen) in finals


@settings(max_examples=150, deadline=None)
@given(positions(), dice)
def test_move_text_reads_back_as_the_same_play(position: TavliPosition, roll: Dice) -> None:
    for play in legal_plays(position, roll)[:6]:
        text = format_tavli_play(position, roll, play.moves)
        assert parse_tavli_play(position, roll, text).position == play.position, text


def test_a_pass_is_the_one_empty_play() -> None:
    position = parse_tavli(Variant.PLAKOTO, "x 13:1; o 17:2 24:13")
    assert legal_plays(position, (5, 5)) == [Play((), position)]
    assert parse_tavli_play(position, (5, 5), "pass").moves == ()
