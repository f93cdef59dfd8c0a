"""The use cases the bot calls: one short transaction each, no Telegram in them.

Build one :class:`UseCases` at start-up and share it::

    from storage.db import Database
    from storage.migrate import upgrade_async
    from storage.usecases import UseCases, COMPUTER

    await upgrade_async(url)                 # alembic upgrade head (url: DATABASE_URL or SQLite)
    db = Database.from_url(url)
    uc = UseCases(db)

Identities: players are Telegram user ids (``int``). The computer is :data:`COMPUTER`. A match
has seat 0 (the challenge's author) and seat 1 (the acceptor, or the computer).

Versions: every match has a ``version`` that changes on every accepted action (a single move,
an undo, a confirm, a resignation offer...). Every action takes the version the caller saw (put
it in the buttons). If it is not the match's current version, or another request wins the race,
the result is :attr:`Outcome.STALE` and nothing is written. Writes are compare-and-swap on the
version, so a match is never half-updated and no step is applied twice.

Forced plays and passes: after every action that hands over the turn (confirm, play, accepting a
challenge or a resignation), while the player to move has exactly one legal play, it is played
for them (``TurnPlayed.forced``); rolls with no legal move are passed by the rules core. The
loop stops when a real decision is needed or the match ends. The events say what happened.

Results are plain dataclasses from :mod:`storage.results`; refusals carry a stable ``code`` and
an English ``message``.

Timers (reminders, turn timeout, challenge expiry) are rows; :meth:`UseCases.fire_due_timers`
claims and fires each one exactly once, across any number of bot instances.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

from rules.position import Move, Play
from storage.db import Database
from storage.results import (
    COMPUTER,
    ActionResult,
    Actor,
    BoardMessageView,
    ChallengeResult,
    ChallengeView,
    Fairness,
    MatchRecord,
    MatchStatus,
    MatchSummary,
    MatchView,
    Outcome,
    PlayerView,
    TimerFired,
    TimerKind,
    TimerPolicy,
)

__all__ = [
    "COMPUTER",
    "ActionResult",
    "Actor",
    "BoardMessageView",
    "ChallengeResult",
    "ChallengeView",
    "Fairness",
    "MatchRecord",
    "MatchStatus",
    "MatchSummary",
    "MatchView",
    "Outcome",
    "PlayerView",
    "TimerFired",
    "TimerKind",
    "TimerPolicy",
    "UseCases",
]

Clock = Callable[[], datetime]
Checkpoint = Callable[[str], Awaitable[None]]


class UseCases:
    """The application's use cases over one :class:`~storage.db.Database`.

    ``clock`` returns aware UTC datetimes (tests pass a fake one); ``timers`` sets reminder,
    timeout and expiry durations; ``checkpoint`` is a test seam awaited with ``"read"`` after a
    use case has read and decided, before it writes, and ``"committed"`` after its commit.
    """

    def __init__(
        self,
        db: Database,
        *,
        timers: TimerPolicy | None = None,
        clock: Clock | None = None,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        raise NotImplementedError

    # -- players ------------------------------------------------------------------------

    async def upsert_player(
        self,
        user_id: int,
        display_name: str,
        *,
        username: str | None = None,
        language: str | None = None,
        can_message: bool | None = None,
    ) -> PlayerView:
        """Create or update a player from Telegram user data (call it on every update).

        ``can_message``: ``True`` when the user started the bot in private, ``False`` after a
        403; ``None`` leaves it as it was (new players start with ``False``).
        """
        raise NotImplementedError

    async def set_can_message(self, user_id: int, can_message: bool) -> None:
        """Record whether the bot may message this user privately (after /start or a 403)."""
        raise NotImplementedError

    async def get_player(self, user_id: int) -> PlayerView | None:
        raise NotImplementedError

    # -- challenges ---------------------------------------------------------------------

    async def create_challenge(
        self,
        author_id: int,
        *,
        length: int,
        no_triple: bool = False,
        chat_id: int | None = None,
        thread_id: int | None = None,
        target_id: int | None = None,
        target_username: str | None = None,
        inline: bool = False,
        computer_level: int | None = None,
    ) -> ChallengeResult:
        """Open a challenge (and its match, status ``challenge``) and commit to a dice seed.

        The seed is drawn from :mod:`secrets`; print ``challenge.commitment`` on the card.
        ``target_id`` / ``target_username`` restrict who may accept. ``inline``: the card is an
        inline message (record it with :meth:`set_challenge_card`). ``computer_level`` makes a
        match against the computer, which only the author may start with
        :meth:`accept_challenge` (so the mixed-in value still arrives after the commitment).
        An expiry timer is set (``TimerPolicy.challenge_ttl``). Refusals: ``invalid_action``
        (length not 1, 3, 5 or 7).
        """
        raise NotImplementedError

    async def set_challenge_card(
        self,
        challenge_id: int,
        *,
        chat_id: int | None = None,
        message_id: int | None = None,
        inline_message_id: str | None = None,
    ) -> ChallengeResult:
        """Remember the message showing the challenge card, to edit it when it is accepted,
        cancelled or expires."""
        raise NotImplementedError

    async def get_challenge(
        self, challenge_id: int | None = None, *, token: str | None = None
    ) -> ChallengeView | None:
        """A challenge by id or by its deep-link token."""
        raise NotImplementedError

    async def accept_challenge(
        self,
        challenge_id: int,
        acceptor_id: int,
        *,
        mix: str,
        chat_id: int | None = None,
        inline_message_id: str | None = None,
    ) -> ActionResult:
        """Accept an open challenge: the match becomes active and the opening roll is played.

        ``mix`` is a value the server cannot choose that arrives after the commitment (the
        accepting tap's callback query id); it is mixed into every die. ``chat_id`` /
        ``inline_message_id`` complete the match's place when the challenge had none (inline).
        Exactly one of several racing acceptors wins; the others get ``challenge_closed``.
        Refusals: ``own_challenge`` (the author accepting a human challenge), ``not_for_you``
        (targeted at someone else; a computer challenge by anyone but the author),
        ``challenge_closed`` (accepted, cancelled or expired). On success ``result.match`` is
        the active match, ``result.events`` the opening roll (and any forced plays).
        """
        raise NotImplementedError

    async def cancel_challenge(self, challenge_id: int, author_id: int) -> ChallengeResult:
        """The author withdraws an open challenge (its match becomes ``cancelled``).
        Refusals: ``not_author``, ``challenge_closed``."""
        raise NotImplementedError

    # -- playing a turn -----------------------------------------------------------------

    async def step(self, match_id: int, actor: Actor, version: int, move: Move) -> ActionResult:
        """Add one single move to the turn being entered (one tap). Choose ``move`` from
        ``match.state.next_moves()``. Nothing is sent to the opponent until :meth:`confirm`."""
        raise NotImplementedError

    async def undo(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """Take back the last single move chosen this turn."""
        raise NotImplementedError

    async def reset_turn(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """Take back every single move chosen this turn."""
        raise NotImplementedError

    async def confirm(self, match_id: int, actor: Actor, version: int) -> ActionResult:
        """End the turn with the moves chosen (they must make a whole legal play). The
        opponent's dice are rolled; forced plays and passes follow automatically."""
        raise NotImplementedError

    async def play(
        self, match_id: int, actor: Actor, version: int, play: Play | str
    ) -> ActionResult:
        """Play a whole turn at once: a :class:`~rules.position.Play` from
        ``match.state.legal_plays()`` (the computer) or move text such as ``"24/18 13/11"``
        (a player typing). Any moves chosen tap by tap are replaced."""
        raise NotImplementedError

    # -- resigning and cancelling --------------------------------------------------------

    async def offer_resignation(
        self, match_id: int, actor: Actor, version: int, points: int
    ) -> ActionResult:
        """On their turn, a player offers to resign the game for 1, 2 or 3 points."""
        raise NotImplementedError

    async def answer_resignation(
        self, match_id: int, actor: Actor, version: int, *, accept: bool
    ) -> ActionResult:
        """The opponent accepts (the game ends; the next game starts or the match ends) or
        declines (play goes on) a resignation offer."""
        raise NotImplementedError

    async def resign_match(
        self, match_id: int, actor: Actor, version: int | None = None
    ) -> ActionResult:
        """A player gives up the whole match at any time; the opponent wins it.
        ``version=None`` skips the version check (a typed command rather than a button)."""
        raise NotImplementedError

    async def cancel_match(
        self, match_id: int, actor: Actor, version: int | None = None
    ) -> ActionResult:
        """Either player cancels a match nobody has moved in yet (no result)."""
        raise NotImplementedError

    # -- reading ------------------------------------------------------------------------

    async def load_match(self, match_id: int) -> ActionResult:
        """Everything needed to draw the match: OK with ``result.match``, NOT_FOUND, or CORRUPT
        (a stored state that cannot be read: a clear error for that match only)."""
        raise NotImplementedError

    async def list_active_matches(self, user_id: int) -> list[MatchSummary]:
        """The player's active matches (and open challenges' matches are not included),
        those waiting for this player first, then the most recently updated."""
        raise NotImplementedError

    async def pending_computer_turns(self) -> list[MatchSummary]:
        """Active matches where the computer must act (for a worker to resume after restart).
        ``my_seat`` is the computer's seat."""
        raise NotImplementedError

    async def match_record(self, match_id: int) -> MatchRecord | None:
        """The match with its games and its full move log (for .mat export and replay)."""
        raise NotImplementedError

    async def fairness(self, match_id: int) -> Fairness | None:
        """The dice commitment, and once the match has ended (finished, abandoned, expired or
        cancelled) the seed and every die drawn, with a command to verify them."""
        raise NotImplementedError

    # -- board messages -----------------------------------------------------------------

    async def record_board_message(
        self,
        match_id: int,
        *,
        version: int,
        chat_id: int | None = None,
        message_id: int | None = None,
        inline_message_id: str | None = None,
        for_seat: int | None = None,
    ) -> list[BoardMessageView]:
        """Remember a board message just sent (``for_seat`` None: the shared board in a group or
        inline; 0/1: that player's private board). Earlier live boards for the same audience
        are superseded and returned, so the bot can delete them (or edit them to a stub)."""
        raise NotImplementedError

    async def board_messages(self, match_id: int) -> list[BoardMessageView]:
        """The live (not superseded) boards of a match."""
        raise NotImplementedError

    async def forget_board_message(self, board_message_id: int) -> None:
        """Drop a board the bot deleted or can no longer edit."""
        raise NotImplementedError

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """Follow a group's migration to a supergroup; returns how many rows changed."""
        raise NotImplementedError

    # -- timers -------------------------------------------------------------------------

    async def fire_due_timers(self, *, worker: str = "", limit: int = 50) -> list[TimerFired]:
        """Claim and fire the timers that are due, each exactly once across all workers, each
        in its own transaction: reminders (notify ``seat``), timeouts (the player to act loses
        the match: status ``abandoned``), challenge expiries (status ``expired``). Call it
        every minute or so from each instance (e.g. the job queue)."""
        raise NotImplementedError

    async def next_timer_due(self) -> datetime | None:
        """When the next unfired timer is due (for scheduling the next wake-up)."""
        raise NotImplementedError
