"""Plain result values the use cases return (no ORM rows, no Telegram).

Every use case returns one of these frozen dataclasses. The bot turns them into captions,
keyboards and images; nothing here is attached to a database session.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Literal

from rules.game import DEFAULT_KIND
from rules.match import Event, Match, Phase
from rules.position import Dice, Move
from storage.accuracy import Figure

if TYPE_CHECKING:  # a delivery type, named only
    from storage.delivery.claims import KeyboardAsked

COMPUTER: Literal["computer"] = "computer"
"""The actor to pass when the computer (seat 1 of a match against the computer) acts."""

Actor = int | Literal["computer"]
"""Who acts: a Telegram user id, or :data:`COMPUTER`."""


class Outcome(StrEnum):
    """How a use case ended."""

    OK = "ok"
    """The action was applied and committed."""
    STALE = "stale"
    """The caller's version is not the match's (an old keyboard, a double tap, a lost race).
    Nothing was written; reload the match and redraw."""
    REFUSED = "refused"
    """The rules or the situation do not allow it; ``code`` and ``message`` say why.
    Nothing was written."""
    NOT_FOUND = "not_found"
    """No such match / challenge / player."""
    CORRUPT = "corrupt"
    """The stored state of this match cannot be read (``message`` says why). Nothing was
    written; other matches are unaffected."""


class MatchStatus(StrEnum):
    CHALLENGE = "challenge"
    """Created with a challenge, waiting for someone to accept."""
    ACTIVE = "active"
    FINISHED = "finished"
    """Ended by score or by a player resigning the match."""
    ABANDONED = "abandoned"
    """Ended because the player to act timed out."""
    EXPIRED = "expired"
    """The challenge expired before anyone accepted it."""
    CANCELLED = "cancelled"
    """Cancelled: the challenge by its author, or the match before any play."""

    @property
    def is_over(self) -> bool:
        return self in ENDED_STATUSES


ENDED_STATUSES = frozenset(
    {MatchStatus.FINISHED, MatchStatus.ABANDONED, MatchStatus.EXPIRED, MatchStatus.CANCELLED}
)


class ChallengeStatus(StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class TimerKind(StrEnum):
    REMINDER = "reminder"
    """The player to act has not acted for a while (12 h, then 24 h by default)."""
    TIMEOUT = "timeout"
    """The player to act let the turn deadline pass: they lose the match (status abandoned)."""
    CHALLENGE_EXPIRY = "challenge_expiry"
    """Nobody accepted the challenge in time (status expired)."""


@dataclass(frozen=True)
class ChallengeLimits:
    """How many open challenges one player may have at once; 0 lifts that cap. Counted inside
    the transaction that opens a challenge, so concurrent requests cannot race past them."""

    per_chat: int = 3
    """Open challenges of one author in one group (or supergroup)."""
    overall: int = 10
    """Open challenges of one author anywhere (groups, private links, inline cards, computer)."""


@dataclass(frozen=True)
class TimerPolicy:
    """How long players have. All configurable; the defaults are the project's."""

    reminders: tuple[timedelta, ...] = (timedelta(hours=12), timedelta(hours=24))
    """Reminders after the turn started (each fires once per turn)."""
    turn_timeout: timedelta = timedelta(days=7)
    """The player to act loses the match when this passes without an accepted action."""
    challenge_ttl: timedelta = timedelta(hours=24)
    """An open challenge expires after this."""
    last_warning: float = 0.9
    """The last reminder, a warning before the loss, at this share of the time per move (0.9:
    after 54 minutes of an hour, 6 days 7.2 hours of 7 days); 0: none."""

    @property
    def warning(self) -> timedelta | None:
        """When the last warning comes (after the turn started), unless a reminder comes as
        late."""
        at = timedelta(seconds=round(self.turn_timeout.total_seconds() * self.last_warning))
        if not self.last_warning or any(r >= at for r in self.reminders):
            return None
        return at

    def schedule(self) -> tuple[timedelta, ...]:
        """Every reminder of a turn, in order: the reminders, then the last warning."""
        warning = self.warning
        return self.reminders if warning is None else (*self.reminders, warning)

    def for_match(self, move_seconds: int | None) -> TimerPolicy:
        """The policy of a match whose time per move was chosen at ``/new`` (``None``, or the
        default: this one). Another time has one reminder at half of it, after the default's
        reminders that come earlier (1 day: at 12 h; 3 days: 12 h, 24 h, 36 h)."""
        if move_seconds is None or move_seconds == self.turn_timeout.total_seconds():
            return self
        timeout = timedelta(seconds=move_seconds)
        half = timeout / 2
        earlier = tuple(r for r in self.reminders if r < half)
        return replace(self, reminders=(*earlier, half), turn_timeout=timeout)


@dataclass(frozen=True)
class PlayerView:
    id: int
    """The Telegram user id."""
    display_name: str
    username: str | None
    language: str | None
    can_message: bool
    """Whether the bot may message this user privately (they started it and did not block it)."""
    notices: bool = True
    """Whether their boards and reminders notify (``/notices``); off: they come silently."""
    theme: str = "classic"
    """The board theme of their private boards (``/settings``)."""
    home: str = "right"
    """Where their home board is drawn on their private boards: ``right`` or ``left``."""


