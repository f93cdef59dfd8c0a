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
from rules.position import ALL_ROLLS, Dice, Move, Play, Position, legal_plays

WORST_COUNT = 3
MIN_ERROR = 0.001
"""Plays losing less than this are not listed among the worst (noise, not mistakes)."""


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
    luck: float


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


def review_match(
    decisions: Sequence[Decision], *, plies: int = 1, luck: bool = True
) -> MatchReview:
    """Review a finished match (or any sequence of turns) for both players."""
    turns = [0, 0]
    counted = [0, 0]
    lost = [0.0, 0.0]
    luck_sum = [0.0, 0.0]
    errors: list[list[ReviewedPlay]] = [[], []]
    for index, decision in enumerate(decisions):
        who = decision.player
        if who not in (0, 1):
            raise ValueError(f"decision {index}: player must be 0 or 1")
        turns[who] += 1
        reviewed, choice = review_decision(index, decision, plies=plies)
        if choice and reviewed is not None:
            counted[who] += 1
            lost[who] += reviewed.equity_lost
            if reviewed.equity_lost >= MIN_ERROR:
                errors[who].append(reviewed)
        if luck:
            luck_sum[who] += luck_of_roll(decision.position, decision.dice, decision.context)
    players = tuple(
        PlayerReview(
            player=who,
            turns=turns[who],
            decisions=counted[who],
            equity_lost=lost[who],
            average_equity_lost=lost[who] / counted[who] if counted[who] else 0.0,
            worst=tuple(sorted(errors[who], key=lambda r: -r.equity_lost)[:WORST_COUNT]),
            luck=luck_sum[who],
        )
        for who in (0, 1)
    )
    return MatchReview((players[0], players[1]))
