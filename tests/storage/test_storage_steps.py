"""Several single moves as one step: one transaction, one version bump, all or nothing."""

from __future__ import annotations

import asyncio

import pytest

from rules.match import TurnPlayed
from rules.position import Move
from storage.results import MatchView, Outcome
from storage.usecases import UseCases
from tests.storage.helpers import CAROL, actor_of, new_match


def same_checker_twice(view: MatchView) -> tuple[Move, Move]:
    """Two single moves of one checker with both dice (e.g. 24/18/13 with 6-5)."""
    state = view.state
    turn_input = state.turn_input()
    for first in state.next_moves():
        for second in turn_input.next_moves((first,)):
            if second.from_point == first.to_point:
                return first, second
    raise AssertionError("no checker can move with both dice in this position")


async def opening(uc: UseCases) -> MatchView:
    view = (await new_match(uc, length=3)).match
    assert view is not None and not view.state.chosen
    assert view.state.dice is not None and not view.state.dice.is_double  # an opening roll
    return view


async def test_two_moves_are_one_step_with_one_version_bump(uc: UseCases) -> None:
    # Given the opening turn of a match
    view = await opening(uc)
    actor = actor_of(view, view.state.turn)
    first, second = same_checker_twice(view)
    # When the mover takes one checker with both dice in one tap
    result = await uc.steps(view.id, actor, view.version, [first, second])
    # Then both moves are chosen, and the version changed once
    assert result.ok and result.match is not None
    assert result.match.version == view.version + 1
    assert result.match.state.chosen == (first, second)
    loaded = await uc.load_match(view.id)
    assert loaded.match is not None and loaded.match.state.chosen == (first, second)
    # And the turn confirms as usual, logging those two moves
    confirmed = await uc.confirm(view.id, actor, result.match.version)
    assert confirmed.ok
    played = next(e for e in confirmed.events if isinstance(e, TurnPlayed))
    assert played.moves == (first, second)


async def test_a_refused_move_writes_nothing(uc: UseCases) -> None:
    # Given the opening turn (no double: each die once)
    view = await opening(uc)
    actor = actor_of(view, view.state.turn)
    first, _ = same_checker_twice(view)
    # When the second move uses the same die again
    result = await uc.steps(view.id, actor, view.version, [first, first])
    # Then it is refused and not even the first move is kept
    assert result.outcome == Outcome.REFUSED and result.code and result.message
    loaded = await uc.load_match(view.id)
    assert loaded.match is not None
    assert (loaded.match.version, loaded.match.state.chosen) == (view.version, ())


async def test_stale_wrong_player_and_no_moves(uc: UseCases) -> None:
    view = await opening(uc)
    mover, other = actor_of(view, view.state.turn), actor_of(view, 1 - view.state.turn)
    moves = list(same_checker_twice(view))
    stale = await uc.steps(view.id, mover, view.version - 1, moves)
    assert stale.outcome == Outcome.STALE
    assert (await uc.steps(view.id, other, view.version, moves)).code == "not_your_turn"
    assert (await uc.steps(view.id, CAROL, view.version, moves)).code == "not_a_player"
    assert (await uc.steps(404, mover, 1, moves)).outcome == Outcome.NOT_FOUND
    with pytest.raises(ValueError):
        await uc.steps(view.id, mover, view.version, [])
    loaded = await uc.load_match(view.id)
    assert loaded.match is not None
    assert (loaded.match.version, loaded.match.state.chosen) == (view.version, ())


async def test_a_double_tap_applies_the_moves_once(uc: UseCases, racers: list[UseCases]) -> None:
    view = await opening(uc)
    actor = actor_of(view, view.state.turn)
    moves = same_checker_twice(view)
    results = await asyncio.gather(*(r.steps(view.id, actor, view.version, moves) for r in racers))
    assert sorted(r.outcome for r in results) == [Outcome.OK, Outcome.STALE]
    loaded = await uc.load_match(view.id)
    assert loaded.match is not None
    assert (loaded.match.version, loaded.match.state.chosen) == (view.version + 1, moves)
