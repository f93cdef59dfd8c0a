"""The accuracy figure on crafted matches: best play everywhere scores 0; one known error,
worked out by hand, scores what the arithmetic says."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from computer.accuracy import match_accuracy
from computer.context import MONEY
from computer.evaluators import (
    GnubgEvaluator,
    NetEvaluator,
    evaluator_at,
    evaluator_for,
    pips_to_equity,
    register_evaluator,
    unregister_evaluator,
)
from computer.review import Decision
from rules.game import find_game
from rules.position import Dice, Play, Position
from rules.steps.options import RuleOptions

ROLLS = [Dice(6, 5), Dice(3, 1), Dice(4, 2), Dice(6, 6), Dice(5, 3), Dice(2, 1), Dice(6, 4),
         Dice(5, 5), Dice(4, 3), Dice(6, 2), Dice(3, 3), Dice(5, 1)]


def best_match(game: str, turns: int) -> list[Decision]:
    """A match of ``turns`` turns in which each side always made its evaluator's best play."""
    position: Position = find_game(game).start()
    out: list[Decision] = []
    for n in range(turns):
        dice = ROLLS[n % len(ROLLS)]
        best, _ = evaluator_at(position).equities_of_plays(position, dice)[0]
        out.append(Decision(n % 2, position, dice, best, MONEY))
        if best.position.is_game_over():
            break
        position = best.position.flip()
    return out


@pytest.mark.parametrize("game", ["plakoto", "fevga", "nardy"])
def test_a_match_of_best_plays_scores_zero_in_the_net_judged_games(game: str) -> None:
    # Given a match where every play was the net's best
    decisions = best_match(game, 24)
    # When it is judged
    figure = match_accuracy(decisions)
    # Then both players lost nothing on decisions they really had
    assert figure.evaluator == "the strong level's net 0-ply"
    assert all(p.decisions > 0 for p in figure.players)
    assert [p.error_rate for p in figure.players] == [0.0, 0.0]
    assert [p.performance_rating for p in figure.players] == [0.0, 0.0]


def test_a_portes_match_of_best_plays_scores_zero_by_gnubg() -> None:
    pytest.importorskip("gnubg_nn")
    decisions = best_match("portes", 10)
    figure = match_accuracy(decisions)
    assert figure.evaluator == "GNU Backgammon 1-ply"
    assert [p.error_rate for p in figure.players] == [0.0, 0.0]
    assert figure.players[0].decisions == 5


class PointsHeld:
    """A test evaluator, plugged in as a net would be: a play is worth a hundredth of a point
    for each point the mover holds after it."""

    name = "points held"
    depth = 0

    def equities_of_plays(self, position: Position, dice: Dice, context: object = MONEY,
                          options: RuleOptions | None = None) -> list[tuple[Play, float]]:
        plays = find_game("plakoto").legal_plays(position, dice, options)
        judged = [(p, 0.01 * sum(1 for i in range(1, 25) if p.position.board[i] > 0))
                  for p in plays]
        return sorted(judged, key=lambda pe: -pe[1])

    def deeper(self) -> PointsHeld:
        return self


@pytest.fixture
def points_held() -> Iterator[None]:
    register_evaluator("plakoto", PointsHeld)  # type: ignore[arg-type]
    yield
    unregister_evaluator("plakoto")


def test_one_known_error_worked_out_by_hand(points_held: None) -> None:
    # Given Plakoto's start, 6-5 to play: 24/18 24/19 holds three points (24, 19, 18) and is
    # worth 0.03; 24/13 holds two (24, 13), 0.02: a loss of 0.01 points
    start = find_game("plakoto").start()
    dice = Dice(6, 5)
    plays = find_game("plakoto").legal_plays(start, dice)
    run = next(p for p in plays if p.position.board[13] == 1)
    split = next(p for p in plays if p.position.board[18] == 1 and p.position.board[19] == 1)
    # player 0 runs once (the error) and splits once (the best); player 1 splits
    decisions = [Decision(0, start, dice, run, MONEY), Decision(1, start, dice, split, MONEY),
                 Decision(0, start, dice, split, MONEY)]
    figure = match_accuracy(decisions)
    first, second = figure.players
    # Then player 0 lost 0.01 over 2 decisions: 5.0 thousandths a move, PR 500 x 0.01 / 2 = 2.5
    assert first.decisions == 2
    assert first.equity_lost == pytest.approx(0.01)
    assert first.error_rate == pytest.approx(5.0)
    assert first.performance_rating == pytest.approx(2.5)
    assert (second.decisions, second.error_rate) == (1, 0.0)
    assert figure.evaluator == "points held"


def test_the_registry_picks_the_evaluator_by_capability() -> None:
    assert isinstance(evaluator_for("portes"), GnubgEvaluator)
    assert evaluator_for("portes").name == "GNU Backgammon 1-ply"
    assert evaluator_for("portes").deeper().name == "GNU Backgammon 2-ply"
    # the step-engine games ship the strong level's nets (numpy is a dependency)
    assert isinstance(evaluator_for("plakoto"), NetEvaluator)
    assert evaluator_for("nardy").name == "the strong level's net 0-ply"
    # the rotation: its second game is Plakoto
    assert isinstance(evaluator_for("tavli", 1), NetEvaluator)
    assert isinstance(evaluator_for("tavli", 0), GnubgEvaluator)


def test_the_logistic_mapping_of_pips() -> None:
    assert pips_to_equity(0.0) == 0.0
    assert pips_to_equity(40.0) == pytest.approx(2 / (1 + 2.718281828 ** -2) - 1)
    assert pips_to_equity(-40.0) == pytest.approx(-pips_to_equity(40.0))
    assert pips_to_equity(2000.0) == 2.0  # a pinned mother, decided: 2 points


def test_a_plakoto_review_lists_a_real_error_in_the_games_notation() -> None:
    from computer.review import REAL_ERROR, review_match

    # Given the first turn of a Plakoto match where the evaluator's worst play loses a real
    # error's worth against its best
    judge = evaluator_for("plakoto")

    def spread(d: Decision) -> float:
        judged = judge.equities_of_plays(d.position, d.dice)
        return judged[0][1] - judged[-1][1]

    turn = next(d for d in best_match("plakoto", 24) if spread(d) >= REAL_ERROR)
    start, dice = turn.position, turn.dice
    judged = judge.equities_of_plays(start, dice)
    worst, worst_equity = judged[-1]
    best, best_equity = judged[0]
    review = review_match([Decision(0, start, dice, worst, MONEY),
                           Decision(1, start, dice, best, MONEY)])
    first, second = review.players
    # Then it is listed, in Plakoto's notation, with the evaluator's play beside it; the best
    # play is not blamed; the luck is not measured in Plakoto
    assert [w.turn for w in first.worst] == [0]
    listed = first.worst[0]
    assert listed.equity_lost == pytest.approx(best_equity - worst_equity)
    assert listed.best_text == find_game("plakoto").format_play(start, dice, best.moves)
    assert second.worst == () and second.equity_lost == 0.0
    assert first.luck is None and second.luck is None
