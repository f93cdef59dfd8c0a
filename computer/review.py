"""The post-match review: decisions, equity lost against the engine, worst plays, luck.

Units: "points per game" as in :mod:`computer.evaluation` (cubeless equity in a single game,
normalised match equity in a match), so 0.100 lost means a tenth of a single game.

* **Equity lost** on a turn = value of the engine's best play minus value of the play made, both
  evaluated the same way (``plies``; the play made is evaluated even if the filter dropped it).
  Only turns with a real choice (more than one legal play) are decisions.
* **Luck** (gnubg's definition, cubeless): value of the best play with the dice rolled minus
  the average over all 36 rolls of the value of the best play with that roll, both by the plain
  net (0-ply). Positive = lucky. Summed over all the player's turns, forced ones included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from computer.context import MatchContext
from computer.engine import evaluate_after
from computer.evaluation import equity, evaluate_play, rank_plays
from computer.evaluators import GnubgEvaluator, evaluator_at
from rules.game import game_of
from rules.position import ALL_ROLLS, Dice, Move, Play, Position, legal_plays
from rules.steps.options import RuleOptions

WORST_COUNT = 3
MIN_ERROR = 0.001
"""Plays losing less than this count as no loss at all in the listing (noise)."""
REAL_ERROR = 0.020
"""A play is listed among the worst only when the strongest evaluation the game has (GNU
Backgammon 2-ply in Portes, :data:`computer.evaluators.CONFIRM_DEPTH`) confirms it lost at
least this much (20 thousandths of a point, a quarter of GNU Backgammon's "bad" mark): the
small "errors" the deeper look calls equal are dropped. The error rate itself counts every
loss."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One turn of the match, as the match flow recorded it.

    ``player`` 0 or 1; ``position`` before the play, from that player's side; ``play`` the play
    made (one of ``legal_plays(position, dice)``; only its resulting position matters);
    ``context`` the match situation from that player's side.
    """

    player: int
    position: Position
    dice: Dice
    play: Play
    context: MatchContext


@dataclass(frozen=True, slots=True)
class ReviewedPlay:
    """A play that lost equity, with the engine's choice beside it."""

    turn: int
    """Index of the decision in the sequence reviewed (0-based)."""
    player: int
    position: Position
    dice: Dice
    played: Play
    played_text: str
    best: Play
    best_text: str
    equity_lost: float


@dataclass(frozen=True, slots=True)
class PlayerReview:
    player: int
    turns: int
    """All turns the player had, forced ones and passes included."""
    decisions: int
    """Turns with a real choice (more than one legal play)."""
    equity_lost: float
    average_equity_lost: float
    """Per decision (0.0 with no decisions)."""
    worst: tuple[ReviewedPlay, ...]
    """Up to three plays that lost the most, worst first (only real errors)."""
    luck: float | None
    """``None`` where the luck is not measured (games GNU Backgammon does not play)."""


@dataclass(frozen=True, slots=True)
class MatchReview:
    players: tuple[PlayerReview, PlayerReview]


def moves_text(moves: Sequence[Move]) -> str:
    """Standard notation via ``rules.portes.notation.format_moves`` when available."""
    try:
        from rules.portes.notation import format_moves
    except ImportError:  # pragma: no cover - the notation module arrived later
        return " ".join(str(m) for m in moves) if moves else "-"
    return str(format_moves(tuple(moves)))


def _best_value(position: Position, dice: Dice, context: MatchContext) -> float:
    plays = legal_plays(position, dice)
    return max(equity(evaluate_after(p.position, 0), context) for p in plays)


def luck_of_roll(position: Position, dice: Dice, context: MatchContext) -> float:
    """How much better the roll was than an average roll (0-ply, points per game)."""
    if position.is_game_over():
        return 0.0
    average = 0.0
    rolled = 0.0
    for roll in ALL_ROLLS:
        value = _best_value(position, roll, context)
        average += value * (1 if roll.die1 == roll.die2 else 2)
        if {roll.die1, roll.die2} == {dice.die1, dice.die2}:
            rolled = value
    return rolled - average / 36.0


def review_decision(
    index: int, decision: Decision, *, plies: int = 1
) -> tuple[ReviewedPlay | None, bool]:
    """``(reviewed play, had a choice)`` for one turn."""
    plays = legal_plays(decision.position, decision.dice)
    if len(plays) <= 1:
        return None, False
    ranked = rank_plays(decision.position, decision.dice, decision.context, plies=plies)
    best = ranked[0]
    played = next(
        (r for r in ranked if r.play.position == decision.play.position and r.plies == best.plies),
        None,
    )
    if played is None:
        matching = [p for p in plays if p.position == decision.play.position]
        if not matching:
            raise ValueError(f"decision {index}: the play made is not a legal play")
        played = evaluate_play(matching[0], decision.context, best.plies)
    lost = max(0.0, best.equity - played.equity)
    return (
        ReviewedPlay(
            turn=index,
            player=decision.player,
            position=decision.position,
            dice=decision.dice,
            played=decision.play,
            played_text=moves_text(decision.play.moves),
            best=best.play,
            best_text=moves_text(best.play.moves),
            equity_lost=lost,
        ),
        True,
    )


def judged_decision(
    index: int, decision: Decision, options: RuleOptions | None = None
) -> tuple[ReviewedPlay | None, bool]:
    """:func:`review_decision` by the game's own evaluator (:mod:`computer.evaluators`), for
    the games GNU Backgammon does not play; the plays in the game's own notation."""
    judged = evaluator_at(decision.position).equities_of_plays(
        decision.position, decision.dice, decision.context, options)
    if len(judged) <= 1:
        return None, False
    made = next((e for p, e in judged if p.position == decision.play.position), None)
    if made is None:
        raise ValueError(f"decision {index}: the play made is not a legal play")
    best, best_equity = judged[0]
    game = game_of(decision.position)

    def text(play: Play) -> str:
        return game.format_play(decision.position, decision.dice, play.moves, options)

    return ReviewedPlay(index, decision.player, decision.position, decision.dice, decision.play,
                        text(decision.play), best, text(best),
                        max(0.0, best_equity - made)), True


def confirmed_loss(reviewed: ReviewedPlay, decision: Decision,
                   options: RuleOptions | None = None) -> float:
    """What the strongest evaluation says the play lost against the play judged best (GNU
    Backgammon: both plays again at 2-ply; a hand evaluation has nothing deeper: as it was)."""
    deeper = evaluator_at(decision.position).deeper()
    if not isinstance(deeper, GnubgEvaluator):
        return reviewed.equity_lost
    best = evaluate_play(reviewed.best, decision.context, deeper.depth).equity
    played = evaluate_play(reviewed.played, decision.context, deeper.depth).equity
    return max(0.0, best - played)


def real_errors(errors: list[tuple[ReviewedPlay, Decision]],
                options: RuleOptions | None = None) -> tuple[ReviewedPlay, ...]:
    """The worst plays the deeper look confirms (at least :data:`REAL_ERROR`), worst first,
    each with the loss the error rate counts; a candidate losing less than half the threshold
    at the first look is not looked at again."""
    listed: list[ReviewedPlay] = []
    for reviewed, decision in sorted(errors, key=lambda rd: -rd[0].equity_lost):
        if len(listed) == WORST_COUNT or reviewed.equity_lost < REAL_ERROR / 2:
            break
        if confirmed_loss(reviewed, decision, options) >= REAL_ERROR:
            listed.append(reviewed)
    return tuple(listed)


def review_match(
    decisions: Sequence[Decision], *, plies: int = 1, luck: bool = True,
    options: RuleOptions | None = None,
) -> MatchReview:
    """Review a finished match (or any sequence of turns) for both players. The luck is
    measured in the games GNU Backgammon plays (``None`` in a match with none of them)."""
    turns = [0, 0]
    counted = [0, 0]
    lost = [0.0, 0.0]
    luck_sum: list[float | None] = [None, None]
    errors: list[list[tuple[ReviewedPlay, Decision]]] = [[], []]
    for index, decision in enumerate(decisions):
        who = decision.player
        if who not in (0, 1):
            raise ValueError(f"decision {index}: player must be 0 or 1")
        turns[who] += 1
        gnubg = isinstance(evaluator_at(decision.position), GnubgEvaluator)
        reviewed, choice = (review_decision(index, decision, plies=plies) if gnubg
                            else judged_decision(index, decision, options))
        if choice and reviewed is not None:
            counted[who] += 1
            lost[who] += reviewed.equity_lost
            if reviewed.equity_lost >= MIN_ERROR:
                errors[who].append((reviewed, decision))
        if luck and gnubg:
            roll = luck_of_roll(decision.position, decision.dice, decision.context)
            luck_sum[who] = (luck_sum[who] or 0.0) + roll
    players = tuple(
        PlayerReview(
            player=who,
            turns=turns[who],
            decisions=counted[who],
            equity_lost=lost[who],
            average_equity_lost=lost[who] / counted[who] if counted[who] else 0.0,
            worst=real_errors(errors[who], options),
            luck=luck_sum[who] if luck else 0.0,
        )
        for who in (0, 1)
    )
    return MatchReview((players[0], players[1]))
