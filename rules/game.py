"""One interface for every game, and the registry of games and match kinds.

Modelled on python-chess's ``chess/variant.py`` and ``find_variant``: each game is a
:class:`Game` (its start, legal plays, tap-by-tap input, notation, outcome, rule options and
capabilities), registered once in :data:`GAMES`; code outside the rules asks the registry and the
capabilities, never a game's name::

    game = find_game("plakoto")
    plays = game.legal_plays(game.start(), Dice(6, 5))
    game_of(plays[0].position) is game                  # a position knows its game
    game.caps.gnubg                                     # False: no hints, reviews or .mat

A match plays a :class:`MatchKind`: one game (every game is a kind of its own) or the Tavli
rotation, Portes, Plakoto and Fevga in turn (:data:`TAVLI`), which is a kind, not a game.

Portes keeps its fast generator (:mod:`rules.portes.legal`); Plakoto, Fevga and Long Nardy share the
step-search engine (:mod:`rules.steps.singles` and the modules built on it). Names are gettext
message ids marked with :func:`N_` (the bot translates them; Babel extracts them from here).
A new game is one :func:`register_game` call (see ``docs/adding-a-game.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rules.common.dice import Dice
from rules.common.errors import InvalidAction, WrongGame
from rules.common.movetext import format_moves
from rules.common.scoring import GameKind, game_kind, points_for
from rules.portes.board import CHECKERS, Position
from rules.portes.legal import Play
from rules.portes.legal import legal_plays as portes_plays
from rules.portes.legal import legal_results as portes_results
from rules.portes.moves import Move
from rules.portes.notation import format_play as portes_format
from rules.portes.notation import parse_play as portes_parse
from rules.portes.turninput import TurnInput, TurnInputLike
from rules.steps.board import StepsPosition
from rules.steps.legal import legal_finals
from rules.steps.legal import legal_plays as steps_plays
from rules.steps.notation import format_steps_play, parse_steps_play, pins_made
from rules.steps.options import RuleOptions
from rules.steps.singles import plakoto_decision
from rules.steps.turninput import StepsTurnInput

__all__ = [
    "DEFAULT_KIND",
    "GAMES",
    "KINDS",
    "N_",
    "TAVLI",
    "Capabilities",
    "Game",
    "GameOutcome",
    "MatchKind",
    "PortesGame",
    "StepsGame",
    "find_game",
    "find_kind",
    "game_of",
    "gnubg_kinds",
    "register_game",
    "register_kind",
    "unregister_game",
]

Roll = Dice | tuple[int, int]


def N_(message: str) -> str:
    """Mark a text as a gettext message id (translated by the bot, extracted by Babel)."""
    return message


@dataclass(frozen=True)
class Capabilities:
    """What a game has, asked instead of its name.

    ``bar_and_hits``: a lone checker can be hit and re-enters from the bar; ``pins``: a lone
    checker is pinned instead (Plakoto); ``gnubg``: GNU Backgammon describes the game (its
    Position and Match IDs, its nets for hints and reviews, the ``.mat`` export); ``triple``: a
    backgammon scores 3; ``cafe_start``: the café start (the last game's winner rolls first) may
    be chosen for a match of it; ``same_way``: both sides move the same way round (else
    contrary, as in Portes); ``reviews``: the computer judges its plays (the Hint button, the
    post-match review, the accuracy figure), by GNU Backgammon's nets or its own evaluation."""

    bar_and_hits: bool = False
    pins: bool = False
    gnubg: bool = False
    triple: bool = False
    cafe_start: bool = True
    same_way: bool = False
    reviews: bool = False

    def max_resign(self, no_triple: bool = False) -> int:
        """The most points a player may offer when resigning a game (3 only with a triple)."""
        return 3 if self.triple and not no_triple else 2


@dataclass(frozen=True)
class GameOutcome:
    """How a game ended after a play: ``mover_wins`` (None: a draw, to be played again), the kind
    and the points it scores."""

    mover_wins: bool | None
    kind: GameKind | None
    points: int


class Game(Protocol):
    """A game of the rules core. Positions are seen from the side to move; ``options`` are the
    named rules where sources differ (None: the defaults; a game without options ignores them).
    Each method refuses, with :class:`rules.common.errors.WrongGame`, a position of another game."""

    @property
    def key(self) -> str:
        """Stored in matches (``game_type``/``game_key``); never changes once matches use it."""
    @property
    def letter(self) -> str:
        """The one letter the game takes in callback data."""
    @property
    def name(self) -> str:
        """Its name, a gettext message id (``N_("Plakoto")``)."""
    @property
    def caps(self) -> Capabilities: ...

    @property
    def board_type(self) -> type[Position] | None:
        """The class of the game's boards when the game has a class of its own (``None``: a
        step-engine board, whose ``variant`` is the game's key)."""

    def owns(self, position: Position) -> bool: ...
    def start(self) -> Position: ...
    def board(self, slots: Sequence[int], pins: Sequence[int]) -> Position:
        """A board of the game from its stored slots (and pins), validated (``ValueError``)."""
    def legal_plays(self, position: Position, dice: Roll,
                    options: RuleOptions | None = None) -> list[Play]: ...
    def can_move(self, position: Position, dice: Roll,
                 options: RuleOptions | None = None) -> bool: ...
    def result_count(self, position: Position, dice: Roll,
                     options: RuleOptions | None = None) -> int: ...
    def turn_input(self, position: Position, dice: Roll,
                   options: RuleOptions | None = None) -> TurnInputLike: ...
    def format_play(self, position: Position, dice: Roll, moves: Sequence[Move],
                    options: RuleOptions | None = None) -> str: ...
    def format_moves_so_far(self, position: Position, dice: Roll, moves: Sequence[Move],
                            options: RuleOptions | None = None) -> str: ...
    def parse_play(self, position: Position, dice: Roll, text: str,
                   options: RuleOptions | None = None) -> Play: ...
    def outcome(self, after: Position, *, no_triple: bool = False) -> GameOutcome | None: ...


@dataclass(frozen=True)
class PortesGame:
    """Portes (backgammon without the cube): the fast gnubg-style generator of
    :mod:`rules.portes.legal`, :mod:`rules.portes.turninput` and :mod:`rules.portes.notation`."""

    key: str = "portes"
    letter: str = "p"
    name: str = N_("Portes")
    caps: Capabilities = Capabilities(bar_and_hits=True, gnubg=True, triple=True, reviews=True,
                                      cafe_start=False)
    board_type: type[Position] | None = Position

    def owns(self, position: Position) -> bool:
        return type(position) is Position

    def board(self, slots: Sequence[int], pins: Sequence[int]) -> Position:
        return Position(slots)

    def _check(self, position: Position) -> None:
        if type(position) is not Position:
            raise WrongGame(f"not a {self.key} position: {position!r}")

    def start(self) -> Position:
        return Position.start()

    def legal_plays(self, position: Position, dice: Roll,
                    options: RuleOptions | None = None) -> list[Play]:
        return portes_plays(position, dice)

    def can_move(self, position: Position, dice: Roll,
                 options: RuleOptions | None = None) -> bool:
        return portes_results(position, dice) != {position.board}

    def result_count(self, position: Position, dice: Roll,
                     options: RuleOptions | None = None) -> int:
        return len(portes_results(position, dice))

    def turn_input(self, position: Position, dice: Roll,
                   options: RuleOptions | None = None) -> TurnInput:
        return TurnInput(position, dice)

    def format_play(self, position: Position, dice: Roll, moves: Sequence[Move],
                    options: RuleOptions | None = None) -> str:
        return portes_format(position, dice, moves)

    def format_moves_so_far(self, position: Position, dice: Roll, moves: Sequence[Move],
                            options: RuleOptions | None = None) -> str:
        self._check(position)
        return format_moves(moves)

    def parse_play(self, position: Position, dice: Roll, text: str,
                   options: RuleOptions | None = None) -> Play:
        return portes_parse(position, dice, text)

    def outcome(self, after: Position, *, no_triple: bool = False) -> GameOutcome | None:
        """Bearing off all 15 wins 1, 2 (gammon) or 3 (backgammon; 2 with ``no_triple``)."""
        self._check(after)
        if after.mover_off != CHECKERS:
            return None
        kind = game_kind(after)
        return GameOutcome(True, kind, points_for(kind, no_triple=no_triple))


@dataclass(frozen=True)
class StepsGame:
    """A game of the step-search engine (:class:`rules.steps.board.StepsPosition` boards, whose
    ``variant`` is the game's key): Plakoto, Fevga and Long Nardy."""

    key: str
    letter: str
    name: str
    caps: Capabilities = Capabilities()
    board_type: type[Position] | None = None

    def owns(self, position: Position) -> bool:
        return isinstance(position, StepsPosition) and position.variant == self.key

    def board(self, slots: Sequence[int], pins: Sequence[int]) -> Position:
        return StepsPosition(self.key, slots, pins)

    def _check(self, position: Position) -> StepsPosition:
        if not isinstance(position, StepsPosition) or position.variant != self.key:
            raise WrongGame(f"not a {self.key} position: {position!r}")
        return position

    def start(self) -> Position:
        return StepsPosition.start_of(self.key)

    def legal_plays(self, position: Position, dice: Roll,
                    options: RuleOptions | None = None) -> list[Play]:
        return steps_plays(self._check(position), dice, options)

    def can_move(self, position: Position, dice: Roll,
                 options: RuleOptions | None = None) -> bool:
        board = self._check(position)
        return (board.board, board.pins) not in legal_finals(board, dice, options)

    def result_count(self, position: Position, dice: Roll,
                     options: RuleOptions | None = None) -> int:
        return len(legal_finals(self._check(position), dice, options))

    def turn_input(self, position: Position, dice: Roll,
                   options: RuleOptions | None = None) -> StepsTurnInput:
        return StepsTurnInput(self._check(position), dice, options)

    def format_play(self, position: Position, dice: Roll, moves: Sequence[Move],
                    options: RuleOptions | None = None) -> str:
        return format_steps_play(self._check(position), dice, moves, options)

    def format_moves_so_far(self, position: Position, dice: Roll, moves: Sequence[Move],
                            options: RuleOptions | None = None) -> str:
        """A ``*`` only where a pin that is still there is made."""
        return format_moves(pins_made(self._check(position), dice, moves, options))

    def parse_play(self, position: Position, dice: Roll, text: str,
                   options: RuleOptions | None = None) -> Play:
        return parse_steps_play(self._check(position), dice, text, options)

    def outcome(self, after: Position, *, no_triple: bool = False) -> GameOutcome | None:
        """1, or 2 when the loser has borne off none; no triple. With pins (Plakoto) a pinned
        mother also ends the game (:func:`rules.steps.singles.plakoto_decision`): the pinner wins
        2, or both mothers are pinned and the game is a draw."""
        board = self._check(after)
        if board.mover_off == CHECKERS:
            kind = GameKind.SINGLE if board.opponent_off else GameKind.GAMMON
            return GameOutcome(True, kind, 1 if board.opponent_off else 2)
        if self.caps.pins:
            decision = plakoto_decision(board.board, board.pins)
            if decision == "draw":
                return GameOutcome(None, None, 0)
            if decision == "mother":
                return GameOutcome(True, GameKind.MOTHER, 2)
        return None


@dataclass(frozen=True)
class MatchKind:
    """What a match plays: its games in turn (one game, or a rotation), the lengths it may be
    played to, its letter and name (a message id), the café start's default and a few aliases
    a player may type (``/new nardi``)."""

    key: str
    letter: str
    name: str
    games: tuple[str, ...]
    lengths: tuple[int, ...] = (1, 3, 5, 7)
    cafe_default: bool = False
    aliases: tuple[str, ...] = field(default=())
    stems: tuple[str, ...] = field(default=())
    """What in an inline query names the kind (lower case, without accents)."""
    favourite_in: tuple[tuple[str, int], ...] = field(default=())
    """Where players list this kind among the first: (language, rank) pairs, rank 0 first
    (Long Nardy is Russia's game, ``("ru", 0)``); elsewhere it keeps the registry's order."""

    def game_at(self, played: int) -> Game:
        """The game of a match's ``played + 1``-th game (a drawn game counts: it is played
        again as the next one in the rotation's order)."""
        return GAMES[self.games[played % len(self.games)]]

    @property
    def is_rotation(self) -> bool:
        return len(self.games) > 1

    @property
    def triple(self) -> bool:
        """Whether "no triple" means anything in a match of this kind."""
        return any(GAMES[g].caps.triple for g in self.games)

    @property
    def cafe_start(self) -> bool:
        """Whether the café start switch is offered (a game of the kind has it)."""
        return any(GAMES[g].caps.cafe_start for g in self.games)

    @property
    def has_gnubg_games(self) -> bool:
        """Whether some game of the kind is GNU Backgammon's (its games go in a ``.mat``: a
        tavli match's Portes games)."""
        return any(GAMES[g].caps.gnubg for g in self.games)

    @property
    def gnubg(self) -> bool:
        """Whether GNU Backgammon describes every game of the kind (hints, reviews, ``.mat``)."""
        return all(GAMES[g].caps.gnubg for g in self.games)

    @property
    def reviews(self) -> bool:
        """Whether the computer judges every game of the kind (hints, reviews, accuracy)."""
        return all(GAMES[g].caps.reviews for g in self.games)


GAMES: dict[str, Game] = {}
"""Every game by key, in the order /new offers them."""
KINDS: dict[str, MatchKind] = {}
"""Every match kind by key: each game, and the rotations."""


def register_game(game: Game, *, kind: MatchKind | None = None) -> Game:
    """Add a game (and the kind of a match of it alone: ``kind``, or one by default)."""
    if game.key in GAMES or game.key in KINDS:
        raise ValueError(f"a game {game.key!r} is registered already")
    GAMES[game.key] = game
    if game.board_type is not None:
        _BY_TYPE[game.board_type] = game
    register_kind(kind or MatchKind(game.key, game.letter, game.name, (game.key,),
                                    cafe_default=False))
    return game


def unregister_game(key: str) -> None:
    """Take a game (and the match kinds that play it) out of the registry again: a game added
    for a while, as a test adds one."""
    game = GAMES.pop(key)
    for kind in [k for k in KINDS.values() if key in k.games]:
        del KINDS[kind.key]
    if game.board_type is not None:
        _BY_TYPE.pop(game.board_type, None)


def register_kind(kind: MatchKind) -> MatchKind:
    if kind.key in KINDS or any(k.letter == kind.letter for k in KINDS.values()):
        raise ValueError(f"a match kind {kind.key!r} or letter {kind.letter!r} exists already")
    missing = [g for g in kind.games if g not in GAMES]
    if missing:
        raise ValueError(f"unknown games {missing} in {kind.key!r}")
    KINDS[kind.key] = kind
    return kind


def find_game(key: str) -> Game:
    """The game stored as ``key``; :class:`rules.common.errors.InvalidAction` for an unknown one."""
    game = GAMES.get(str(key))
    if game is None:
        raise InvalidAction(f"Unknown game {key!r}")
    return game


def find_kind(key: str) -> MatchKind:
    """The match kind stored as ``key`` (a game's key, or a rotation's)."""
    kind = KINDS.get(str(key))
    if kind is None:
        raise InvalidAction(f"Unknown game {key!r}")
    return kind


def reviewed_kinds() -> tuple[str, ...]:
    """The match kinds whose every game the computer judges (hints, reviews, accuracy)."""
    return tuple(k.key for k in KINDS.values() if k.reviews)


def gnubg_kinds() -> tuple[str, ...]:
    """The match kinds GNU Backgammon describes (hints, reviews, ``.mat``)."""
    return tuple(k.key for k in KINDS.values() if k.gnubg)


_BY_TYPE: dict[type[Position], Game] = {}


def game_of(position: Position) -> Game:
    """The game a position belongs to (its class, or for step-engine boards its variant)."""
    if isinstance(position, StepsPosition):
        return GAMES[position.variant]
    game = _BY_TYPE.get(type(position))
    if game is None:
        raise WrongGame(f"no game has boards of {type(position).__name__}")
    return game


PORTES = register_game(PortesGame(), kind=MatchKind(
    "portes", "p", N_("Portes"), ("portes",), aliases=("Πόρτες",),
    stems=("port", "πορτ", "коротк", "tavla"), favourite_in=(("tr", 0),)))
DEFAULT_KIND = PORTES.key
"""The kind /new starts with, and that of matches stored before there were other games."""
register_game(StepsGame("plakoto", "k", N_("Plakoto"),
                        Capabilities(pins=True, reviews=True)),
              kind=MatchKind("plakoto", "k", N_("Plakoto"), ("plakoto",), aliases=("Πλακωτό",),
                             stems=("plak", "πλακ", "плак")))
register_game(StepsGame("fevga", "f", N_("Fevga"),
                        Capabilities(same_way=True, reviews=True)),
              kind=MatchKind("fevga", "f", N_("Fevga"), ("fevga",), aliases=("Φεύγα",),
                             stems=("fevg", "φευγ", "февг")))
TAVLI = register_kind(MatchKind("tavli", "v", N_("Tavli"), ("portes", "plakoto", "fevga"),
                                lengths=(3, 5, 7), cafe_default=True, aliases=("Τάβλι",),
                                stems=("tavli", "ταβλ", "тавл")))
"""The Tavli rotation: Portes, Plakoto and Fevga in turn, to 3, 5 or 7 points, café style."""
register_game(StepsGame("nardy", "n", N_("Long Nardy"),
                        Capabilities(same_way=True, reviews=True)),
              kind=MatchKind("nardy", "n", N_("Long Nardy"), ("nardy",),
                             aliases=("nardi", "long nardy", "long nardi", "Νάρδι",
                                      "Μακρύ νάρδι", "нарды"),
                             stems=("nard", "ναρδ", "нард", "длинн", "uzun"),
                             favourite_in=(("ru", 0), ("tr", 1))))
