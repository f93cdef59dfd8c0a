"""The delivery worker: makes what each chat shows match what the database says.

Every accepted action writes, in its own transaction, what each place of its match should
show (:mod:`storage.delivery.outbox`). This worker drains those rows one chat at a time (one
task per chat: a 429 or a slow chat delays only itself), claiming each place in the database so
that no two instances work on it at once. It builds every call from the latest state of the
match when it gets to run, so taps made while a chat waits collapse into one edit. Kicked at
once after a commit in this process; a poll every second picks up what other instances or
failed attempts left; a reconcile pass at start and every few minutes queues any place whose
board differs from the database.

For one place: a new board when one is asked for (someone new must act) or none is live, then
the older live boards retired (deleted, or edited to a stub after 48 h); else an edit of the
live board (caption and keyboard, and the image when a turn ended or a move was made or taken
back inside it); the inline card. A board posted in a player's private chat is their "your turn"
notice (a new message notifies; it comes silently when they turned notices off or tapped a board
within the last minute). A send whose
outcome is unknown (its response lost, or the process killed) is remembered before it starts,
with its exact caption and keyboard: once a later send tells the chat's newest message id, the
ids in between are probed with an edit carrying exactly that caption and keyboard; Telegram
answers "message is not modified" only for that very message, the orphan, which is then retired.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Sequence
from typing import Any

from telegram import Bot, InputMediaPhoto
from telegram import InlineKeyboardMarkup as Markup
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter

from bot.delivery.game_logs import GameLogs
from bot.delivery.limiter import ChatLimiter, normal_priority
from bot.delivery.notices import Notices
from bot.delivery.publish import HTML, Publisher, take_down
from bot.delivery.reach import blocked_us, left_group, player_blocked
from bot.delivery.telegram import Stale, Unreachable, gone, not_modified, retry_seconds
from bot.state import Portes, is_group_match, plays_privately
from bot.views.board_image import Look, draw_board_async
from rules.match import Phase
from storage.delivery.notices import CLOSED, RETIRE
from storage.results import BoardMessageView, LoggedTurn, MatchView
from storage.usecases import DeliveryWork

log = logging.getLogger("bot.delivery.worker")
PROBE_SPAN = 20
"""At most this many message ids below the newest are probed for one orphan."""
PROBE_AHEAD = 3
"""Ids above the newest known are probed too: a slow send may land after its retry."""
PLAYED_FOR_TURNS = 20
"""The first turns of a game, in which a board reads the game's log: a player's turns may all
have been forced and played for them, and the caption says so."""


RUNNING: set[str] = set()
"""The workers of this process now (started, not stopped)."""


def backoff(attempts: int) -> float:
    return float(min(5.0, 0.5 * 2 ** attempts))


class Delivery:
    """One per bot instance; see the module's docstring."""

    def __init__(self, portes: Portes, bot: Bot, *, lease: float = 15.0) -> None:
        self.p = portes
        self.bot = bot
        self.pub = Publisher(portes, bot)
        self.notices = Notices(portes, bot, self._hold)
        self.lease = lease
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{id(self) % 10_000}"[:64]
        portes.uc.delivery.deliver_own_actions(self.worker, lease)
        RUNNING.add(self.worker)
        self.running: dict[str, asyncio.Task[None]] = {}
        self.deadlines: dict[int, float] = {}
        """Per place being worked on: until when (monotonic) its claim surely holds."""
        self.again: set[str] = set()
        self.game_logs = GameLogs()
        self.wakeups: set[asyncio.TimerHandle] = set()
        self.stopping = False

    # -- scheduling ------------------------------------------------------------------------

    def kick(self, *chat_keys: str) -> None:
        if self.stopping:
            return
        for key in chat_keys:
            if key in self.running:
                self.again.add(key)
            else:
                task = asyncio.ensure_future(self._run_chat(key))
                self.running[key] = task

    def later(self, delay: float, key: str) -> None:
        def wake() -> None:
            self.wakeups.discard(handle)
            self.kick(key)
        handle = asyncio.get_running_loop().call_later(delay, wake)
        self.wakeups.add(handle)

    async def stop(self, grace: float = 5.0) -> None:
        """At shutdown: let the chats' work in progress finish (what is left stays in the
        database for the next start), then stop."""
        self.stopping = True
        RUNNING.discard(self.worker)
        for handle in self.wakeups:
            handle.cancel()
        self.wakeups.clear()
        tasks = list(self.running.values())
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=grace)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        try:  # hand over: another instance takes what this one had claimed at once,
            # not when the lease runs out
            await self.p.uc.delivery.release_claims(self.worker)
        except Exception:
            log.warning("could not release this worker's claims; they expire with the lease",
                        exc_info=True)

    async def poll(self) -> None:
        """Kick every chat with due work (another instance's, a retry, a restart's); first
        store the highest message id this process got back in each chat since (see
        :meth:`storage.delivery.work.DeliveryWorkCases.saw_messages`)."""
        limiter = getattr(self.bot, "rate_limiter", None)
        if isinstance(limiter, ChatLimiter):
            await self.p.uc.delivery.saw_messages(limiter.take_unsaved())
        self.kick(*await self.p.uc.delivery.due_chats())

    def seen_in(self, chat_id: int) -> int:
        """The highest message id this process got back in the chat (its latest ones)."""
        limiter = getattr(self.bot, "rate_limiter", None)
        if isinstance(limiter, ChatLimiter):
            return max(limiter.posted_in(chat_id), default=0)
        return 0

    async def reconcile(self) -> None:
        """Queue every place whose board differs from the database, and prune."""
        await self.release_the_dead()
        self.kick(*await self.p.uc.delivery.reconcile_deliveries())
        await self.p.uc.delivery.prune_deliveries()
        await self.p.uc.delivery.prune_send_budgets()

    async def release_the_dead(self) -> None:
        """Claims held by a process of this host that is gone (killed, then restarted) are
        released at once instead of waiting for their lease to run out; so are those of an
        earlier run of this process's own id (a container restarted: its process is 1 again)
        that is not a worker running here. Other hosts' claims are left to their lease."""
        host = socket.gethostname()
        for worker in await self.p.uc.delivery.claimants():
            parts = worker.split(":")
            if len(parts) < 3 or parts[0] != host or worker in RUNNING:
                continue
            try:
                if parts[1] == str(os.getpid()):
                    raise ProcessLookupError(worker)  # this process, a worker not running
                os.kill(int(parts[1]), 0)
            except ProcessLookupError:
                released = await self.p.uc.delivery.release_claims(worker)
                log.info("released %s places claimed by %s (no such process)", released,
                         worker)
            except (ValueError, PermissionError):
                continue

    async def _run_chat(self, key: str) -> None:
        with normal_priority():  # a board goes before chatter, whoever kicked it
            await self._drain_chat(key)

    async def _drain_chat(self, key: str) -> None:
        try:
            while True:
                self.again.discard(key)
                await self._room(key)
                # a group claims one place at a time: its budget may make the next one wait
                # longer than a claim's lease
                claimed = await self.p.uc.delivery.claim_chat(
                    self.worker, chat_key=key, lease=self.lease,
                    limit=1 if key.startswith("-") else 20)
                for work in claimed.works:
                    await self._one(key, work)
                # no claim that would find nothing: whatever became due since was kicked
                # (an action of this process, a completion with work left) or is polled
                if not claimed.more and key not in self.again:
                    break
        except Exception:
            log.exception("delivery to %s failed", key)
        finally:
            self.running.pop(key, None)

    async def _room(self, key: str) -> None:
        """Wait until the chat's budget has room for a call, before the call is built: what
        goes out after a wait is the match's latest state (taps made meanwhile collapse into
        one edit)."""
        limiter = getattr(self.bot, "rate_limiter", None)
        if isinstance(limiter, ChatLimiter) and not key.startswith("inline:"):
            await limiter.ready(int(key))

    async def _one(self, key: str, work: DeliveryWork) -> None:
        uc = self.p.uc
        left = ((work.until - uc.wall_now()).total_seconds() if work.until is not None
                else 0.0)
        self.deadlines[work.id] = time.monotonic() + left
        try:
            self.p.faults.reached("claimed")
            mv = await self._latest(work)
            if mv is None and work.notice is not None and work.notice["kind"] == CLOSED:
                await self.notices.deliver_closed(work)  # a match that cannot be read
                if await uc.delivery.complete_delivery(work.id, claim=work.claim,
                                                       version=work.version):
                    self.later(2.0, key)  # an earlier copy still looked for
                return
            if mv is None:
                await uc.delivery.give_up_delivery(work.id, claim=work.claim, error="no such match")
                return
            await self._place(work, mv)
            more = await uc.delivery.complete_delivery(
                work.id, claim=work.claim, version=mv.version,
                drawn=(self._selected(work, mv), mv.version),
                notes=work.notes if mv.version == work.version else ())
            if more:  # a newer action meanwhile, or an orphan still looked for
                self.later(0.0 if work.version < mv.version else 2.0, key)
        except Stale:
            log.info("delivery of match %s to %s: the place was taken over (lease ran out)",
                     work.match_id, key)
        except RetryAfter as exc:
            delay = retry_seconds(exc)
            await self._retry(key, work, delay, f"flood: retry after {delay:g} s")
        except ChatMigrated as exc:
            await uc.migrate_chat(int(key), exc.new_chat_id)
            if work.notice is None or work.notice["kind"] == RETIRE:
                # a notice moved to the new chat, to be sent there; an old board stays
                # behind in the old chat, which can no longer be written to
                await uc.delivery.give_up_delivery(
                    work.id, claim=work.claim, error="the group became a supergroup")
            self.kick(str(exc.new_chat_id))
        except Unreachable as exc:
            log.info("chat %s cannot be reached: %s", key, exc)
            await uc.delivery.give_up_delivery(work.id, claim=work.claim,
                                               error=f"unreachable: {exc}")
        except NetworkError as exc:  # includes timeouts and 5xx
            await self._retry(key, work, backoff(work.attempts), f"network: {exc}")
        except Exception as exc:
            log.exception("delivery of match %s to %s failed", work.match_id, key)
            await self._retry(key, work, backoff(work.attempts), f"error: {exc!r}")
        finally:
            self.deadlines.pop(work.id, None)

    async def _hold(self, work: DeliveryWork) -> None:
        """Before a call that changes the chat (an edit, a deletion): the claim is still this
        worker's, renewed (a compare-and-swap on its token) when less than half its lease is
        surely left. Raises :class:`Stale` when another instance took the place over."""
        if time.monotonic() < self.deadlines.get(work.id, 0.0) - self.lease / 2:
            return
        if not await self.p.uc.delivery.renew_claim(work.id, claim=work.claim, lease=self.lease):
            raise Stale
        self.deadlines[work.id] = time.monotonic() + self.lease

    async def _latest(self, work: DeliveryWork) -> MatchView | None:
        """The match as the row asks for it: the view this instance just committed when it
        is that version (no read), else from the database. An ended match not yet judged is
        read again: its accuracy figure comes later at the same version (edited in)."""
        known = self.p.views.get(work.match_id)
        if known is not None and known.version == work.version and not (
                known.status.is_over and known.accuracy is None):
            return known
        loaded = (await self.p.uc.load_match(work.match_id)).match
        self.p.remember(loaded)
        return loaded

    async def _retry(self, key: str, work: DeliveryWork, delay: float, error: str) -> None:
        log.info("delivery of match %s to %s: %s; again in %.1f s", work.match_id, key, error,
                 delay)
        await self.p.uc.delivery.reschedule_delivery(work.id, claim=work.claim, delay=delay,
                                                     error=error)
        self.later(delay, key)

    # -- one place -------------------------------------------------------------------------

    async def _place(self, work: DeliveryWork, mv: MatchView) -> None:
        if work.notice is not None:
            await self.notices.deliver(work, mv)
            return
        if work.inline_message_id is not None:
            await self.pub.edit_inline_card(mv)
            return
        self._played_on(work, mv)
        await self._board(work, mv)
        self.p.faults.reached("shown")

    def _played_on(self, work: DeliveryWork, mv: MatchView) -> None:
        """A group's board its player to move plays on (they never started the bot): each of
        their taps is a call in the group, so chatter there stands back further
        (:meth:`bot.delivery.limiter.ChatLimiter.played_on`)."""
        limiter = getattr(self.bot, "rate_limiter", None)
        if (isinstance(limiter, ChatLimiter) and work.for_seat is None
                and work.chat_id is not None and is_group_match(mv)
                and not mv.status.is_over and mv.to_act is not None
                and not plays_privately(mv, mv.to_act)):
            limiter.played_on(work.chat_id)

    @staticmethod
    def _selected(work: DeliveryWork, mv: MatchView) -> int | None:
        """The checker chosen on the place's keyboard, if it was chosen at the latest state."""
        return work.selected if mv.version == work.version else None

    def _look(self, work: DeliveryWork, mv: MatchView,
              game_log: Sequence[LoggedTurn] = ()) -> tuple[str, Markup | None, int]:
        """Caption, keyboard and the side the image is drawn from, for the latest state."""
        notes = work.notes if mv.version == work.version else ()
        selected = self._selected(work, mv)
        if work.for_seat is None:
            caption, t = self.pub.shared_caption(mv, notes, game_log)
            return (caption, self.pub.shared_keyboard(t, mv, selected=selected),
                    self.pub.viewer_of_shared(mv))
        seat = work.for_seat
        caption, t = self.pub.seat_caption(mv, seat, notes, game_log)
        return caption, self.pub.seat_keyboard(t, mv, seat, selected=selected), seat

    async def _game_log(self, mv: MatchView) -> Sequence[LoggedTurn]:
        """The game's turns so far, early in a game only: the caption tells the turns played
        for a player before their first decision (the notes tell the last action's only)."""
        state = mv.state
        if state.phase != Phase.PLAYING or not 0 < state.turn_number <= PLAYED_FOR_TURNS:
            return ()
        known = self.game_logs.at(mv.id, state.game, state.turn_number)
        if known is not None:
            return known
        turns = await self.p.uc.game_turns(mv.id, state.game)
        self.game_logs.keep(mv.id, state.game, state.turn_number, turns)
        return turns

    async def _board(self, work: DeliveryWork, mv: MatchView) -> None:
        caption, markup, viewer = self._look(work, mv, await self._game_log(mv))
        boards = list(work.boards)
        live = boards[-1] if boards else None
        # a group match's private board is posted only for its player's turn; a new one asked
        # for before the turn passed (a reminder's, overtaken by the match's end) is then an
        # edit of the live one, or nothing
        may_post = not (work.for_seat is not None and is_group_match(mv) and (
            mv.to_act != work.for_seat or not plays_privately(mv, work.for_seat)))
        repost = may_post and work.repost and not (
            live is not None and work.edit_if_busy and await self._busy(work))
        edited = live is not None and not repost and await self._edit(
            work, live, mv, caption, markup, viewer)
        if edited and live is not None:
            await self._retire(work, boards[:-1])
            await self._probe(work, list(work.probes), work.top)
            return
        if may_post:
            await self._post(work, mv, caption, markup, viewer)

    async def _busy(self, work: DeliveryWork) -> bool:
        """A turn's new board in a group both players play in: edited in place instead while
        the group's minute is half spent (:meth:`~bot.delivery.limiter.ChatLimiter.busy`)."""
        limiter = getattr(self.bot, "rate_limiter", None)
        return (isinstance(limiter, ChatLimiter) and work.chat_id is not None
                and work.for_seat is None and await limiter.busy(work.chat_id))

    async def _edit(self, work: DeliveryWork, live: BoardMessageView, mv: MatchView,
                    caption: str, markup: Markup | None, viewer: int) -> bool:
        """Edit the live board (only its keyboard when only a checker was chosen on it since
        the version was shown); ``False`` when it is gone (a user deleted it)."""
        await self._hold(work)
        try:
            if work.keyboard_asked and work.shown >= mv.version and not work.media:
                await self.bot.edit_message_reply_markup(
                    chat_id=live.chat_id, message_id=live.message_id, reply_markup=markup)
            elif work.media:
                photo = await draw_board_async(mv.state, viewer, self._looks(live.for_seat, mv),
                                               self._names(live.for_seat, mv))
                await self.bot.edit_message_media(
                    InputMediaPhoto(photo, caption=caption, parse_mode=HTML),
                    chat_id=live.chat_id, message_id=live.message_id, reply_markup=markup)
            else:
                await self.bot.edit_message_caption(
                    chat_id=live.chat_id, message_id=live.message_id, caption=caption,
                    parse_mode=HTML, reply_markup=markup)
        except BadRequest as exc:
            if not_modified(exc):
                return True
            if gone(exc):
                await self.p.uc.forget_board_message(live.id)
                return False
            raise
        except Forbidden as exc:
            await self._cannot_post(work, mv, exc.message)
            raise Unreachable(exc.message) from exc
        return True

    async def _post(self, work: DeliveryWork, mv: MatchView, caption: str,
                    markup: Markup | None, viewer: int) -> None:
        chat_id = work.chat_id
        assert chat_id is not None
        photo = await draw_board_async(mv.state, viewer, self._looks(work.for_seat, mv),
                                       self._names(work.for_seat, mv))
        token = await self.p.uc.delivery.mark_sending(
            work.id, claim=work.claim, caption=caption,
            markup=markup.to_dict() if markup else None, lease=self.lease,
            seen=self.seen_in(chat_id))
        if token is None:
            raise Stale
        self.deadlines[work.id] = time.monotonic() + self.lease
        self.p.faults.reached("sending")
        thread = mv.place.thread_id if work.for_seat is None else None
        quiet = await self._quiet(work, mv)
        try:
            sent = await self.bot.send_photo(chat_id, photo, caption=caption, parse_mode=HTML,
                                             reply_markup=markup, message_thread_id=thread,
                                             disable_notification=quiet)
        except Forbidden as exc:
            await self._cannot_post(work, mv, exc.message)
            raise Unreachable(exc.message) from exc
        except BadRequest as exc:
            if "chat not found" in exc.message.lower():
                await self._cannot_post(work, mv, exc.message)
                raise Unreachable(exc.message) from exc
            raise
        self.p.faults.reached("sent")
        recorded = await self.p.uc.delivery.record_sent(
            work.id, token, claim=work.claim, message_id=sent.message_id, version=mv.version,
            notes=work.notes if mv.version == work.version else ())
        if recorded is None:  # the send outlived the lease: this board is nobody's
            await self._retire_orphan(chat_id, sent.message_id)
            await self.p.uc.delivery.drop_probes(work.id, [token])
            raise Stale
        older, probes, top = recorded
        if work.for_seat is not None and mv.to_act == work.for_seat:
            player = mv.seats[work.for_seat].player
            if player is not None:
                self.p.board_posted(player.id, mv.id)
        self.p.faults.reached("recorded")
        await self._retire(work, older)
        self.p.faults.reached("retired")
        await self._probe(work, probes, top)

    @staticmethod
    def _looks(for_seat: int | None, mv: MatchView) -> Look:
        """A player's private board has their look (``/settings``); a shared board (a group's,
        where the group's settings win) the default one."""
        if for_seat is None:
            return Look.shared(mv.chat_language)
        return Look.of(mv.seats[for_seat].player)

    def _names(self, for_seat: int | None, mv: MatchView) -> tuple[str, str] | None:
        """A shared board names the players beside their colours; a private one does not
        (its reader is at the bottom, the caption says "your turn")."""
        return self.pub.shared_names(mv) if for_seat is None else None

    async def _quiet(self, work: DeliveryWork, mv: MatchView) -> bool:
        """A board posted in a player's private chat comes silently when they turned notices
        off or tapped a board within the last minute (:meth:`Portes.quiet_for`); a group's
        board notifies only as the match's first board or with a reminder (it mentions the
        player awaited), and never in a group its admins quieted (``/quiet``)."""
        if work.for_seat is None:
            if work.chat_id is not None and await self.p.uc.chat_quiet(work.chat_id):
                return True
            first = not work.boards
            return not (first or any(n.get("k") == "remind" for n in work.notes))
        player = mv.seats[work.for_seat].player
        return player is not None and self.p.quiet_for(player)

    async def _cannot_post(self, work: DeliveryWork, mv: MatchView, why: str) -> None:
        """Telegram refused a board here (403, or the chat is gone): a group's place moves
        its matches to private chats; a player who blocked the bot is handled as such (see
        :mod:`bot.delivery.reach`); one who never started it plays a group match on the group's
        board."""
        if work.for_seat is None:
            if work.chat_id is not None:
                await left_group(self.p, self.bot, work.chat_id)
        else:
            player = mv.seats[work.for_seat].player
            if player is not None and blocked_us(why):
                await player_blocked(self.p, self.bot, player.id)
                return
            if player is not None:
                await self.p.uc.set_can_message(player.id, False)
            if is_group_match(mv):
                # they blocked the bot: they play on the group's board again, posted anew
                # with its buttons and them mentioned
                self.p.views.pop(mv.id, None)
                self.kick(*await self.p.uc.delivery.redeliver(mv.id, seat=None, shared=True))

    async def _retire(self, work: DeliveryWork, boards: list[BoardMessageView]) -> None:
        for old in boards:
            await self._hold(work)
            await self.pub.retire(old)

    # -- orphans ---------------------------------------------------------------------------

    async def _probe(self, work: DeliveryWork, probes: list[dict[str, Any]], top: int) -> None:
        """Look for the boards of sends whose outcome was unknown, and retire them."""
        if not probes or work.chat_id is None:
            return
        await self._hold(work)
        known = await self.p.uc.delivery.known_message_ids(work.chat_id)
        found: list[str] = []
        for probe in probes:
            low = max(int(probe["after"]) + 1, top - PROBE_SPAN)
            for message_id in range(low, top + PROBE_AHEAD + 1):
                if message_id in known:
                    continue
                if await self._is_orphan(work.chat_id, message_id, probe):
                    log.info("an orphan board of match %s found in %s: %s", work.match_id,
                             work.chat_id, message_id)
                    await self._retire_orphan(work.chat_id, message_id)
                    found.append(str(probe["token"]))
                    break
        if found:
            await self.p.uc.delivery.drop_probes(work.id, found)

    async def _is_orphan(self, chat_id: int, message_id: int, probe: dict[str, Any]) -> bool:
        """An edit carrying exactly what the unknown send carried is "not modified" only on
        that very message; a user's message "can't be edited", a missing one is "not found",
        a text message has "no caption": all left alone."""
        markup = Markup.de_json(probe["markup"], self.bot) if probe.get("markup") else None
        try:
            await self.bot.edit_message_caption(chat_id=chat_id, message_id=message_id,
                                                caption=probe["caption"], parse_mode=HTML,
                                                reply_markup=markup)
        except BadRequest as exc:
            return not_modified(exc)
        log.warning("probing %s in %s changed an unrecorded board; retiring it", message_id,
                    chat_id)
        return True

    async def _retire_orphan(self, chat_id: int, message_id: int) -> None:
        await take_down(self.bot, chat_id, message_id)
