"""From the engine's chances to what a play is worth at this score, and ranking plays by it.

Two scales, one per kind of game, both "points per game" so that the numbers read alike:

* a single game (``match_length`` 0): cubeless equity, ``P(win) - P(lose)`` plus one point per
  gammon and (unless "no triple") one more per backgammon;
* a match: the match-winning chance (MWC) from :mod:`computer.met`, reported as gnubg's
  *normalised* equity ``2 * (MWC - L) / (W - L) - 1`` where ``W`` / ``L`` are the MWC after a
  single win / loss of this game. It is a linear function of the MWC, so the best play by one is
  the best by the other, and a single win is worth +1 as in a single game. In a 1-point match a
  gammon is then worth exactly what a single win is; at 1-away a gammon *loss* costs nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from computer.context import MONEY, MatchContext
from computer.engine import Probabilities, evaluate_after
from computer.met import match_equity
from rules.position import Dice, Play, Position, legal_plays


def _outcomes(p: Probabilities, no_triple: bool) -> tuple[tuple[float, int], ...]:
    """``(chance, points)`` for each way the game can end, points > 0 won, < 0 lost."""
    bg_points = 2 if no_triple else 3
    return (
        (p.win - p.win_gammon, 1),
        (p.win_gammon - p.win_backgammon, 2),
        (p.win_backgammon, bg_points),
        (p.lose - p.lose_gammon, -1),
        (p.lose_gammon - p.lose_backgammon, -2),
        (p.lose_backgammon, -bg_points),
    )


def money_equity(p: Probabilities, no_triple: bool = False) -> float:
    """Cubeless points per game: a single win 1, a gammon 2, a backgammon 3 (2 with no triple)."""
    return sum(chance * points for chance, points in _outcomes(p, no_triple))


def match_winning_chance(p: Probabilities, context: MatchContext) -> float:
    """Chance to win the match, given the chances of this game (``context`` must be a match)."""
    if not context.is_match:
        raise ValueError("match_winning_chance needs a match context")
    a, b = context.mover_away, context.opponent_away
    total = 0.0
    for chance, points in _outcomes(p, context.no_triple):
        if points > 0:
            total += chance * match_equity(a - points, b, no_triple=context.no_triple)
        else:
            total += chance * match_equity(a, b + points, no_triple=context.no_triple)
    return total


def equity(p: Probabilities, context: MatchContext = MONEY) -> float:
    """The value of chances ``p`` at this score, in points per game (see the module text)."""
    if not context.is_match:
        return money_equity(p, context.no_triple)
    a, b = context.mover_away, context.opponent_away
    win = match_equity(a - 1, b, no_triple=context.no_triple)
    lose = match_equity(a, b - 1, no_triple=context.no_triple)
    return 2.0 * (match_winning_chance(p, context) - lose) / (win - lose) - 1.0


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """A legal play with its evaluation for the side that plays it."""

    play: Play
    probabilities: Probabilities
    equity: float
    plies: int


def evaluate_play(play: Play, context: MatchContext, plies: int) -> RankedPlay:
    probs = evaluate_after(play.position, plies)
    return RankedPlay(play, probs, equity(probs, context), plies)


DEFAULT_CANDIDATES = 5
DEFAULT_THRESHOLD = 0.16


def rank_plays(
    position: Position,
    dice: Dice | tuple[int, int],
    context: MatchContext = MONEY,
    *,
    plies: int = 1,
    candidates: int = DEFAULT_CANDIDATES,
    threshold: float = DEFAULT_THRESHOLD,
    plays: Sequence[Play] | None = None,
) -> list[RankedPlay]:
    """Every legal play, best first, for the side to move.

    All plays are evaluated by the plain net (0-ply); when ``plies`` > 0, the best ``candidates``
    within ``threshold`` (points per game) of the best are evaluated again ``plies`` deep (gnubg's
    "move filter"); those come first, ordered by the deeper figure, the others follow.
    """
    if plays is None:
        plays = legal_plays(position, dice)
    screened = sorted(
        (evaluate_play(play, context, 0) for play in plays),
        key=lambda r: r.equity,
        reverse=True,
    )
    if plies <= 0 or len(screened) == 1:
        return screened
    best = screened[0].equity
    deep_count = 0
    for ranked in screened[:candidates]:
        if best - ranked.equity > threshold:
            break
        deep_count += 1
    deep = sorted(
        (evaluate_play(r.play, context, plies) for r in screened[:deep_count]),
        key=lambda r: r.equity,
        reverse=True,
    )
    return deep + screened[deep_count:]
