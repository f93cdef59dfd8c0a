"""What one accepted action appends to the log: a ``turns`` row per turn played, a ``games`` row
per game started (and its result when it ends), and the pending timers of whoever is waited for.
Statements with parameters only; the kernel runs them after its compare-and-swap."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from rules.match import Event, GameDrawn, GameEnded, GameStarted, TurnPlayed
from storage.results import TimerKind, TimerPolicy
from storage.usecases.rows import END_GAME, INSERT_GAME, INSERT_TIMERS, INSERT_TURNS, Step

DRAW = "draw"
"""``games.kind`` of a drawn game (no ``GameKind``: nobody won it)."""


def turn_row(match_id: int, event: TurnPlayed, now: datetime) -> dict[str, Any]:
    """The ``turns`` row of a turn played: dice, single moves as [from, to, die, hit], text."""
    return {
        "match_id": match_id,
        "game": event.game,
        "turn": event.turn,
        "player": event.player,
        "die1": event.dice.die1,
        "die2": event.dice.die2,
        "steps": [[m.from_point, m.to_point, m.die, int(m.hit)] for m in event.moves],
        "text": event.text,
        "gnubg_id": event.gnubg_id,
        "forced": event.forced,
        "created_at": now,
    }


def game_started(match_id: int, event: GameStarted, now: datetime) -> Step:
    return (
        INSERT_GAME,
        {
            "match_id": match_id,
            "number": event.game,
            "opening0": event.opening[0],
            "opening1": event.opening[1],
            "resigned": False,
            "started_at": now,
        },
    )


def game_ended(match_id: int, event: GameEnded, now: datetime) -> Step:
    return (
        END_GAME,
        {
            "b_id": match_id,
            "b_number": event.game,
            "winner": event.winner,
            "kind": event.kind.value,
            "points": event.points,
            "resigned": event.resigned,
            "ended_at": now,
        },
    )


def game_drawn(match_id: int, event: GameDrawn, now: datetime) -> Step:
    """A drawn Plakoto (both mothers pinned): no winner, kind ``draw``, 0 points; the game is
    played again under the next number."""
    return (
        END_GAME,
        {
            "b_id": match_id,
            "b_number": event.game,
            "winner": None,
            "kind": DRAW,
            "points": 0,
            "resigned": False,
            "ended_at": now,
        },
    )


def event_steps(match_id: int, events: Sequence[Event], now: datetime) -> list[Step]:
    """The statements appending the turns to the move log and keeping the games table up to
    date, in order, with as few as possible (one executemany per run of turns)."""
    steps: list[Step] = []
    turns: list[dict[str, Any]] = []

    def flush_turns() -> None:
        if turns:
            steps.append((INSERT_TURNS, list(turns)))
            turns.clear()

    for event in events:
        if isinstance(event, TurnPlayed):
            turns.append(turn_row(match_id, event, now))
        elif isinstance(event, GameStarted):
            flush_turns()
            steps.append(game_started(match_id, event, now))
        elif isinstance(event, GameEnded):
            flush_turns()
            steps.append(game_ended(match_id, event, now))
        elif isinstance(event, GameDrawn):
            flush_turns()
            steps.append(game_drawn(match_id, event, now))
    flush_turns()
    return steps


def waiting_timers(policy: TimerPolicy, match_id: int, seat: int, now: datetime) -> Step:
    """The reminders and the turn timeout of the seat now waited for."""
    timers: list[dict[str, Any]] = [
        {
            "kind": TimerKind.REMINDER.value,
            "due_at": now + after,
            "match_id": match_id,
            "seat": seat,
            "after_s": int(after.total_seconds()),
            "created_at": now,
        }
        for after in policy.schedule()
    ]
    timers.append(
        {
            "kind": TimerKind.TIMEOUT.value,
            "due_at": now + policy.turn_timeout,
            "match_id": match_id,
            "seat": seat,
            "after_s": None,
            "created_at": now,
        }
    )
    return (INSERT_TIMERS, timers)