@dataclass(frozen=True)
class Seat:
    """One side of a match: seat 0 is the challenge's author, seat 1 the acceptor or computer."""

    index: int
    player: PlayerView | None
    """``None`` for the computer (and for seat 1 while the challenge is open)."""
    computer_level: int | None = None

    @property
    def is_computer(self) -> bool:
        return self.computer_level is not None


@dataclass(frozen=True)
class Place:
    """Where the match is played: a chat (a group, or the author's private chat) or an
    inline message."""

    chat_id: int | None
    """The group or private chat of the challenge (``None`` for an inline challenge)."""
    thread_id: int | None = None
    """The forum topic, if any."""
    inline_message_id: str | None = None
    """For matches created from an inline query: the inline message carrying the card."""
    in_group: bool = False
    """``chat_id`` is a group's (the match's shared board is there), as the bot said when it
    opened the challenge."""

    @property
    def is_inline(self) -> bool:
        return self.inline_message_id is not None or self.chat_id is None


@dataclass(frozen=True)
class BoardMessageView:
    id: int
    match_id: int
    chat_id: int | None
    message_id: int | None
    inline_message_id: str | None
    for_seat: int | None
    """``None``: the shared board (group or inline); 0 / 1: a player's private board."""
    version: int
    """The match version the message shows."""
    created_at: datetime


@dataclass(frozen=True)
class RatingChange:
    """What a rated match did to one player's rating in one scope (0: global; a group's id)."""

    player_id: int
    scope: int
    before: float
    after: float


@dataclass(frozen=True)
class MatchView:
    """Everything needed to draw a match and build its keyboard."""

    id: int
    version: int
    """Put this in every button; pass it back to the use cases."""
    status: MatchStatus
    state: Match
    """The rules core's match: position, dice, chosen moves, score, last play, results..."""
    seats: tuple[Seat, Seat]
    place: Place
    commitment: str
    """SHA-256 of the dice seed, hex; shown on the challenge card before anyone accepts."""
    seed_hex: str | None
    """The dice seed, revealed only once the match has ended (``None`` until then)."""
    mix: str | None
    """The value mixed into the dice at acceptance (public; ``None`` before acceptance)."""
    turn_deadline: datetime | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    board_messages: tuple[BoardMessageView, ...] = ()
    """The boards currently live for this match (not superseded)."""
    chat_language: str | None = None
    """The language set with ``/lang`` in the match's chat (a group), read with the match;
    ``None`` when none was set (use the match creator's language)."""
    rating_changes: tuple[RatingChange, ...] = ()
    """Once a rated match is over: what it did to each player's ratings."""
    move_seconds: int | None = None
    """The time per move chosen at ``/new``; ``None``: the operator's default."""
    accuracy: tuple[Figure, Figure] | None = None
    """Once a match between people is over and judged: each seat's accuracy figure."""

    @property
    def length(self) -> int:
        return self.state.length

    @property
    def no_triple(self) -> bool:
        return self.state.no_triple

    @property
    def computer_level(self) -> int | None:
        return self.seats[1].computer_level

    def seat_of(self, user_id: int) -> int | None:
        """The seat (0 or 1) of a Telegram user in this match, or ``None``."""
        for seat in self.seats:
            if seat.player is not None and seat.player.id == user_id:
                return seat.index
        return None

    @property
    def to_act(self) -> int | None:
        """The seat that must act now: the player to move, or the player who must answer a
        resignation offer; ``None`` when the match is not active."""
        if self.status != MatchStatus.ACTIVE:
            return None
        if self.state.phase == Phase.RESIGN_OFFERED:
            return 1 - self.state.turn
        if self.state.phase == Phase.PLAYING:
            return self.state.turn
        return None

    @property
    def computer_to_act(self) -> bool:
        """True when the computer must act (the bot should ask the engine and call the use case
        with ``actor=COMPUTER``)."""
        seat = self.to_act
        return seat is not None and self.seats[seat].is_computer


@dataclass(frozen=True)
class ChallengeView:
    id: int
    match_id: int
    token: str
    """A short random token (``A-Za-z0-9_-``, 12 characters) for deep links and inline ids."""
    status: ChallengeStatus
    author: PlayerView
    target: PlayerView | None
    """For a challenge addressed to a known player."""
    target_username: str | None
    """For a challenge addressed by @username to someone the bot has not met yet."""
    length: int
    no_triple: bool
    computer_level: int | None
    """Not ``None``: a match against the computer (only the author may start it)."""
    place: Place
    commitment: str
    """SHA-256 of the dice seed, hex: print it on the card."""
    expires_at: datetime
    created_at: datetime
    card_chat_id: int | None = None
    card_message_id: int | None = None
    card_inline_message_id: str | None = None
    move_seconds: int | None = None
    """The time per move chosen at ``/new``; ``None``: the operator's default."""
    game_type: str = DEFAULT_KIND
    """What the match plays: ``portes``, ``plakoto``, ``fevga``, ``nardy`` or ``tavli``."""
    winner_starts: bool = False
    """The café start: each game's winner rolls first in the next (no opening roll)."""


