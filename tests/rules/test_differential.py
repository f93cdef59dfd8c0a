"""Our legal_plays against GNU Backgammon's own move generator (gnubg-nn), position by position.

For 2,000 positions from seeded random self-play plus 50 crafted positions for each trap of the
rules, and all 21 rolls, the sets of resulting positions must be identical. The default run
takes every 10th self-play position and the first 5 of each trap (``[sample]``); CI runs the
whole corpus (``[full]``, see tests/sampling.py).
"""

from __future__ import annotations

import pytest

from oracles.gnubg_bridge import from_gnubg, to_gnubg
from rules.position import ALL_ROLLS, Position, TurnInput, legal_plays
from rules.selfplay import selfplay_positions
from tests.rules.crafted import TRAPS, crafted
from tests.sampling import sample_or_full

gnubg_nn = pytest.importorskip("gnubg_nn")

SELFPLAY = 2000
CRAFTED = 50
Share = tuple[int, int]
"""Every n-th self-play position, and how many of each trap's crafted positions."""


@pytest.fixture(scope="module", params=sample_or_full((10, 5), (1, CRAFTED)))
def share(request: pytest.FixtureRequest) -> Share:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def corpus(share: Share) -> list[tuple[str, Position]]:
    step, per_trap = share
    positions = [("selfplay", p) for p in selfplay_positions(SELFPLAY, seed=11)[::step]]
    for name in TRAPS:
        positions += [(name, p) for p in crafted(name, per_trap)]
    return positions


def gnubg_results(position: Position, die1: int, die2: int) -> set[Position]:
    keys = gnubg_nn.moves(to_gnubg(position), die1, die2)
    if not keys:
        return {position}
    return {from_gnubg(gnubg_nn.board_from_position_key(k)) for k in keys}


def test_corpus_has_every_trap(corpus: list[tuple[str, Position]], share: Share) -> None:
    step, per_trap = share
    names = [name for name, _ in corpus]
    assert names.count("selfplay") == SELFPLAY // step
    assert len({p for name, p in corpus if name == "selfplay"}) == SELFPLAY // step
    for trap in TRAPS:
        assert names.count(trap) == per_trap, trap


def test_resulting_positions_match_gnubg(corpus: list[tuple[str, Position]]) -> None:
    mismatches = []
    for name, position in corpus:
        for roll in ALL_ROLLS:
            ours = [p.position for p in legal_plays(position, roll)]
            assert len(ours) == len(set(ours)), "plays must be deduplicated by result"
            theirs = gnubg_results(position, roll.die1, roll.die2)
            if set(ours) != theirs:
                mismatches.append((name, position.to_fixture(), str(roll), len(ours), len(theirs)))
    assert not mismatches, mismatches[:5]


def test_tap_by_tap_reaches_exactly_the_legal_plays(corpus: list[tuple[str, Position]]) -> None:
    """Tapping every offered move in every order reaches exactly legal_plays' results, and
    every offered move can still be completed (no dead ends)."""
    for _, position in corpus:
        for roll in ALL_ROLLS:
            turn = TurnInput(position, roll)
            finals = {p.position.board for p in legal_plays(position, roll)}
            reached: set[tuple[int, ...]] = set()
            seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

            def walk(
                chosen: tuple, turn: TurnInput = turn, reached: set = reached, seen: set = seen
            ) -> None:
                offered = turn.next_moves(chosen)
                complete = turn.is_complete(chosen)
                if complete:
                    reached.add(turn.play(chosen).position.board)
                assert offered or complete, "a dead end was offered"
                for move in offered:
                    nxt = (*chosen, move)
                    key = (turn.position_after(nxt).board, tuple(sorted(m.die for m in nxt)))
                    if key in seen:
                        continue
                    seen.add(key)
                    walk(nxt)

            walk(())
            assert reached == finals, (position.to_fixture(), roll)
