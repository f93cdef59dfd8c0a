"""The bot's shared state and small helpers: the use cases, languages, the computer player's
protocol, safe Telegram calls.

One :class:`Portes` lives in ``application.bot_data["portes"]``; handlers reach it with
:func:`portes`.
"""

from __future__ import annotations

import asyncio
import html
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.delivery.telegram import quietly
from bot.faults import Faults, NoFaults
from bot.intake.locks import MatchLocks
from bot.intake.pace import Pace
from bot.settings import Settings
from bot.views.i18n import Tr, lang_of, tr
from storage.delivery.outbox import places
from storage.delivery.outbox import plays_privately as outbox_plays_privately
from storage.results import MatchView, PlayerView
from storage.usecases import UseCases

if TYPE_CHECKING:  # the engine's value types only: core does not load the engine
    from bot.ops.metrics import Metrics
    from computer import Hint, MatchReview
    from computer.hint import PlainHint

log = logging.getLogger("bot")
T = TypeVar("T")

QUIET_AFTER_TAP = 60.0
"""A board posted in private for a player who tapped a board less than this many seconds ago
comes silently (``disable_notification``): they are at their phone, playing. A group's board
always notifies."""
TAPS_KEPT = 100_000
"""At most this many players' last taps are remembered (the oldest forgotten first)."""
BUSY_NOTES_PER_MINUTE = 5
"""At most this many "not handled, the group is busy" notes to one player in any minute; a
player flooding from one account gets no more."""


class ComputerService(Protocol):
    """The computer player as the publisher and the handlers see it. Defined here, beside
    :class:`Portes`, so they depend on this shape and never import the engine's service
    (:class:`bot.computer_player.ComputerSide` implements it)."""

    async def turn(self, mv: MatchView) -> None:
        """Act for the computer in ``mv`` when it is to act (committing through the use case
        with ``actor=COMPUTER``), then show the match. Called in the background."""
        ...

    engine: bool
    """Whether GNU Backgammon's engine runs here (reviews and hints need it)."""

    async def hint(self, mv: MatchView, seat: int) -> Hint | PlainHint:
        """The best play for ``seat`` with the dice rolled, and its chances (GNU Backgammon's
        games) or its equity (the others)."""
        ...

    async def review(self, match_id: int) -> tuple[MatchView, MatchReview] | None:
        """The review of a finished match, or ``None`` when there is nothing to review."""
        ...


class Deliverer(Protocol):
    """The delivery worker as handlers see it (:class:`bot.delivery.worker.Delivery`)."""

    worker: str
    """Its name in the places' claims."""

    def kick(self, *chat_keys: str) -> None:
        """Work on these chats' due places now (in the background; returns at once)."""
        ...


