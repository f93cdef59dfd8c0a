"""The Hint button: the best play and its chances (games against the computer only)."""

from __future__ import annotations

from dataclasses import dataclass

from computer.context import MONEY, MatchContext
from computer.evaluation import RankedPlay, evaluate_play, match_winning_chance, rank_plays
from computer.evaluators import evaluator_at
from computer.review import moves_text
from rules.game import game_of
from rules.position import Dice, Play, Position
from rules.steps.options import RuleOptions


@dataclass(frozen=True, slots=True)
class Hint:
    """The engine's best play for the side to move and what it leads to.

    Chances are for the side to move, after the best play, cubeless; gammon chances include
    backgammons. ``match_winning_chance`` is ``None`` in a single game. ``alternatives`` are the
    next best plays (up to two) with their values, for a "why not" line.
    """

    play: Play
    text: str
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    equity: float
    match_winning_chance: float | None
    alternatives: tuple[RankedPlay, ...]


def hint(
    position: Position,
    dice: Dice | tuple[int, int],
    context: MatchContext = MONEY,
    *,
    plies: int = 1,
) -> Hint:
    """The strong level's choice for ``position`` and ``dice``, with its chances."""
    ranked = rank_plays(position, Dice(*dice), context, plies=plies)
    best = ranked[0]
    p = best.probabilities
    return Hint(
        play=best.play,
        text=moves_text(best.play.moves),
        win=p.win,
        win_gammon=p.win_gammon,
        win_backgammon=p.win_backgammon,
        lose_gammon=p.lose_gammon,
        lose_backgammon=p.lose_backgammon,
        equity=best.equity,
        match_winning_chance=match_winning_chance(p, context) if context.is_match else None,
        alternatives=tuple(
            r if r.plies == best.plies else evaluate_play(r.play, context, best.plies)
            for r in ranked[1:3]
        ),
    )


@dataclass(frozen=True, slots=True)
class PlainHint:
    """The best play by a game's own evaluator (:mod:`computer.evaluators`; the games GNU
    Backgammon does not play): the play in the game's notation, its equity in points for the
    side to move, and what judged it."""

    play: Play
    text: str
    equity: float
    evaluator: str


def plain_hint(position: Position, dice: Dice | tuple[int, int],
               context: MatchContext = MONEY, options: RuleOptions | None = None) -> PlainHint:
    roll = Dice(*dice)
    judge = evaluator_at(position)
    best, value = judge.equities_of_plays(position, roll, context, options)[0]
    text = game_of(position).format_play(position, roll, best.moves, options)
    return PlainHint(best, text, value, judge.name)
