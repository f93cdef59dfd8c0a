"""The computer's policies ask the games' capabilities: levels per kind, the player of a turn,
the answer to a resignation offer."""

from __future__ import annotations

from dataclasses import replace

from computer.decide import (
    LEVEL_NAMES,
    accepts_offer,
    default_level,
    match_context,
    mover_for,
    offered_levels,
    resignation_verdict,
)
from computer.players import RandomPlayer, playable_levels
from computer.steps_easy import StepsEasyPlayer
from computer.steps_medium import STRONG_READY, StepsMediumPlayer
from rules.common.dice import Dice
from rules.game import find_game
from rules.match import Match, Phase

NETS = {1: RandomPlayer(), 2: RandomPlayer(), 3: RandomPlayer()}
"""Stand-ins for the net players by level (what mover_for picks among)."""


def playing(game_type: str, length: int = 3, **kw: object) -> Match:
    return replace(Match.new(length, game_type=game_type), phase=Phase.PLAYING, dice=Dice(6, 5),
                   **kw)  # type: ignore[arg-type]


def test_a_kind_without_gnubg_offers_its_own_levels_and_starts_medium() -> None:
    # easy, medium and (their own nets, with numpy) strong
    own = (1, 2, 3) if STRONG_READY else (1, 2)
    for kind in ("plakoto", "fevga", "nardy", "tavli"):
        assert offered_levels(kind) == own and default_level(kind) == 2
    playable = tuple(n for n, name in LEVEL_NAMES.items() if name in playable_levels())
    assert offered_levels("portes") == playable


def test_the_player_of_a_turn_follows_the_kind_and_the_board() -> None:
    # a Plakoto match: the step-engine player, in this process
    mover = mover_for(playing("plakoto"), 1, NETS, engine=True)
    assert isinstance(mover.player, StepsEasyPlayer) and not mover.in_worker
    # a tavli match on its Portes game: the same kind of player, in the engine's worker
    mover = mover_for(playing("tavli"), 2, NETS, engine=True)
    assert isinstance(mover.player, StepsMediumPlayer) and mover.in_worker
    # the strong level of a Fevga match: the game's own net
    strong = mover_for(playing("fevga"), 3, NETS, engine=True).player
    assert strong.name == ("strong" if STRONG_READY else "medium")
    # a Portes match: the net player of its level, the easy one without gnubg-nn
    assert mover_for(playing("portes"), 3, NETS, engine=True).player is NETS[3]
    assert mover_for(playing("portes"), 3, NETS, engine=False).player is NETS[1]


def test_a_resignation_is_judged_by_the_kind() -> None:
    # points that win the match: yes, in any game
    assert resignation_verdict(playing("nardy", 1, resign_offer=1), engine=False) is True
    # no nets for the game: only the most a game gives
    assert resignation_verdict(playing("plakoto", 5, resign_offer=1), engine=True) is False
    assert resignation_verdict(playing("plakoto", 5, resign_offer=2), engine=True) is True
    # Portes: the engine decides, and declines without it
    assert resignation_verdict(playing("portes", 5, resign_offer=1), engine=True) is None
    assert resignation_verdict(playing("portes", 5, resign_offer=1), engine=False) is False


def test_an_offer_is_taken_when_it_is_worth_playing_on() -> None:
    state = playing("portes", 5, resign_offer=1)
    assert accepts_offer(state, 0.05) is False  # the offerer is nearly lost: play on
    assert accepts_offer(state, 0.95) is True   # the offerer is nearly won: take the point
    assert accepts_offer(state, None) is False
    assert match_context(state, 0).match_length == 5
    assert find_game(state.game_key).caps.gnubg
