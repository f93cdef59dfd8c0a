"""Invariants of the rules core, checked on generated positions (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.common.dice import SeededDice
from rules.match import Match, Phase
from rules.portes.matchid import MatchId
from rules.portes.moves import single_moves
from rules.position import CHECKERS, Dice, Position, legal_plays


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any legal board: up to 15 checkers a side on points, bar or off, no shared point."""
    slots = [0] * 26
    mover_left = draw(st.integers(0, CHECKERS))
    opponent_left = draw(st.integers(0, CHECKERS))
    for _ in range(mover_left):
        p = draw(st.integers(1, 25))
        if slots[p] >= 0:
            slots[p] += 1
    for _ in range(opponent_left):
        p = draw(st.integers(0, 24))
        if slots[p] <= 0:
            slots[p] -= 1
    return Position(slots)


dice = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))


def totals(position: Position) -> tuple[int, int]:
    b = position.board
    mover = sum(c for c in b if c > 0) + position.mover_off
    opponent = -sum(c for c in b if c < 0) + position.opponent_off
    return mover, opponent


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_checkers_are_conserved_and_never_share_a_point(position: Position, roll: Dice) -> None:
    for play in legal_plays(position, roll):
        after = play.position
        assert totals(after) == (CHECKERS, CHECKERS)
        assert after.board[25] >= 0 and after.board[0] <= 0
        # Every slot holds one side only by construction; a hit sends the blot to the bar.
        hits = sum(m.hit for m in play.moves)
        assert after.opponent_bar == position.opponent_bar + hits
        assert after.opponent_off == position.opponent_off


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_every_play_uses_as_many_dice_as_possible(position: Position, roll: Dice) -> None:
    plays = legal_plays(position, roll)
    used = {len(p.moves) for p in plays}
    assert len(used) == 1
    n = used.pop()
    full = len(roll.values())
    if n < full:
        # No play can be extended by another die of the roll.
        for play in plays:
            remaining = list(roll.values())
            for m in play.moves:
                remaining.remove(m.die)
            for die in set(remaining):
                assert not list(single_moves(play.position.board, die, 25))
    if n == 1 and not roll.is_double:
        # The larger die when it can be played.
        larger = max(roll)
        if any(single_moves(position.board, larger, 25)):
            assert all(p.moves[0].die == larger for p in plays)


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_plays_are_distinct_by_result_and_deterministic(position: Position, roll: Dice) -> None:
    plays = legal_plays(position, roll)
    assert plays
    assert len({p.position for p in plays}) == len(plays)
    assert legal_plays(position, roll) == plays


@given(positions())
def test_flip_twice_is_identity(position: Position) -> None:
    assert position.flip().flip() == position
    mover, opponent = position.pips()
    assert position.flip().pips() == (opponent, mover)


@given(positions())
def test_position_id_round_trips(position: Position) -> None:
    assert Position.from_id(position.to_id()) == position


@given(
    st.sampled_from([1, 3, 5, 7]),
    st.integers(0, 7),
    st.integers(0, 7),
    st.integers(0, 1),
    st.integers(0, 1),
    st.integers(0, 6),
    st.integers(0, 6),
    st.integers(0, 3),
)
def test_match_id_round_trips(
    length: int, s0: int, s1: int, on_roll: int, turn: int, d1: int, d2: int, resigned: int
) -> None:
    fields = MatchId(
        length=length,
        score0=s0,
        score1=s1,
        on_roll=on_roll,
        turn=turn,
        die1=max(d1, d2),
        die2=min(d1, d2),
        resigned=resigned,
    )
    assert MatchId.from_id(fields.to_id()) == fields


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 3, 5]), st.booleans())
def test_scores_never_decrease(seed: int, length: int, no_triple: bool) -> None:
    rng = random.Random(seed)
    source = SeededDice(seed)
    match, _ = Match.new(length, no_triple=no_triple).start(source)
    last = match.score
    while match.phase != Phase.MATCH_OVER:
        match, _ = match.play(match.turn, rng.choice(match.legal_plays()), source)
        assert match.score[0] >= last[0] and match.score[1] >= last[1]
        last = match.score
