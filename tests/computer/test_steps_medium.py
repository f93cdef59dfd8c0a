"""The medium level in Plakoto, Fevga and Long Nardy: always a legal play of the match's rules,
whatever its deadline, deterministic, sensible in crafted positions, and clearly better than
chance."""

from __future__ import annotations

import random

import pytest

from computer.players import ComputerPlayer
from computer.steps_easy import StepsEasyPlayer
from computer.steps_medium import STRONG_READY, StepsMediumPlayer, steps_player
from rules.games import game_outcome, legal_plays, start_position
from rules.position import Position
from rules.selfplay import steps_selfplay_positions
from rules.steps.board import StepsPosition, Variant, parse_steps
from rules.steps.options import FevgaOptions, RuleOptions
from tests.sampling import sample_or_full

GAMES = (Variant.PLAKOTO, Variant.FEVGA, Variant.NARDY)

CRAFTED = [
    # Plakoto: pins on both sides, a lone mother on each start
    (Variant.PLAKOTO, "x 24:1 20:2p 13:5 8:3 5:3; o 24:1 19:1p 11:5 9:4 3:3"),
    (Variant.PLAKOTO, "x 24:14; o 24:13 22:1p 18:1"),
    # Fevga: the first checker out, the starting quarter nearly closed, a block ahead
    (Variant.FEVGA, "x 24:14 13:1; o 24:15"),
    (Variant.FEVGA, "x 24:9 23:1 22:1 21:1 20:1 19:1 10:1; o 24:13 3:2"),
    (Variant.FEVGA, "x 18:1 9:3 8:3 7:3 6:2 5:3; o 24:10 23:2 22:3"),
    # Long Nardy: the head, a five-point block with the opponent behind it
    (Variant.NARDY, "x 24:15; o 24:14 13:1"),
    (Variant.NARDY, "x 24:5 11:2 10:2 9:2 8:2 7:2; o 24:12 14:3"),
]


@pytest.mark.parametrize("every", sample_or_full(4, 1))
@pytest.mark.parametrize("variant", GAMES)
def test_the_medium_player_always_chooses_a_legal_play(variant: Variant, every: int) -> None:
    # Forty self-play positions, each with its roll: every fourth in the default run, all forty
    # in CI's ``[full]`` (a two-ply search is some 75 ms a position).
    player = StepsMediumPlayer(plies=2, seed=3)
    assert isinstance(player, ComputerPlayer)
    rng = random.Random(2)
    rolled = [(position, (rng.randint(1, 6), rng.randint(1, 6)))
              for position in steps_selfplay_positions(variant, 40, seed=9)]
    for position, dice in rolled[::every]:
        assert player.choose_play(position, dice) in legal_plays(position, dice)


@pytest.mark.parametrize(("variant", "fixture"), CRAFTED)
def test_the_medium_player_is_legal_in_crafted_positions(variant: Variant, fixture: str) -> None:
    position = parse_steps(variant, fixture)
    for player in (StepsMediumPlayer(), StepsMediumPlayer(plies=2)):
        for dice in ((6, 6), (6, 5), (4, 4), (3, 1), (2, 1), (1, 1)):
            assert player.choose_play(position, dice) in legal_plays(position, dice)


def test_the_medium_player_plays_by_the_matchs_options() -> None:
    fixture = "x 24:9 21:1 20:1 18:1 17:1 16:1 15:1; o 24:15"
    position = parse_steps(Variant.FEVGA, fixture)
    options = RuleOptions(fevga=FevgaOptions(fevga_prime="nardy"))
    player = steps_player("medium", options)
    assert player.choose_play(position, (5, 1)) in legal_plays(position, (5, 1), options)


def test_steps_easy_gives_each_level_and_plays_portes_too() -> None:
    assert isinstance(steps_player("medium"), StepsMediumPlayer)
    assert isinstance(steps_player("easy"), StepsEasyPlayer)
    # strong: the games' own nets where numpy is installed, else medium
    assert steps_player("strong").name == ("strong" if STRONG_READY else "medium")
    with pytest.raises(ValueError, match="easy, medium, strong"):
        steps_player("grandmaster")
    play = steps_player("medium").choose_play(Position.start(), (3, 1))
    assert play in legal_plays(Position.start(), (3, 1))
    play = steps_player("strong").choose_play(Position.start(), (3, 1))
    assert play in legal_plays(Position.start(), (3, 1))