@dataclass
class Portes:
    settings: Settings
    uc: UseCases
    username: str = "portes_bot"
    user_lang: dict[int, str] = field(default_factory=dict)
    seen: dict[int, tuple[str, str | None]] = field(default_factory=dict)
    locks: MatchLocks = field(default_factory=MatchLocks)
    """One lock per match in use: a tap, the computer's move and a timer on the same match
    take turns."""
    background: set[asyncio.Task[Any]] = field(default_factory=set)
    computer: ComputerService | None = None
    """The computer player serving this bot (:class:`bot.computer_player.ComputerSide`,
    installed at start-up; ``None`` until then)."""
    delivery: Deliverer | None = None
    """The delivery worker making each chat show what the database says (installed at
    start-up; ``None`` until then: the periodic poll picks the work up)."""
    metrics: Metrics | None = None
    """The bot's Prometheus metrics (:class:`bot.ops.metrics.Metrics`, installed at start-up)."""
    views: OrderedDict[int, MatchView] = field(default_factory=OrderedDict)
    """The last match views this instance saw, to decide a tap without reading the database
    first. Only a shortcut: every action still goes through the use case's version check, so a
    view another instance has since changed only leads to a "stale" answer."""

    focus: dict[int, int | None] = field(default_factory=dict)
    """Per player, the match whose board they last interacted with (a tap on its buttons, a
    play typed for it, a choice of it): where a typed play or ``/resign`` goes when several
    matches could be meant. ``None`` once a board of another match came to them for their
    move after that interaction (then nothing is assumed, the bot asks). In memory, per
    instance: unknown after a restart, which only means the bot asks."""
    new_pace: Pace = field(default_factory=lambda: Pace(0))
    """How often each player sent ``/new`` lately (``PORTES_NEW_PER_MINUTE``)."""
    group_new_pace: Pace = field(default_factory=lambda: Pace(0))
    """How often each group got ``/new`` answered lately (``PORTES_NEW_PER_GROUP_MINUTE``)."""
    busy_pace: Pace = field(default_factory=lambda: Pace(0))
    """How many "the group is busy" notes each player got lately (:mod:`bot.intake.crowd`)."""
    reachable: OrderedDict[int, bool] = field(default_factory=OrderedDict)
    """Per player, whether they started the bot, as this instance last read or wrote it
    (:meth:`see_user`; :mod:`bot.intake.crowd` reads it before a note), so that a crowd's notes do
    not each cost a read. Only a shortcut: a note to a player who blocked the bot since
    fails with 403, which corrects it."""
    tapped_at: dict[int, float] = field(default_factory=dict)
    """Per player, when (:attr:`tap_clock`) they last interacted with a board, oldest first. In
    memory, per instance: after a restart, or on another instance, the next board notifies."""
    tap_clock: Callable[[], float] = time.monotonic
    """The clock of :attr:`tapped_at` (seconds; a test may set another)."""
    faults: Faults = field(default_factory=NoFaults)
    """Where a test harness may end the process at a named step (:mod:`bot.faults`)."""

    def __post_init__(self) -> None:
        self.new_pace = Pace(self.settings.limits.new_per_minute)
        self.group_new_pace = Pace(self.settings.limits.new_per_group_minute)
        self.busy_pace = Pace(BUSY_NOTES_PER_MINUTE)

    def touch(self, user_id: int, match_id: int) -> None:
        """The player interacted with this match's board."""
        self.focus[user_id] = match_id
        if len(self.focus) > TAPS_KEPT:
            self.focus.pop(next(iter(self.focus)))
        self.tapped_at.pop(user_id, None)
        self.tapped_at[user_id] = self.tap_clock()
        if len(self.tapped_at) > TAPS_KEPT:
            self.tapped_at.pop(next(iter(self.tapped_at)))

    def quiet_for(self, player: PlayerView) -> bool:
        """Whether a board posted in ``player``'s private chat comes silently: they turned
        their notices off (``/notices``), or they tapped a board in the last
        :data:`QUIET_AFTER_TAP` seconds."""
        if not player.notices:
            return True
        at = self.tapped_at.get(player.id)
        return at is not None and self.tap_clock() - at < QUIET_AFTER_TAP

    def forget_views_of(self, user_id: int) -> None:
        """Drop the remembered views of this player's matches (their settings changed: the
        next board reads them from the database)."""
        for match_id, mv in list(self.views.items()):
            if any(s.player is not None and s.player.id == user_id for s in mv.seats):
                self.views.pop(match_id, None)

    def board_posted(self, user_id: int, match_id: int) -> None:
        """A new board asking for this player's move was posted to them: if it is not the
        match they last interacted with, which one they mean next is no longer clear."""
        if user_id in self.focus and self.focus[user_id] != match_id:
            self.focus[user_id] = None

    def focused(self, user_id: int) -> int | None:
        return self.focus.get(user_id)

    def remember(self, view: MatchView | None) -> None:
        if view is None:
            return
        known = self.views.get(view.id)
        if known is None or known.version <= view.version:
            self.views[view.id] = view
            self.views.move_to_end(view.id)
            while len(self.views) > 2048:
                self.views.popitem(last=False)

    async def view(self, match_id: int, version: int) -> tuple[MatchView | None, str | None]:
        """The match as of ``version`` if we have it in memory, else from the database."""
        known = self.views.get(match_id)
        if known is not None and known.version == version:
            return known, None
        loaded = await self.uc.load_match(match_id)
        self.remember(loaded.match)
        return loaded.match, loaded.code

    def deliver(self, mv: MatchView, chat_keys: Sequence[str] | None = None) -> None:
        """Kick the delivery worker for the chats an action just committed wrote to
        (``chat_keys``, as the use case returned them); without them, for every chat showing
        this match (found from the view)."""
        if self.delivery is None:
            return
        if chat_keys is not None:
            self.delivery.kick(*chat_keys)
            return
        found = places(status=mv.status.value, chat_id=mv.place.chat_id,
                       inline_message_id=mv.place.inline_message_id, in_group=mv.place.in_group,
                       players=(seat_id(mv, 0), seat_id(mv, 1)), to_act=mv.to_act,
                       turn_changed=True, private=started(mv))
        self.delivery.kick(*(w.chat_key for w in found))

    async def card_shown(self, challenge_id: int, *, chat_id: int | None = None,
                         message_id: int | None = None,
                         inline_message_id: str | None = None) -> None:
        """Remember the message showing a challenge's card; one that expired while its card
        was on its way is edited to say so now (the row the call wrote)."""
        res = await self.uc.set_challenge_card(challenge_id, chat_id=chat_id,
                                               message_id=message_id,
                                               inline_message_id=inline_message_id)
        if res.chat_keys and self.delivery is not None:
            self.delivery.kick(*res.chat_keys)

    def link(self, payload: str) -> str:
        return f"https://t.me/{self.username}?start={payload}"

    def spawn(self, coro: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self.background.add(task)
        task.add_done_callback(self._done)

    async def settle(self, timeout: float) -> None:
        """At shutdown: wait, at most ``timeout`` seconds, for the background work (a finished
        match's review, a computer's turn, old boards retired), including work it starts
        meanwhile, so that a stop right after a match's end does not drop its review. What
        still runs after that is cancelled, and said in the log."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        pending = {task for task in self.background if not task.done()}
        while pending and loop.time() < deadline:
            await asyncio.wait(pending, timeout=deadline - loop.time())
            pending = {task for task in self.background if not task.done()}
        if pending:
            log.warning("stopping: %d background task(s) still running after %.0f s are "
                        "cancelled", len(pending), timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    # -- players and languages ----------------------------------------------------------------

    async def see_user(self, user: User | None, *, started: bool = False) -> PlayerView | None:
        """Record a Telegram user (only when something changed, to save a transaction a tap)."""
        if user is None or user.is_bot:
            return None
        name = user.full_name or user.first_name
        key = (name, user.username)
        if not started and self.seen.get(user.id) == key:
            return None
        # the stored language (chosen with /lang) is kept; a new player gets their Telegram one
        view = await self.uc.upsert_player(
            user.id, name, username=user.username,
            default_language=lang_of(user.language_code),
            can_message=True if started else None,
        )
        if view.language:
            self.user_lang[user.id] = view.language
        self.seen[user.id] = key
        self.know_reachable(user.id, view.can_message)
        return view

    def know_reachable(self, user_id: int, can_message: bool) -> None:
        self.reachable[user_id] = can_message
        self.reachable.move_to_end(user_id)
        if len(self.reachable) > TAPS_KEPT:
            self.reachable.popitem(last=False)

    def lang_for_user(self, user: User | PlayerView | None) -> str:
        if user is None:
            return "en"
        known = self.user_lang.get(user.id)
        if known:
            return known
        if isinstance(user, PlayerView):
            return lang_of(user.language)
        return lang_of(user.language_code)

    def t_user(self, user: User | PlayerView | None) -> Tr:
        return tr(self.lang_for_user(user))

    async def lang_for_chat(self, chat_id: int, fallback: User | PlayerView | None) -> str:
        """The language of a group (kept in the database): the one set with /lang, else the
        first one used there, which sticks: the ``fallback`` user's (who sent the first
        command, or added the bot), so that a mixed group's cards are all in one language."""
        chosen = await self.uc.get_chat_language(chat_id)
        if chosen:
            return lang_of(chosen)
        if fallback is None:
            return self.lang_for_user(None)
        return lang_of(await self.uc.adopt_chat_language(chat_id, self.lang_for_user(fallback)))

    async def t_in(self, chat: Chat, user: User | PlayerView | None) -> Tr:
        """The language of a message posted in ``chat``: in a group, the group's (set with
        /lang, else the first one used there), so that everyone there reads the same;
        elsewhere the user's."""
        if chat.type in (ChatType.GROUP, ChatType.SUPERGROUP):
            return tr(await self.lang_for_chat(chat.id, user))
        return self.t_user(user)

    def t_match_chat(self, mv: MatchView) -> Tr:
        """The language of a group card: the group's (read with the match), else the match
        creator's."""
        creator = mv.seats[0].player
        if mv.place.chat_id is not None and mv.chat_language:
            return tr(lang_of(mv.chat_language))
        return self.t_user(creator)