@dataclass(frozen=True)
class ActionResult:
    """The result of an action on a match (and of accepting a challenge)."""

    outcome: Outcome
    match: MatchView | None = None
    """The match after the action when OK; the current match when STALE or REFUSED (to redraw);
    ``None`` when NOT_FOUND or CORRUPT."""
    events: tuple[Event, ...] = ()
    """What happened, in order: TurnPlayed (including forced plays and passes played for the
    players), Rolled, GameEnded, GameStarted, MatchEnded, Resignation*, Cancelled."""
    code: str | None = None
    """Stable reason code when not OK (``rules.common.errors`` codes, or ``stale``,
    ``not_a_player``,
    ``not_found``, ``corrupt_state``, ``own_challenge``, ``not_for_you``, ``challenge_closed``,
    ``not_author``, ``invalid_action``...)."""
    message: str | None = None
    """An English message fit to show a player (translate by ``code``)."""
    challenge: ChallengeView | None = None
    """Set by the challenge use cases."""
    chat_keys: tuple[str, ...] | None = None
    """The chats whose places this action wrote in the outbox (what the delivery worker is
    kicked for), as the write computed them; ``None`` when the use case wrote none or does not
    say (then the caller finds them itself)."""
    keyboard: KeyboardAsked | None = None
    """A tap that changed only a board's keyboard (a checker with several destinations
    chosen, or back to the list): where the choice goes (the match is unchanged)."""

    @property
    def ok(self) -> bool:
        return self.outcome == Outcome.OK


@dataclass(frozen=True)
class ChallengeResult:
    outcome: Outcome
    challenge: ChallengeView | None = None
    code: str | None = None
    message: str | None = None
    chat_keys: tuple[str, ...] = ()
    """The chats with delivery work the call wrote (to kick)."""

    @property
    def ok(self) -> bool:
        return self.outcome == Outcome.OK


@dataclass(frozen=True)
class MatchSummary:
    """A line in a player's list of matches."""

    id: int
    version: int
    status: MatchStatus
    length: int
    no_triple: bool
    score: tuple[int, int]
    my_seat: int
    opponent: PlayerView | None
    """``None`` for the computer."""
    computer_level: int | None
    my_turn: bool
    """True when this player must act (move, or answer a resignation)."""
    place: Place
    turn_deadline: datetime | None
    updated_at: datetime
    readable: bool = True
    """False when the active match's stored state cannot be read: it cannot be played, only
    closed (``UseCases.close_unreadable``)."""
    game_type: str = DEFAULT_KIND


@dataclass(frozen=True)
class LoggedTurn:
    """One turn of the move log (a pass has no moves)."""

    game: int
    turn: int
    player: int
    dice: Dice
    moves: tuple[Move, ...]
    text: str
    gnubg_id: str
    """``PositionID:MatchID`` after the play, from the side then on roll."""
    forced: bool
    at: datetime

    @property
    def passed(self) -> bool:
        return not self.moves


@dataclass(frozen=True)
class GameRecord:
    number: int
    opening: tuple[int, int] | None
    winner: int | None
    kind: str | None
    points: int | None
    resigned: bool
    started_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True)
class MatchRecord:
    """The full record of a match: for match files (.mat), replay and audits."""

    match: MatchView
    games: tuple[GameRecord, ...]
    turns: tuple[LoggedTurn, ...]


@dataclass(frozen=True)
class Fairness:
    """The provably-fair dice of a match: commitment always; seed and dice once it has ended."""

    match_id: int
    commitment: str
    mix: str | None
    dice_drawn: int
    seed_hex: str | None
    """``None`` while the match is not over."""
    dice: tuple[int, ...] | None
    """Every die drawn, in order (``None`` while the match is not over)."""

    @property
    def verify_command(self) -> str | None:
        """A shell command anyone can run to recompute the dice."""
        if self.seed_hex is None or self.mix is None:
            return None
        return (
            f"python -m rules.common.fairdice --seed {self.seed_hex} --mix '{self.mix}' "
            f"--count {self.dice_drawn} --commitment {self.commitment}"
        )


@dataclass(frozen=True)
class TimerFired:
    """A timer a worker claimed and fired (exactly once across all instances)."""

    timer_id: int
    kind: TimerKind
    seat: int | None
    """The seat the reminder or timeout is about."""
    after: timedelta | None
    """For reminders: how long the player has been waited for."""
    match: MatchView | None
    challenge: ChallengeView | None = None
    events: tuple[Event, ...] = ()
    """For a timeout: the MatchEnded event."""
    outcome: Outcome = Outcome.OK
    """Not OK when the timer fired but had nothing left to do (e.g. a corrupt match)."""
    message: str | None = None
    left: timedelta | None = None
    """For reminders: how long until the turn's timeout, when it fired."""
    last: bool = False
    """For reminders: the last warning before the timeout (``TimerPolicy.warning``)."""
    chat_keys: tuple[str, ...] = ()
    """For an expiry: the chat whose card the outbox row it wrote edits (none while the card
    is not known)."""
