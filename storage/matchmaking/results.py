"""What the matchmaking, ladder and vacation use cases return (plain values, no rows)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from storage.results import ChallengeView, Outcome


@dataclass(frozen=True)
class WaitingView:
    """One waiting request of a player, and how many others wait for the same game."""

    id: int
    game_type: str
    length: int | None
    move_seconds: int
    rating: float
    created_at: datetime
    others: int
    """Other players waiting for this game and time per move now."""


@dataclass(frozen=True)
class Pairing:
    """Two requests paired: the challenge made for them. ``author`` waited longer (seat 0);
    ``acceptor`` starts the match with the Start button their notice carries."""

    author_id: int
    acceptor_id: int
    author_rating: float
    acceptor_rating: float
    challenge: ChallengeView


@dataclass(frozen=True)
class PlayResult:
    outcome: Outcome
    code: str | None = None
    message: str | None = None
    waiting: WaitingView | None = None
    pairing: Pairing | None = None

    @property
    def ok(self) -> bool:
        return self.outcome == Outcome.OK


@dataclass(frozen=True)
class LadderEntry:
    player_id: int
    name: str
    rung: int
    wins: int
    losses: int


@dataclass(frozen=True)
class LadderSettings:
    """A group's ladder as it was opened: what its matches play, its card, its last day."""

    chat_id: int
    game_type: str
    length: int
    opened_by: int | None
    card_message_id: int | None
    last_day: str | None
    """The last day with pairings (none yet: ``None``)."""


@dataclass(frozen=True)
class LadderDay:
    """A group's ladder paired for one day: the challenges made (one per pair)."""

    chat_id: int
    day: str
    challenges: tuple[ChallengeView, ...] = ()
    settled: tuple[tuple[int, int], ...] = ()
    """(winner, loser) of the ladder matches settled since the last day."""
    chat_keys: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class VacationResult:
    outcome: Outcome
    code: str | None = None
    message: str | None = None
    ends_at: datetime | None = None
    days_left: int = 0
    """Days of this year's allowance left after this one."""
    matches: tuple[int, ...] = ()
    """The matches whose clocks stand still."""
    chat_keys: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.outcome == Outcome.OK
