"""One evaluator per game: every legal play with its equity, for hints, reviews and the accuracy
figure (:mod:`computer.accuracy`).

:func:`evaluator_for` asks the game registry (:mod:`rules.game`) what the game is, never its
name: a game GNU Backgammon describes (``caps.gnubg``) is judged by its nets
(:class:`GnubgEvaluator`); any other game by the evaluator registered for it
(:func:`register_evaluator`; a game that ships a strong level's net, with numpy installed, is
judged by it, :class:`NetEvaluator`), else, for a game whose capabilities say the computer
judges it (``caps.reviews``), by the medium level's hand evaluation (:class:`HandEvaluator`).

Units: equity in points per game from the mover's side (cubeless; in a match, normalised match
equity as :mod:`computer.evaluation` reports it for GNU Backgammon). The hand evaluation's pips
become an equity by a logistic mapping (:func:`pips_to_equity`):

    equity = 2 / (1 + exp(-pips / PIP_SCALE)) - 1          (PIP_SCALE = 20 pips)

so an even position is 0, the value of a game point while the game goes on (``WIN`` = 40 pips)
is worth about 0.76 of a point, and the mapping never leaves (-1, 1); a decided game is worth
its points exactly (``DECIDED`` pips a point: a pinned mother scores 2).

``depth``: 0 = the position after the play judged as it stands, 1 = one roll ahead (GNU
Backgammon's 1-ply), and so on; ``name`` says which (shown beside the figure).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from importlib.util import find_spec
from typing import Protocol

from computer.context import MONEY, MatchContext
from computer.evaluation import rank_plays
from computer.steps_eval import DECIDED
from computer.steps_eval import evaluate as steps_evaluate
from rules.game import GAMES, find_game, find_kind, game_of
from rules.position import Dice, Play, Position
from rules.steps.options import RuleOptions

PIP_SCALE = 20.0
"""Pips of the hand evaluation for which the logistic mapping gives 2/(1+e^-1) - 1 = 0.46."""
GNUBG_DEPTH = 1
"""GNU Backgammon's depth for hints, reviews and the accuracy figure: 1-ply. 2-ply was measured
at 477 ms a decision against 52 ms for 1-ply (bench run beside each other, load 16 on 2 cores),
some 30 s a match in the one engine worker that also plays the computer's turns: it does not
fit. 2-ply confirms the errors a review lists (:data:`CONFIRM_DEPTH`)."""
CONFIRM_DEPTH = 2
"""The deeper look that must confirm an error before a review lists it."""


class Evaluator(Protocol):
    """What judges the plays of a game."""

    @property
    def name(self) -> str:
        """Which evaluator at which depth, e.g. "GNU Backgammon 1-ply"."""
        ...

    @property
    def depth(self) -> int: ...

    def equities_of_plays(self, position: Position, dice: Dice,
                          context: MatchContext = MONEY,
                          options: RuleOptions | None = None) -> list[tuple[Play, float]]:
        """Every legal play with its equity for the mover (points), best first."""
        ...

    def deeper(self) -> Evaluator:
        """The strongest evaluator of the same game (itself when there is none deeper)."""
        ...


@dataclass(frozen=True, slots=True)
class GnubgEvaluator:
    """GNU Backgammon's nets (gnubg-nn) at ``depth`` plies, with its move filter."""

    depth: int = GNUBG_DEPTH

    @property
    def name(self) -> str:
        return f"GNU Backgammon {self.depth}-ply"

    def equities_of_plays(self, position: Position, dice: Dice,
                          context: MatchContext = MONEY,
                          options: RuleOptions | None = None) -> list[tuple[Play, float]]:
        ranked = rank_plays(position, dice, context, plies=self.depth)
        deepest = ranked[0].plies
        # plays the filter left at 0-ply are worse than every play judged deeper: kept after
        # them, with their 0-ply figure capped below the deep ones so the order holds
        deep = [(r.play, r.equity) for r in ranked if r.plies == deepest]
        floor = min(e for _, e in deep)
        shallow = [(r.play, min(r.equity, floor)) for r in ranked if r.plies != deepest]
        return deep + shallow

    def deeper(self) -> Evaluator:
        return GnubgEvaluator(max(self.depth, CONFIRM_DEPTH))


