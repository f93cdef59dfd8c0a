"""Adding a game is one step (docs/adding-a-game.md): a game registered here, in the test suite
only, is played through the rules, stored in and read back from a real SQLite database, and
drawn as a real image, with no line of rules/, storage/ or rendering/ changed for it.

The game, "Race": Portes' moves from a start where the two sides have already passed each
other (no checker can be hit), built on Portes' generator behind its own board class.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator, Sequence
from dataclasses import replace

import pytest
from PIL import Image

from bot.views.board_image import board_title, draw_board_async
from rules.common.dice import Dice
from rules.common.fairdice import FairDice
from rules.common.movetext import format_moves
from rules.common.scoring import game_kind, points_for
from rules.game import (
    Capabilities,
    GameOutcome,
    MatchKind,
    find_game,
    game_of,
    register_game,
    unregister_game,
)
from rules.games import legal_plays
from rules.match import Match
from rules.portes.board import CHECKERS, Position
from rules.portes.legal import Play, legal_results
from rules.portes.legal import legal_plays as portes_plays
from rules.portes.moves import Move
from rules.portes.notation import format_play, parse_play
from rules.portes.turninput import TurnInput
from rules.steps.options import RuleOptions
from storage.db import Database
from storage.replay import replay
from storage.results import MatchStatus
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock
from tests.storage.helpers import new_match, play_to_end

RACE_POINTS = {12: 3, 11: 3, 10: 3, 9: 3, 8: 3}
"""Each side's start, in its own numbering: all past the other side's checkers."""
Roll = Dice | tuple[int, int]


class RacePosition(Position):
    """A Race board: Portes' 26 slots, a class of its own so the board knows its game."""

    __slots__ = ()

    def flip(self) -> RacePosition:
        return race(super().flip())


def race(position: Position) -> RacePosition:
    board = RacePosition.unchecked(position.board)
    assert isinstance(board, RacePosition)
    return board


def portes(position: Position) -> Position:
    return Position.unchecked(position.board)


class RaceTurnInput:
    """Portes' tap-by-tap input, its boards given back as Race boards."""

    def __init__(self, position: Position, dice: Roll) -> None:
        self.position = position
        self._input = TurnInput(portes(position), dice)

    def next_moves(self, chosen: Sequence[Move] = ()) -> tuple[Move, ...]:
        return self._input.next_moves(chosen)

    def position_after(self, chosen: Sequence[Move]) -> Position:
        return race(self._input.position_after(chosen))

    def is_complete(self, chosen: Sequence[Move] = ()) -> bool:
        return self._input.is_complete(chosen)

    def play(self, chosen: Sequence[Move]) -> Play:
        play = self._input.play(chosen)
        return Play(play.moves, race(play.position))

    def check_step(self, chosen: Sequence[Move], move: Move) -> Move:
        return self._input.check_step(chosen, move)


class RaceGame:
    key = "race"
    letter = "r"
    name = "Race"
    caps = Capabilities(bar_and_hits=True, cafe_start=False)
    board_type = RacePosition

    def owns(self, position: Position) -> bool:
        return type(position) is RacePosition

    def start(self) -> Position:
        return race(Position.from_points(RACE_POINTS, RACE_POINTS))

    def board(self, slots: Sequence[int], pins: Sequence[int]) -> Position:
        return race(Position(slots))

    def legal_plays(self, position: Position, dice: Roll,
                    options: RuleOptions | None = None) -> list[Play]:
        return [Play(p.moves, race(p.position)) for p in portes_plays(portes(position), dice)]

    def can_move(self, position: Position, dice: Roll, options: RuleOptions | None = None) -> bool:
        return legal_results(portes(position), dice) != {position.board}

    def result_count(self, position: Position, dice: Roll,
                     options: RuleOptions | None = None) -> int:
        return len(legal_results(portes(position), dice))

    def turn_input(self, position: Position, dice: Roll,
                   options: RuleOptions | None = None) -> RaceTurnInput:
        return RaceTurnInput(position, dice)

    def format_play(self, position: Position, dice: Roll, moves: Sequence[Move],
                    options: RuleOptions | None = None) -> str:
        return format_play(portes(position), dice, moves)

    def format_moves_so_far(self, position: Position, dice: Roll, moves: Sequence[Move],
                            options: RuleOptions | None = None) -> str:
        return format_moves(moves)

    def parse_play(self, position: Position, dice: Roll, text: str,
                   options: RuleOptions | None = None) -> Play:
        play = parse_play(portes(position), dice, text)
        return Play(play.moves, race(play.position))

    def outcome(self, after: Position, *, no_triple: bool = False) -> GameOutcome | None:
        if after.mover_off != CHECKERS:
            return None
        kind = game_kind(after)
        return GameOutcome(True, kind, points_for(kind, no_triple=no_triple))


@pytest.fixture
def race_game() -> Iterator[RaceGame]:
    game = RaceGame()
    register_game(game, kind=MatchKind("race", "r", "Race", ("race",)))
    yield game
    unregister_game("race")


def test_a_registered_game_is_played_through_the_rules(race_game: RaceGame) -> None:
    # Given the Race registered, a match of it
    match, _ = Match.new(3, game_type="race").start(FairDice(bytes(32), "race"))
    assert match.game_key == "race" and game_of(match.position) is race_game
    # When each turn plays a random legal play, the match runs to its end in Race's rules
    rng = random.Random(3)
    dice = FairDice(bytes(32), "race")
    while not match.is_over:
        assert game_of(match.position) is race_game
        plays = match.legal_plays()
        assert plays == legal_plays(match.position, match.dice or (1, 2))
        match, _ = match.play(match.turn, rng.choice(plays), dice)
    assert match.winner is not None and all(r.game_key == "race" for r in match.results)
    # and its stored form reads back as the same match
    assert Match.from_json(match.to_json()) == match


async def test_a_registered_game_is_stored_replayed_and_drawn(
        race_game: RaceGame, db: Database, clock: FakeClock) -> None:
    # Given a Race match between two players in a real SQLite database
    uc = UseCases(db, clock=clock)
    start = (await new_match(uc, length=1, game_type="race")).match
    assert start is not None and start.state.game_type == "race"
    assert find_game(start.state.game_key) is race_game
    # When it is played to the end through the use cases
    final = await play_to_end(uc, start, seed=11)
    # Then it is saved and loaded back as the same match, and replays from its log
    assert final.status == MatchStatus.FINISHED
    record = await uc.match_record(final.id)
    assert record is not None and record.match.state == final.state
    assert isinstance(record.match.state.position, RacePosition)
    seed_hex, mix = record.match.seed_hex, record.match.mix
    assert seed_hex is not None and mix is not None
    assert replay(record, FairDice(seed_hex, mix)) == final.state
    # and its boards are drawn, with the game's name as their title
    assert board_title(start.state) == "Race"
    drawn = await draw_board_async(start.state, 0)
    image = Image.open(io.BytesIO(drawn))
    assert image.format == "JPEG" and image.width > 300
    portes_start = replace(start.state, game_type="portes", game_key="portes",
                           position=Position.start())
    assert drawn != await draw_board_async(portes_start, 0)  # its own board, not Portes' set-up


def test_the_game_leaves_the_registry_with_the_fixture() -> None:
    with pytest.raises(Exception, match="Unknown game 'race'"):
        find_game("race")