def portes(context: ContextTypes.DEFAULT_TYPE) -> Portes:
    """The bot's shared state, from a handler's context."""
    value = context.application.bot_data["portes"]
    assert isinstance(value, Portes)
    return value


async def command_sender(
    update: Update, context: ContextTypes.DEFAULT_TYPE, *, starts_in_private: bool = False
) -> tuple[Portes, Message, User, Tr] | None:
    """What a command handler starts with: the bot's state, the message and its sender (the
    sender recorded with :meth:`Portes.see_user`, as having started the bot when
    ``starts_in_private`` and the chat is private), and the translator of the answer (the
    group's language in a group, see :meth:`Portes.t_in`). ``None`` when
    the update has no message or no sender (nothing to answer)."""
    p = portes(context)
    msg = update.effective_message
    user = update.effective_user
    if msg is None or user is None:
        return None
    await p.see_user(user, started=starts_in_private and msg.chat.type == ChatType.PRIVATE)
    return p, msg, user, await p.t_in(msg.chat, user)


async def tapped(
    update: Update, context: ContextTypes.DEFAULT_TYPE, *, see: bool = False
) -> tuple[Portes, CallbackQuery, Tr]:
    """What a button handler starts with: the bot's state, the callback query (routed here,
    so present) and the tapper's translator; with ``see``, the tapper is recorded first."""
    p = portes(context)
    q = update.callback_query
    assert q is not None
    if see:
        await p.see_user(q.from_user)
    return p, q, p.t_user(q.from_user)