def pips_to_equity(pips: float) -> float:
    """The hand evaluation's pips as an equity in points (see the module's text)."""
    if abs(pips) >= DECIDED:
        return pips / DECIDED
    return 2.0 / (1.0 + math.exp(-pips / PIP_SCALE)) - 1.0


@dataclass(frozen=True, slots=True)
class HandEvaluator:
    """The medium level's hand-written evaluation of the position after each play."""

    depth: int = 0

    @property
    def name(self) -> str:
        return "hand evaluation 0-ply"

    def equities_of_plays(self, position: Position, dice: Dice,
                          context: MatchContext = MONEY,
                          options: RuleOptions | None = None) -> list[tuple[Play, float]]:
        game = game_of(position)
        plays = game.legal_plays(position, dice, options)
        # the hand evaluation reads the step engine's boards: its own games' positions
        judged = [(p, pips_to_equity(steps_evaluate(p.position)))  # type: ignore[arg-type]
                  for p in plays]
        return sorted(judged, key=lambda pe: -pe[1])

    def deeper(self) -> Evaluator:
        return self


_REGISTERED: dict[str, Callable[[], Evaluator]] = {}


def register_evaluator(game: str, factory: Callable[[], Evaluator]) -> None:
    """Judge ``game`` (a key of the registry) with what ``factory`` makes from now on."""
    find_game(game)
    _REGISTERED[game] = factory


def evaluator_of_game(game: str) -> Evaluator:
    """The strongest evaluator a game has (see the module's text)."""
    found = find_game(game)
    if found.key in _REGISTERED:
        return _REGISTERED[found.key]()
    if found.caps.gnubg:
        return GnubgEvaluator()
    if found.key in _NETS:
        return NetEvaluator()
    if found.caps.reviews:
        return HandEvaluator()
    raise NoEvaluator(f"nothing judges the plays of {found.key!r}")


class NoEvaluator(LookupError):
    """A game the computer does not judge (``caps.reviews`` false, nothing registered)."""


def needs_engine(position: Position) -> bool:
    """Whether judging this position's game takes GNU Backgammon's nets (gnubg-nn)."""
    return isinstance(evaluator_at(position), GnubgEvaluator)


def evaluator_for(game_or_kind: str, played: int = 0) -> Evaluator:
    """The evaluator of a game, or of a match kind's ``played + 1``-th game (a rotation)."""
    kind = find_kind(game_or_kind)
    return evaluator_of_game(kind.game_at(played).key)


def evaluator_at(position: Position) -> Evaluator:
    """The evaluator of the game ``position`` belongs to."""
    return evaluator_of_game(game_of(position).key)


def unregister_evaluator(game: str) -> None:
    """Judge ``game`` by its default evaluator again."""
    _REGISTERED.pop(game, None)


@dataclass(frozen=True, slots=True)
class NetEvaluator:
    """The strong level's value net of a step-engine game (:mod:`computer.steps_net`): the
    position after each play, judged by the net (win and double-win chances, as points)."""

    depth: int = 0

    @property
    def name(self) -> str:
        return "the strong level's net 0-ply"

    def equities_of_plays(self, position: Position, dice: Dice,
                          context: MatchContext = MONEY,
                          options: RuleOptions | None = None) -> list[tuple[Play, float]]:
        from computer.steps_net import play_equities

        # the net reads the step engine's boards: its own games' positions
        return play_equities(position, dice, options)  # type: ignore[arg-type]

    def deeper(self) -> Evaluator:
        return self


def _shipped_nets() -> frozenset[str]:
    """Where numpy is installed, the games that ship a net (``computer/nets/<game>.npz``):
    judged by it, as it beats the hand evaluation in play (docs/computer.md)."""
    if find_spec("numpy") is None:
        return frozenset()
    nets = resources.files("computer").joinpath("nets")
    return frozenset(game.key for game in GAMES.values()
                     if not game.caps.gnubg and nets.joinpath(f"{game.key}.npz").is_file())


_NETS = _shipped_nets()
