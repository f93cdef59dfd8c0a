"""The computer's policies, asked by the bot: which levels a match kind offers, which player
plays a turn, and whether an offered resignation is accepted.

They ask the games' capabilities (:mod:`rules.game`), never a game's name: a kind GNU
Backgammon describes (``MatchKind.gnubg``) is played by the net players of
:mod:`computer.players` in the engine's worker process (easy only without gnubg-nn); any other
kind by :func:`computer.steps_medium.steps_player` (easy, medium, and strong on the games' own
nets of :mod:`computer.steps_net`, which need numpy), in this process for the step-engine games
and in the worker for a rotation's Portes games.

Levels are stored as numbers: 1 easy, 2 medium, 3 strong (:data:`LEVEL_NAMES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from computer.context import MatchContext
from computer.met import match_equity
from computer.players import LEVELS, ComputerPlayer, playable_levels
from computer.steps_medium import STEPS_LEVELS, steps_player
from rules.game import find_kind, game_of
from rules.match import Match

__all__ = [
    "DEFAULT_LEVEL",
    "LEVEL_NAMES",
    "Mover",
    "accepts_offer",
    "default_level",
    "match_context",
    "mover_for",
    "offered_levels",
    "resignation_verdict",
    "steps_level",
]

LEVEL_NAMES: dict[int, str] = dict(enumerate(LEVELS, start=1))
"""``computer_level`` as stored -> the level's name in :mod:`computer`."""
DEFAULT_LEVEL = 2
"""The level when none is known (medium)."""


def offered_levels(kind: str) -> tuple[int, ...]:
    """The levels a match of ``kind`` offers: with GNU Backgammon's nets those playable here
    (without gnubg-nn, easy only); otherwise :data:`computer.steps_medium.STEPS_LEVELS` (easy,
    medium and, with numpy, strong)."""
    if find_kind(kind).gnubg:
        playable = playable_levels()
        return tuple(n for n, name in LEVEL_NAMES.items() if name in playable)
    return tuple(n for n, name in LEVEL_NAMES.items() if name in STEPS_LEVELS)


def default_level(kind: str) -> int:
    """The level a new match of ``kind`` starts with when the player chose none."""
    offered = offered_levels(kind)
    return DEFAULT_LEVEL if DEFAULT_LEVEL in offered else offered[0]


def steps_level(level: int | None) -> str:
    """The level of a match the gnubg net players do not play: easy (1), medium (2 or none),
    strong (3; medium where the strong level cannot play)."""
    name = LEVEL_NAMES.get(level or DEFAULT_LEVEL, "medium")
    return name if name in STEPS_LEVELS else "medium"


def match_context(state: Match, player: int) -> MatchContext:
    """The match situation from ``player``'s side (length, score, no triple)."""
    length = state.length
    mine = min(state.score[player], length - 1)
    theirs = min(state.score[1 - player], length - 1)
    return MatchContext(length, mine, theirs, state.no_triple)


@dataclass(frozen=True)
class Mover:
    """Who plays the computer's turn, and where: ``in_worker`` in the engine's worker process
    (:mod:`computer.aio`), else in a thread of this process."""

    player: ComputerPlayer
    in_worker: bool


def mover_for(state: Match, level: int | None, nets: Mapping[int, ComputerPlayer], *,
              engine: bool) -> Mover:
    """The player of the computer's turn in ``state`` at ``level``; ``nets`` the net players
    by level (1 must be there: the easy one, which needs no nets), ``engine`` whether gnubg-nn
    is installed."""
    if not find_kind(state.game_type).gnubg:
        player = steps_player(steps_level(level), state.options)
        return Mover(player, in_worker=game_of(state.position).caps.gnubg)
    if not engine:  # without gnubg-nn every match gets the easy level
        return Mover(nets[1], in_worker=True)
    return Mover(nets.get(level or DEFAULT_LEVEL) or nets[DEFAULT_LEVEL], in_worker=True)


def resignation_verdict(state: Match, *, engine: bool) -> bool | None:
    """The answer to the resignation offered in ``state`` when it needs no judgement by the
    engine, else ``None`` (then ask :func:`accepts_offer` with the engine's chances): the
    points win the match: yes; a kind without nets: only the most a game can give (2); no
    dice or no engine: no."""
    offerer = state.turn
    me = 1 - offerer
    if state.resign_offer >= state.length - state.score[me]:
        return True
    if not find_kind(state.game_type).gnubg:
        return state.resign_offer >= 2
    if state.dice is None or not engine:
        return False
    return None


def accepts_offer(state: Match, match_winning_chance: float | None) -> bool:
    """Accept when the points offered win the computer at least as much as playing on is
    expected to: ``match_winning_chance`` is the offerer's (the engine's chances after the
    offerer's best play with the dice rolled), against the match equity after taking the
    points."""
    if match_winning_chance is None:
        return False
    offerer = state.turn
    me = 1 - offerer
    my_away = state.length - state.score[me]
    their_away = state.length - state.score[offerer]
    playing_on = 1.0 - match_winning_chance
    taking = match_equity(my_away - state.resign_offer, their_away, no_triple=state.no_triple)
    return taking >= playing_on - 1e-9