def seat_id(mv: MatchView, seat: int) -> int | None:
    """The Telegram user id playing ``seat`` (``None`` for the computer or an empty seat)."""
    player = mv.seats[seat].player
    return player.id if player is not None else None


def answer_soon(p: Portes, q: CallbackQuery, text: str | None = None, *,
                show_alert: bool = False) -> None:
    """Answer a callback query in the background. The answer is a courtesy, not a step of
    the turn: it never stands between a commit and the board, and its failure (a 502, a slow
    answer, "query is too old") is logged and forgotten."""
    p.spawn(quietly(q.answer(text, show_alert=show_alert)))


def is_group_match(mv: MatchView) -> bool:
    """Played on a group's shared board (as stored when the challenge was opened)."""
    return mv.place.in_group and mv.place.chat_id is not None


def started(mv: MatchView) -> tuple[bool, bool]:
    """Which seats' players started the bot (and can be sent their board privately)."""
    def can(seat: int) -> bool:
        player = mv.seats[seat].player
        return player is not None and player.can_message
    return can(0), can(1)


def plays_privately(mv: MatchView, seat: int | None) -> bool:
    """Whether ``seat`` plays its turns of this group match on a private board (see
    :func:`storage.delivery.outbox.group_places`)."""
    return is_group_match(mv) and outbox_plays_privately(
        started(mv), (seat_id(mv, 0), seat_id(mv, 1)), seat, mv.status.is_over)


def mention(player: PlayerView) -> str:
    return f'<a href="tg://user?id={player.id}">{html.escape(player.display_name)}</a>'
