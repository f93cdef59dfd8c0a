"""The easy level in Plakoto, Fevga and Long Nardy: always a legal play of the match's rules, and
clearly better than chance."""

from __future__ import annotations

import random

import pytest

from computer.players import ComputerPlayer
from computer.steps_easy import StepsEasyPlayer
from rules.games import game_outcome, legal_plays, start_position
from rules.position import Position
from rules.selfplay import steps_selfplay_positions
from rules.steps.board import Variant, parse_steps
from rules.steps.options import FevgaOptions, RuleOptions
from tests.sampling import sample_or_full

GAMES = (Variant.PLAKOTO, Variant.FEVGA, Variant.NARDY)


@pytest.mark.parametrize("variant", GAMES)
def test_the_easy_player_always_chooses_a_legal_play(variant: Variant) -> None:
    player = StepsEasyPlayer(seed=3)
    assert isinstance(player, ComputerPlayer)
    rng = random.Random(1)
    for position in steps_selfplay_positions(variant, 60, seed=4):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        assert player.choose_play(position, dice) in legal_plays(position, dice)


def test_the_easy_player_plays_by_the_matchs_options() -> None:
    # With the Nardy reading of Fevga's prime, 24/19 would make six in a row: not offered
    fixture = "x 24:9 21:1 20:1 18:1 17:1 16:1 15:1; o 24:15"
    position = parse_steps(Variant.FEVGA, fixture)
    options = RuleOptions(fevga=FevgaOptions(fevga_prime="nardy"))
    play = StepsEasyPlayer(options=options).choose_play(position, (5, 1))
    assert play in legal_plays(position, (5, 1), options)


def test_the_easy_player_plays_portes_as_the_portes_easy_level() -> None:
    play = StepsEasyPlayer().choose_play(Position.start(), (3, 1))
    assert play.to_text() == "8/5 6/5"


def test_the_easy_player_pins_the_mother_when_it_can() -> None:
    position = parse_steps(Variant.PLAKOTO, "x 8:1 3:1 2:13; o 24:1 10:14")
    play = StepsEasyPlayer().choose_play(position, (2, 6))
    outcome = game_outcome(play.position)
    assert outcome is not None and outcome.points == 2 and outcome.mover_wins


@pytest.mark.parametrize("strength", sample_or_full((6, 5), (16, 12)))
@pytest.mark.parametrize("variant", [Variant.PLAKOTO, Variant.NARDY])
def test_the_easy_player_beats_random_play(variant: Variant, strength: tuple[int, int]) -> None:
    # (games, wins needed): the first six games in the default run, sixteen in CI's ``[full]``
    games, needed = strength
    wins = 0
    for game in range(games):
        rng = random.Random(game)
        easy = StepsEasyPlayer(seed=game)
        position, easy_turn = start_position(variant), game % 2 == 0
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            play = (easy.choose_play(position, dice) if easy_turn
                    else rng.choice(legal_plays(position, dice)))
            outcome = game_outcome(play.position)
            if outcome is not None:
                wins += outcome.mover_wins is easy_turn
                break
            position, easy_turn = play.position.flip(), not easy_turn
    assert wins >= needed, (wins, games)