def test_the_medium_player_keeps_to_its_deadline() -> None:
    # A deadline already past still gives a legal play: the search returns what it has (how
    # long a decision takes is measured in bench/strength.py --tavli, not asserted here).
    for variant in GAMES:
        for position in steps_selfplay_positions(variant, 12, seed=1):
            hurried = StepsMediumPlayer(plies=2, budget_ms=0.0)
            for dice in ((2, 2), (6, 1)):
                assert hurried.choose_play(position, dice) in legal_plays(position, dice)


@pytest.mark.parametrize("variant", GAMES)
def test_the_medium_player_is_deterministic(variant: Variant) -> None:
    # Unhurried (no deadline can cut the search short), the same position and roll always get
    # the same play, from two players alike.
    positions = steps_selfplay_positions(variant, 12, seed=4)
    first, second = (StepsMediumPlayer(seed=5, budget_ms=60_000.0) for _ in range(2))
    for position in positions[::3]:
        for dice in ((5, 3), (4, 4)):
            assert first.choose_play(position, dice) == second.choose_play(position, dice)


def _pinned_theirs(position: Position) -> int:
    assert isinstance(position, StepsPosition)
    return position.pins.count(-1)


def test_plakoto_medium_pins_a_lone_checker() -> None:
    # 8/5 pins their blot on our 5 (their 20); nothing of theirs can reach our checker there.
    position = parse_steps(Variant.PLAKOTO, "x 24:12 13:2 8:1; o 24:13 20:1 11:1")
    for plies in (1, 2):
        play = StepsMediumPlayer(plies=plies).choose_play(position, (3, 1))
        assert _pinned_theirs(play.position) == 1


def test_plakoto_medium_pins_the_mother_to_win() -> None:
    position = parse_steps(Variant.PLAKOTO, "x 8:1 3:1 2:13; o 24:1 10:14")
    play = StepsMediumPlayer().choose_play(position, (2, 6))
    outcome = game_outcome(play.position)
    assert outcome is not None and outcome.mover_wins and outcome.points == 2


def test_fevga_medium_blocks_in_front_of_the_opponents_start() -> None:
    # Their fourteen wait on our 12: 13/11 13/10 holds the two points right in front of them.
    position = parse_steps(Variant.FEVGA, "x 24:11 14:2 13:2; o 24:14 20:1")
    play = StepsMediumPlayer().choose_play(position, (3, 2))
    board = play.position.board
    assert board[11] > 0 and board[10] > 0


def test_nardy_medium_builds_a_block_ahead_of_the_head() -> None:
    # Rather than another checker off the head, two points in a row in front of their head.
    position = parse_steps(Variant.NARDY, "x 24:12 16:1 15:1 13:1; o 24:15")
    play = StepsMediumPlayer().choose_play(position, (5, 4))
    board = play.position.board
    assert board[24] == 12
    assert sum(1 for p in range(6, 12) if board[p] > 0) == 2


STRENGTH = sample_or_full((2, 2, 60_000.0), (8, 7, StepsMediumPlayer().budget_ms))
"""Games, wins needed and the search's deadline (ms). The default run's two games are played
unhurried, so that no deadline cuts a search short and they come out the same on any machine;
CI's eight (``[full]``) by the medium player as shipped, its deadline included."""


@pytest.mark.long
@pytest.mark.parametrize("strength", STRENGTH)
@pytest.mark.parametrize("variant", GAMES)
def test_the_medium_player_beats_random_play(variant: Variant,
                                             strength: tuple[int, int, float]) -> None:
    games, needed, budget_ms = strength
    wins = 0
    for game in range(games):
        rng = random.Random(100 + game)
        medium = StepsMediumPlayer(seed=game, budget_ms=budget_ms)
        position, medium_turn = start_position(variant), game % 2 == 0
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            play = (medium.choose_play(position, dice) if medium_turn
                    else rng.choice(legal_plays(position, dice)))
            outcome = game_outcome(play.position)
            if outcome is not None:
                wins += outcome.mover_wins is medium_turn
                break
            position, medium_turn = play.position.flip(), not medium_turn
    assert wins >= needed, (wins, games)
