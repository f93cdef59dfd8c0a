"""The use cases the bot calls: one short transaction each, no Telegram in them.

Build one :class:`UseCases` at start-up and share it::

    from storage.db import Database
    from storage.migrate import upgrade_async
    from storage.usecases import UseCases, COMPUTER

    await upgrade_async(url)           # alembic upgrade head (url: DATABASE_URL or SQLite)
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
claims and fires each one exactly once, across any number of bot instances. Time when no
instance ran does not count: :meth:`UseCases.resume` at start pushes them past the downtime.

Threads: every public method is a coroutine, but its body (load, decide, write, commit) runs as
one synchronous SQLAlchemy transaction in the database's worker threads
(:meth:`storage.db.Database.run`): one hop between the event loop and a thread per use case,
and the event loop is never blocked. A use case whose caller is cancelled still completes (or
rolls back) as a whole in its thread.

Rooms: :mod:`~storage.usecases.kernel` (load, plan, compare-and-swap apply, the action pattern)
with :mod:`~storage.usecases.rows` (what it reads, prebuilt statements) and
:mod:`~storage.usecases.eventlog` (the move log, games and timers an action appends); one module
per feature: :mod:`~storage.usecases.players`, :mod:`~storage.usecases.challenges`,
:mod:`~storage.usecases.turns`, :mod:`~storage.usecases.resigning`,
:mod:`~storage.usecases.reading`, :mod:`~storage.usecases.boards`,
:mod:`~storage.usecases.chats`, :mod:`~storage.usecases.timers`,
:mod:`~storage.usecases.heartbeat`, :mod:`~storage.usecases.closing`,
:mod:`~storage.usecases.rematches` (who may open a rematch),
:mod:`~storage.usecases.social` (leaderboards, statistics, privacy),
:mod:`~storage.usecases.computer_claims` (which instance plays the computer's turn) and
:mod:`~storage.usecases.updates` (each command handled once, by its update id),
:mod:`~storage.usecases.competitions` and :mod:`~storage.usecases.competition_progress`
(a group's leagues and cups).
:class:`UseCases` composes them over one kernel. Delivery (what each chat should show: the
outbox the kernel writes with every action, the delivery worker's claims fenced by a token,
the groups' shared Telegram budgets) has its own front over the same kernel,
:class:`storage.delivery.cases.DeliveryCases`, as ``uc.delivery``.
"""


from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from storage.db import Database
from storage.delivery.cases import DeliveryCases
from storage.delivery.claims import DeliveryWork
from storage.ladder import LadderCases
from storage.matchmaking.cases import MatchmakingCases
from storage.matchmaking.policy import PlayPolicy
from storage.results import (
    COMPUTER,
    ActionResult,
    Actor,
    BoardMessageView,
    ChallengeLimits,
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
from storage.usecases.accuracy import AccuracyCases
from storage.usecases.boards import BoardCases
from storage.usecases.challenges import ChallengeCases
from storage.usecases.chats import ChatCases
from storage.usecases.closing import ClosingCases
from storage.usecases.competition_progress import ProgressCases
from storage.usecases.competitions import CompetitionCases
from storage.usecases.computer_claims import ComputerClaimCases
from storage.usecases.heartbeat import HeartbeatCases
from storage.usecases.kernel import Checkpoint, Clock, Kernel, Seeds
from storage.usecases.players import PlayerCases
from storage.usecases.reading import ReadingCases
from storage.usecases.resigning import ResigningCases
from storage.usecases.social import SocialCases
from storage.usecases.timers import TimerCases
from storage.usecases.turns import TurnCases
from storage.usecases.updates import UpdateClaimCases
from storage.vacation import VacationCases

__all__ = [
    "COMPUTER",
    "ActionResult",
    "Actor",
    "BoardMessageView",
    "ChallengeLimits",
    "ChallengeResult",
    "ChallengeView",
    "DeliveryCases",
    "DeliveryWork",
    "Fairness",
    "MatchRecord",
    "MatchStatus",
    "MatchSummary",
    "MatchView",
    "Outcome",
    "PlayPolicy",
    "PlayerView",
    "TimerFired",
    "TimerKind",
    "TimerPolicy",
    "UseCases",
]


class UseCases(
    PlayerCases,
    LadderCases,
    MatchmakingCases,
    AccuracyCases,
    ChallengeCases,
    TurnCases,
    ResigningCases,
    ReadingCases,
    BoardCases,
    ChatCases,
    TimerCases,
    HeartbeatCases,
    ClosingCases,
    SocialCases,
    ComputerClaimCases,
    UpdateClaimCases,
    CompetitionCases,
    ProgressCases,
    VacationCases,
):
    """The application's use cases over one :class:`~storage.db.Database`.

    ``clock`` returns aware UTC datetimes (tests pass a fake one); ``timers`` sets reminder,
    timeout and expiry durations; ``limits`` caps each player's open challenges; ``checkpoint``
    is a test seam (a coroutine function, run on
    the event loop while the worker thread waits for it) awaited with ``"read"`` after a use case
    has read and decided, before it writes, ``"written"`` after its writes but before its commit,
    and ``"committed"`` after its commit. ``seeds`` draws each new match's secret dice seed
    (default :func:`rules.common.fairdice.new_seed`); tests pass a fixed source to replay a match
    exactly. It is deliberately not a setting: a seed known in advance would empty the dice
    commitment of its meaning. ``wall`` is the wall clock of delivery and of the leases and
    budgets several instances share (see :class:`~storage.usecases.kernel.Kernel`).
    :attr:`delivery` is delivery's front over the same kernel. ``play``: how "find me an
    opponent" pairs, and the vacation allowance (:class:`~storage.matchmaking.policy.PlayPolicy`).
    """

    def __init__(
        self,
        db: Database,
        *,
        timers: TimerPolicy | None = None,
        limits: ChallengeLimits | None = None,
        clock: Clock | None = None,
        checkpoint: Checkpoint | None = None,
        seeds: Seeds | None = None,
        wall: Callable[[], float] | None = None,
        play: PlayPolicy | None = None,
    ) -> None:
        self.db = db
        self.play_policy = play or PlayPolicy()
        self.kernel = Kernel(db, timers=timers, limits=limits, clock=clock,
                             checkpoint=checkpoint, seeds=seeds, wall=wall)
        self.delivery = DeliveryCases(self.kernel)

    def now(self) -> datetime:
        """The use cases' time (the deadlines' clock; a test's fake one), for telling how
        long a player has left."""
        return self.kernel.clock()

    def wall_now(self) -> datetime:
        """The wall clock of delivery and of what instances share (``wall``), as a datetime."""
        return self.kernel.wall_now()
