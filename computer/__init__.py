"""The computer player: levels, hints, the match-equity table and the post-match review.

The only package that imports ``gnubg_nn``; see ``docs/computer.md`` for the interface.
"""

from computer.context import MONEY, MatchContext
from computer.engine import Probabilities
from computer.evaluation import RankedPlay, equity, match_winning_chance, money_equity, rank_plays
from computer.hint import Hint, hint
from computer.met import match_equity, match_equity_table
from computer.players import (
    BENCH_PLAYERS,
    LEVELS,
    ComputerPlayer,
    Gnubg0Player,
    NetPlayer,
    RandomPlayer,
    TipsPlayer,
    make_player,
    playable_levels,
)
from computer.review import Decision, MatchReview, PlayerReview, ReviewedPlay, review_match
from computer.steps_easy import StepsEasyPlayer
from computer.steps_medium import STEPS_LEVELS, StepsMediumPlayer, steps_player

__all__ = [
    "BENCH_PLAYERS",
    "LEVELS",
    "MONEY",
    "STEPS_LEVELS",
    "ComputerPlayer",
    "Decision",
    "Gnubg0Player",
    "Hint",
    "MatchContext",
    "MatchReview",
    "NetPlayer",
    "PlayerReview",
    "Probabilities",
    "RandomPlayer",
    "RankedPlay",
    "ReviewedPlay",
    "StepsEasyPlayer",
    "StepsMediumPlayer",
    "TipsPlayer",
    "equity",
    "hint",
    "make_player",
    "match_equity",
    "match_equity_table",
    "match_winning_chance",
    "money_equity",
    "playable_levels",
    "rank_plays",
    "review_match",
    "steps_player",
]
