"""Hints on lopsided positions; the review finds the blunders planted in a hand-written match."""

from __future__ import annotations

import pytest

from computer.context import MONEY, MatchContext
from computer.hint import hint
from computer.review import Decision, MatchReview, luck_of_roll, review_match
from rules.position import Dice, Play, Position, legal_plays, parse_fixture


def play_of(position: Position, dice: Dice, *moves: tuple[int, int]) -> Play:
    """The legal play made of these (from, to) single moves, in any order."""
    wanted = sorted(moves)
    for play in legal_plays(position, dice):
        if sorted((m.from_point, m.to_point) for m in play.moves) == wanted:
            return play
    raise AssertionError(f"no legal play {moves} with {dice}")


def test_hint_on_a_lopsided_race_shows_a_sure_win() -> None:
    # Given x one roll from the end, o with fifteen checkers still out
    position = parse_fixture("x 1:2; o 13:5 8:5 6:5")
    for dice in (Dice(2, 1), Dice(6, 6)):
        # When the hint is asked
        result = hint(position, dice)
        # Then it bears off both and shows >= 99 % to win (here: a sure gammon)
        assert result.play.position.mover_off == 15
        assert result.win >= 0.99
        assert result.win_gammon >= 0.99
        assert result.match_winning_chance is None


def test_hint_in_a_race_far_ahead() -> None:
    position = parse_fixture("x 3:2 2:2 1:2; o 19:3 18:4 13:4 10:4")
    result = hint(position, Dice(5, 4), MatchContext(5, 2, 3))
    assert result.win >= 0.99
    assert result.match_winning_chance is not None and result.match_winning_chance > 0.5
    assert result.text
    assert all(alt.plies == 1 for alt in result.alternatives)


START = Position.start()
CLOSEOUT = parse_fixture("x 13:2 8:1 7:1 6:3 5:2 4:2 3:2 1:2; o bar:1 13:5 8:4 6:5")
CLOSED_OUT = parse_fixture("x bar:1 13:5 8:4 6:4; o 6:3 5:2 4:2 3:2 2:2 1:2 13:2")


def hand_written_match() -> list[Decision]:
    """Four turns for each player: good plays, two blunders each, and a dance."""
    d31, d66, d65, d21 = Dice(3, 1), Dice(6, 6), Dice(6, 5), Dice(2, 1)
    race = parse_fixture("x 6:3 5:3 4:3; o 24:5 23:5 22:5")
    ctx = MatchContext(5, 0, 0)
    return [
        # 0: player 0 opens 3-1 making the 5 point: the book play
        Decision(0, START, d31, play_of(START, d31, (8, 5), (6, 5)), ctx),
        # 1: player 1 opens 6-6 and buries three checkers on the 2 point: a blunder
        Decision(1, START, d66, play_of(START, d66, (13, 7), (8, 2), (8, 2), (8, 2)), ctx),
        # 2: player 0 can close the board with 8/2 7/2 and plays 13/2 instead: a blunder
        Decision(0, CLOSEOUT, d65, play_of(CLOSEOUT, d65, (13, 7), (7, 2)), ctx),
        # 3: player 1 is closed out: no choice (a pass)
        Decision(1, CLOSED_OUT, d65, legal_plays(CLOSED_OUT, d65)[0], ctx),
        # 4: player 0 in a won race bears off two: forced
        Decision(0, race, d65, play_of(race, d65, (6, 0), (5, 0)), ctx),
        # 5: player 1 closes the board: the best play
        Decision(1, CLOSEOUT, d65, play_of(CLOSEOUT, d65, (8, 2), (7, 2)), ctx),
        # 6: player 0 opens 6-6 well
        Decision(0, START, d66, play_of(START, d66, (24, 18), (24, 18), (13, 7), (13, 7)), ctx),
        # 7: player 1 opens 2-1 with the slot 13/11 6/5
        Decision(1, START, d21, play_of(START, d21, (13, 11), (6, 5)), ctx),
    ]


@pytest.fixture(scope="module")
def review() -> MatchReview:
    return review_match(hand_written_match())


def test_review_counts_decisions(review: MatchReview) -> None:
    first, second = review.players
    assert (first.turns, first.decisions) == (4, 3)  # the race play is forced
    assert (second.turns, second.decisions) == (4, 3)  # the dance is no decision


def test_review_finds_the_planted_blunders(review: MatchReview) -> None:
    first, second = review.players
    assert first.worst[0].turn == 2
    assert first.worst[0].equity_lost > 0.2
    assert first.worst[0].best_text == "8/2 7/2"
    assert second.worst[0].turn == 1
    assert second.worst[0].equity_lost > 0.2
    assert second.worst[0].best.position != second.worst[0].played.position
    assert first.equity_lost >= first.worst[0].equity_lost
    assert first.average_equity_lost == pytest.approx(first.equity_lost / 3)


def test_review_does_not_blame_the_best_plays(review: MatchReview) -> None:
    first, second = review.players
    blamed = {r.turn for r in first.worst + second.worst}
    assert not blamed & {0, 4, 5, 6}


def test_luck_of_the_dice() -> None:
    # Rolling 6-6 at the start is lucky; 2-1 is unlucky; luck averages to zero over all rolls.
    assert luck_of_roll(START, Dice(6, 6), MONEY) > 0.1
    assert luck_of_roll(START, Dice(2, 1), MONEY) < 0
    rolls = [(Dice(a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)]
    total = sum(w * luck_of_roll(CLOSEOUT, d, MONEY) for d, w in rolls)
    assert total == pytest.approx(0.0, abs=1e-9)


def test_a_small_error_the_deeper_look_calls_equal_is_not_listed() -> None:
    # Given 2-1 at the start: 13/11 6/5 and 24/23 13/11 are both standard, a few thousandths
    # apart at most, well under the listing's threshold
    from computer.review import REAL_ERROR

    d21 = Dice(2, 1)
    slot = play_of(START, d21, (24, 23), (13, 11))
    result = review_match([Decision(0, START, d21, slot, MONEY)], luck=False)
    first = result.players[0]
    # Then the decision counts, its small loss is in the error rate, and nothing is listed
    assert first.decisions == 1
    assert first.equity_lost < REAL_ERROR
    assert first.worst == ()
