"""GNU Backgammon's own move text for every legal play reads back as gnubg's play, and typed
text costs work linear in its length.

The sample here (self-play positions and a few crafted ones for each trap of the rules, x all 21
rolls) is run whole in CI (``[full]``) and a quarter of it by default (``[sample]``: every 4th
self-play position, one of each trap; see tests/sampling.py); ``bench/gnubg_notation.py`` runs
2,000 positions.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from oracles.gnubg_bridge import gnubg_texts, notation_mismatches
from rules.common.errors import IllegalPlay, InvalidNotation, PlayTooLong, UnreadablePlay
from rules.portes import notation
from rules.portes.notation import MAX_PLAY_TEXT, looks_like_play, parse_play
from rules.position import ALL_ROLLS, Position, legal_plays
from rules.selfplay import selfplay_positions
from tests.rules.crafted import TRAPS, crafted
from tests.sampling import sample_or_full

START = Position.start()


EVERY = sample_or_full(8, 1)
"""Every n-th self-play position (and of each trap's crafted ones, 4 // n: one each in the
sampled run, which every trap keeps)."""


def sample(step: int) -> list[Position]:
    positions = selfplay_positions(120, seed=17)[::step]
    for name in TRAPS:
        positions += crafted(name, max(1, 4 // step))
    return positions


@pytest.mark.long
@pytest.mark.parametrize("step", EVERY)
def test_gnubg_move_text_reads_as_gnubg_means_it(step: int) -> None:
    gnubg = pytest.importorskip("gnubg")
    gnubg_nn = pytest.importorskip("gnubg_nn")
    mismatches = [
        (position.to_fixture(), str(roll), text, ours)
        for position in sample(step)
        for roll in ALL_ROLLS
        for text, ours in notation_mismatches(
            position, roll, gnubg_texts(gnubg, gnubg_nn, position, roll)
        )
    ]
    assert not mismatches, mismatches[:5]


@pytest.mark.parametrize("step", EVERY)
def test_every_legal_play_written_move_by_move_fits_the_cap(step: int) -> None:
    for position in selfplay_positions(60, seed=23)[::step]:
        for roll in ALL_ROLLS:
            for play in legal_plays(position, roll):
                if not play.moves:
                    continue
                text = " ".join(str(move) for move in play.moves)
                assert len(text) <= MAX_PLAY_TEXT
                assert parse_play(position, roll, text).position == play.position


def test_the_cap_follows_from_the_longest_move() -> None:
    # Four moves of the longest kind, one space between: the cap admits it, and not one more.
    longest = " ".join(["bar/22*"] * 4)
    assert len(longest) == MAX_PLAY_TEXT == 31
    with pytest.raises(IllegalPlay):  # readable, just not a play here
        parse_play(START, (3, 3), longest)
    with pytest.raises(PlayTooLong) as refused:
        parse_play(START, (3, 3), longest + "1")
    assert "31" in str(refused.value)
    # Commas and runs of spaces do not count against a play.
    assert parse_play(START, (6, 2), " 24/18 ,,  " + " " * 200 + "13/11 ").moves


def test_text_that_cannot_be_read_is_not_called_illegal() -> None:
    with pytest.raises(UnreadablePlay) as refused:
        parse_play(START, (6, 2), "24/17 13/11")
    assert "could not be read" in str(refused.value)
    assert "not a legal" not in str(refused.value)


@pytest.mark.parametrize(
    ("text", "looks"),
    [
        ("24/18 13/11", True),
        ("8/5*(2), 6/3x2", True),
        ("bar-22*", True),
        ("hello", False),
        ("24/18 and 13/11", False),
        ("", False),
        ("24/18/13 " * 440, True),  # a play, too long: parse_play says so
        ("24/18/13 " * 440 + "x", False),  # the bot's old pattern took exponential time here
    ],
)
def test_looks_like_play(text: str, looks: bool) -> None:
    assert looks_like_play(text) is looks


def lines_run(call: Callable[[], Any]) -> int:
    """How many lines of the rules core's notation module ``call`` executes: an operation
    counter that does not depend on the machine's speed or load."""
    count = 0

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count
        if frame.f_code.co_filename == notation.__file__:
            if event == "line":
                count += 1
            return tracer
        return None

    sys.settrace(tracer)
    try:
        call()
    except InvalidNotation:
        pass
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize("chain", ["24/18/13 ", "24/18 ", "b/22*(2),", "24/1"])
def test_reading_costs_steps_linear_in_the_text(chain: str) -> None:
    """Doubling the text at most doubles the work (it was quadratic: 467 ms of CPU for
    ``"24/18/13 " * 440``); past the cap the text is refused after one pass over it."""
    steps = [lines_run(lambda n=n: parse_play(START, (6, 5), chain * n)) for n in (8, 16, 32, 64)]
    for smaller, larger in itertools.pairwise(steps):
        assert larger <= 2 * smaller + 10, steps
    checks = [lines_run(lambda n=n: looks_like_play(chain * n)) for n in (8, 16, 32, 64)]
    for smaller, larger in itertools.pairwise(checks):
        assert larger <= 2 * smaller + 10, checks
