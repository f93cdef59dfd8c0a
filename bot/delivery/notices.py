"""Notices: the messages about a match that are not its boards (the dice seed revealed at its
end, a match lost on time, the review; an expired challenge's card; an old board taken
down), sent by the delivery
worker from their outbox rows (:mod:`storage.delivery.notices`) with a board's guarantees.

Each text is rendered when it is sent, from the match as the database has it and in the
reader's language then: storage keeps only what a notice is about (texts and translations are
the bot's), and what a chat should show stays derivable from the database after any crash. The
exact text sent is remembered before the send (its outcome may stay unknown: a lost response,
a crash), so the copy an earlier attempt left can be recognised: once the send succeeds, each
message id between the chat's last known one and the notice's is probed with an edit carrying
exactly that text, which Telegram answers "message is not modified" only for that copy; it is
deleted. The review is computed here too (the engine's work): a crash while it is computed
leaves the row pending, and the next worker computes it again.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Bot
from telegram import InlineKeyboardMarkup as Markup
from telegram.error import BadRequest, Forbidden

from bot.delivery.competition_card import (
    bracket_picture,
    champion_text,
    deliver_card,
    pictured,
    reader,
    signup_started,
)
from bot.delivery.limiter import ChatLimiter
from bot.delivery.play_notices import PLAY_KINDS, ladder_card, play_notice
from bot.delivery.publish import HTML, take_down
from bot.delivery.reach import blocked_us, cancel_unreached, group_told, player_blocked
from bot.delivery.telegram import Stale, Unreachable, gone, not_modified
from bot.state import Portes, mention
from bot.views import competitions as views
from bot.views.i18n import Tr, tr
from bot.views.keyboards import url_keyboard
from bot.views.reveal import (
    reveal_text,
    rolls_after_opening,
    short_reveal_text,
    winner_rolls,
)
from bot.views.review import review_text
from rules.game import find_kind
from storage.delivery.notices import (
    CANCELLED,
    EXPIRED,
    MOVED,
    RETIRE,
    REVEAL,
    REVIEW,
    SEED,
    STRANDED,
    TIMEOUT,
)
from storage.play_notices import LADDER
from storage.results import MatchView, PlayerView
from storage.usecases import DeliveryWork
from storage.usecases.competition_cards import BRACKET, STANDINGS
from storage.usecases.competition_progress import CHAMPION

log = logging.getLogger("bot.delivery.notices")
Look = tuple[str, Markup | None]
"""A notice's text and buttons."""
PROBE_SPAN = 20
"""At most this many message ids below the notice are probed for one earlier copy."""


class Notices:
    """Sends one notice place for the delivery worker (``hold``: renew the claim before a
    call that changes the chat, raising :class:`Stale` when it was taken over)."""

    def __init__(self, portes: Portes, bot: Bot,
                 hold: Callable[[DeliveryWork], Awaitable[None]]) -> None:
        self.p = portes
        self.bot = bot
        self.hold = hold

    async def deliver(self, work: DeliveryWork, mv: MatchView) -> None:
        """Send the notice unless it was sent already; then look for earlier copies. An
        expired challenge's card is edited instead (an edit made twice changes nothing)."""
        assert work.notice is not None
        if work.notice["kind"] == EXPIRED:
            await self._expire_card(work, mv)
            return
        if work.notice["kind"] == STANDINGS:
            comp = await self.p.uc.get_competition(int(work.notice["comp"]))
            # a cup's card is its bracket once posted; the post draws the latest state
            if comp is not None and not (pictured(comp) and await self.p.uc.bracket_pending(
                    comp.id, comp.chat_id)):
                await self.hold(work)
                await deliver_card(self.p, self.bot, comp)
            return
        if work.notice["kind"] == BRACKET:
            await self._bracket(work, mv)
            return
        if work.notice["kind"] == LADDER:
            await self._ladder(work, mv)
            return
        if work.notice["kind"] == RETIRE:
            await self._take_down(work)
            return
        if work.shown < work.version:
            if await self._quieted(work):
                return
            look = await self.render(work, mv)
            if look is None:
                return  # nothing to say (no review of a match without turns, no engine here)
            probes, own = await self._send(work, mv, *look)
            if work.notice["kind"] == STRANDED:
                await group_told(self.p, self.bot, mv)
        else:
            probes, own = list(work.probes), int(work.notice.get("message_id") or 0)
        await self._probe(work, probes, own)

    async def _bracket(self, work: DeliveryWork, mv: MatchView) -> None:
        """A cup's bracket picture posted in its group, once: its message id becomes the
        cup's card (kept before the send is recorded, so a crash between the two leaves the
        card known, and the copy a retry leaves is probed for and deleted)."""
        assert work.notice is not None
        if work.shown >= work.version:
            probes, own = list(work.probes), int(work.notice.get("message_id") or 0)
        else:
            comp = await self.p.uc.get_competition(int(work.notice["comp"]))
            if comp is None:
                return
            t = await reader(self.p, comp)
            await self.hold(work)
            await signup_started(self.bot, t, comp)  # (an edit made twice: "not modified")
            photo = await bracket_picture(t, comp)

            async def card(message_id: int) -> None:
                await self.p.uc.set_competition_card(comp.id, message_id)

            probes, own = await self._send(work, mv, views.cup_caption(t, comp), None,
                                           photo=photo, then=card)
        await self._probe(work, probes, own)

    async def _ladder(self, work: DeliveryWork, mv: MatchView) -> None:
        """The group's ladder card redrawn in place as the ladder is now (an edit made twice
        is "not modified"); posted when the group has none (or it was deleted), and kept as
        the card from then on."""
        assert work.chat_id is not None
        chat_id = work.chat_id
        settings = await self.p.uc.ladder_settings(chat_id)
        if settings is None:
            return
        if settings.card_message_id is not None:
            t = tr(await self.p.lang_for_chat(chat_id, None))
            text, markup = await ladder_card(self.p, t, chat_id)
            await self.hold(work)
            try:
                await self.bot.edit_message_text(text, chat_id=chat_id, parse_mode=HTML,
                                                 message_id=settings.card_message_id,
                                                 reply_markup=markup)
                return
            except BadRequest as exc:
                if not_modified(exc):
                    return
                if not gone(exc):
                    raise
            except Forbidden as exc:
                raise Unreachable(exc.message) from exc
        if work.shown >= work.version:  # posted already (its copies probed below)
            await self._probe(work, list(work.probes), int(work.notice.get("message_id") or 0)
                              if work.notice else 0)
            return
        t = tr(await self.p.lang_for_chat(chat_id, None))
        text, markup = await ladder_card(self.p, t, chat_id)

        async def card(message_id: int) -> None:
            await self.p.uc.set_ladder_card(chat_id, message_id)

        probes, own = await self._send(work, mv, text, markup, then=card)
        await self._probe(work, probes, own)

    async def deliver_closed(self, work: DeliveryWork) -> None:
        """A match whose record cannot be read was closed: the other player is told, from
        the players alone (the match cannot be drawn)."""
        assert work.notice is not None and work.chat_id is not None
        if work.shown < work.version:
            reader = await self.p.uc.get_player(work.chat_id)  # a private chat: its player
            closer = await self.p.uc.get_player(int(work.notice["by"]))
            t = self.p.t_user(reader)
            text = t._("{player} closed match #{id}: its record could not be read. It counts "
                       "for nobody.", player=html.escape(closer.display_name if closer else "?"),
                       id=work.match_id)
            probes, own = await self._send(work, None, text, None)
        else:
            probes, own = list(work.probes), int(work.notice.get("message_id") or 0)
        await self._probe(work, probes, own)

    async def _quieted(self, work: DeliveryWork) -> bool:
        """The seed revealed in a group its admins quieted (``/quiet``): not there, but to
        each player who started the bot, in private (notices written here, sent by their
        chats' workers)."""
        if (work.notice is None or work.notice["kind"] != REVEAL or work.for_seat is not None
                or work.chat_id is None or not await self.p.uc.chat_quiet(work.chat_id)):
            return False
        keys = await self.p.uc.delivery.reveal_privately(work.match_id)
        if self.p.delivery is not None:
            self.p.delivery.kick(*keys)
        return True

    async def render(self, work: DeliveryWork, mv: MatchView) -> Look | None:
        """The notice's text and buttons, as the match is now, in its reader's language."""
        kind = work.notice["kind"] if work.notice else None
        if kind == STRANDED:
            return await self._stranded(work, mv)
        if kind == SEED:  # the whole reveal, asked for: in its reader's private chat
            reader = await self.p.uc.get_player(work.chat_id) if work.chat_id else None
            full = await self._reveal(self.p.t_user(reader), mv)
            return None if full is None else (full, None)
        t = self._reader(work, mv)
        text: str | None = None
        if kind == REVEAL and work.for_seat is None:  # a group's: short, the rest a tap away
            return await self._short_reveal(t, mv)
        if kind == REVEAL:
            text = await self._reveal(t, mv)
        elif kind == TIMEOUT:
            text = self._timeout(t, mv)
        elif kind == REVIEW:
            text = await self._review(work, t)
        elif kind == CHAMPION:
            comp = await self.p.uc.get_competition(int((work.notice or {})["comp"]))
            if comp is not None:
                text = champion_text(tr(await self.p.lang_for_chat(comp.chat_id, None)), comp)
        elif kind == MOVED:
            text = t._("The bot was removed from the group of match #{id}. The match goes on "
                       "here, in private: your board follows (/games brings it back, /resign "
                       "ends the match).", id=mv.id)
        elif kind == CANCELLED:
            text = t._("Match #{id} is cancelled: the bot cannot post in its group any more, "
                       "and {players} never started the bot, so no board can reach them. It "
                       "counts for nobody.", id=mv.id, players=", ".join(
                           html.escape(p.display_name) for p in self._unreached(work, mv)))
        elif kind in PLAY_KINDS:
            return await play_notice(self.p, work, mv, t)
        else:
            log.warning("notice %s of match %s: unknown kind %r", work.place, mv.id, kind)
        return None if text is None else (text, None)

    @staticmethod
    def _unreached(work: DeliveryWork, mv: MatchView) -> list[PlayerView]:
        seats = (work.notice or {}).get("unreached") or []
        return [p for s in seats if (p := mv.seats[int(s)].player) is not None]

    async def _stranded(self, work: DeliveryWork, mv: MatchView) -> Look:
        """The group of a match moved out of it: who never started the bot is asked to, with
        a button that starts it and brings their board."""
        assert work.chat_id is not None
        t = tr(await self.p.lang_for_chat(work.chat_id, None))
        link = self.p.link(f"m{mv.id}")
        text = t._("⚠️ Match #{id} cannot be played in this group any more: the bot cannot "
                   "post its board here. It goes on in private chats. {players}: start the "
                   "bot with the button below to get your board.", id=mv.id,
                   players=", ".join(mention(p) for p in self._unreached(work, mv)))
        return text, url_keyboard("▶ " + t._("Start the bot"), link)

    def _reader(self, work: DeliveryWork, mv: MatchView) -> Tr:
        if work.for_seat is None:
            return self.p.t_match_chat(mv)
        return self.p.t_user(mv.seats[work.for_seat].player)

    async def _short_reveal(self, t: Tr, mv: MatchView) -> Look | None:
        """The seed revealed in a group: the seed, and a button that sends the whole reveal
        (every roll, how to check them) to whoever taps it, in private."""
        fair = await self.p.uc.fairness(mv.id)
        if fair is None or fair.seed_hex is None:
            return None
        return short_reveal_text(t, mv.id, fair), url_keyboard(
            "🔐 " + t._("Every roll, and how to check"), self.p.link(f"seed{mv.id}"))

    async def _reveal(self, t: Tr, mv: MatchView) -> str | None:
        """The dice seed revealed: how to verify it, in a command and in plain words with a
        link, and every roll of the match (see :mod:`bot.views.reveal`)."""
        fair = await self.p.uc.fairness(mv.id)
        if fair is None or fair.seed_hex is None:
            return None
        record = await self.p.uc.match_record(mv.id)
        rolls_after = rolls_after_opening(record) if record is not None else None
        cafe = winner_rolls(record) if record is not None else []
        help_url = self.p.settings.dice_help_url or self.p.link("dice")
        return reveal_text(t, fair, help_url, rolls_after, cafe)

    @staticmethod
    def _timeout(t: Tr, mv: MatchView) -> str:
        winner = mv.state.winner
        loser = 1 - winner if winner is not None else mv.state.turn
        who = mv.seats[loser].player
        name = who.display_name if who else t._("Computer")
        return t._("Match #{id} ended: {player} did not move in time and loses the match.",
                   id=mv.id, player=html.escape(name))

    async def _review(self, work: DeliveryWork, t: Tr) -> str | None:
        computer = self.p.computer
        if computer is None:
            return None
        if not computer.engine:  # GNU Backgammon's games are reviewed by its nets only
            loaded = (await self.p.uc.load_match(work.match_id)).match
            if loaded is None or find_kind(loaded.state.game_type).has_gnubg_games:
                return None
        found = await computer.review(work.match_id)
        if found is None:
            return None
        final, review = found
        return review_text(t, final, review)

    async def _expire_card(self, work: DeliveryWork, mv: MatchView) -> None:
        """The card of a challenge nobody accepted in time says it expired, in its author's
        language."""
        assert work.notice is not None
        text = self.p.t_user(mv.seats[0].player)._("This challenge has expired.")
        await self.hold(work)
        self.p.faults.reached(f"notice-sending:{EXPIRED}")
        try:
            if work.inline_message_id is not None:
                await self.bot.edit_message_text(text, inline_message_id=work.inline_message_id)
            else:
                await self.bot.edit_message_text(text, chat_id=work.chat_id,
                                                 message_id=work.notice["card"])
        except BadRequest as exc:
            if not (not_modified(exc) or gone(exc)):
                raise
        except Forbidden as exc:
            raise Unreachable(exc.message) from exc
        self.p.faults.reached(f"notice-sent:{EXPIRED}")

    async def _take_down(self, work: DeliveryWork) -> None:
        """An old board of a match that cannot show it any more is taken down (deleted, or
        a stub after 48 h: :func:`bot.delivery.publish.take_down`); where the bot may not
        write any more (removed from the group), there is nothing to do."""
        assert work.notice is not None and work.chat_id is not None
        await self.hold(work)
        self.p.faults.reached(f"notice-sending:{RETIRE}")
        try:
            await take_down(self.bot, work.chat_id, int(work.notice["message"]))
        except Forbidden as exc:
            raise Unreachable(exc.message) from exc
        self.p.faults.reached(f"notice-sent:{RETIRE}")

    async def _send(self, work: DeliveryWork, mv: MatchView | None, text: str,
                    markup: Markup | None, *, photo: bytes | None = None,
                    then: Callable[[int], Awaitable[None]] | None = None,
                    ) -> tuple[list[dict[str, Any]], int]:
        """Send the notice (a picture with ``text`` as its caption when ``photo``), its
        outcome unknown until recorded; ``then``: told the message id before that."""
        chat_id = work.chat_id
        assert chat_id is not None
        uc = self.p.uc
        limiter = getattr(self.bot, "rate_limiter", None)
        seen = max(limiter.posted_in(chat_id), default=0) if isinstance(
            limiter, ChatLimiter) else 0
        token = await uc.delivery.mark_sending(work.id, claim=work.claim, caption=text,
                                               markup=markup.to_dict() if markup else None,
                                               seen=seen, photo=photo is not None)
        if token is None:
            raise Stale
        kind = (work.notice or {}).get("kind")
        self.p.faults.reached(f"notice-sending:{kind}")
        thread = (mv.place.thread_id if work.for_seat is None and mv is not None
                  and kind != SEED else None)
        try:
            if photo is not None:
                sent = await self.bot.send_photo(chat_id, photo, caption=text, parse_mode=HTML,
                                                 message_thread_id=thread, reply_markup=markup)
            else:
                sent = await self.bot.send_message(chat_id, text, parse_mode=HTML,
                                                   message_thread_id=thread, reply_markup=markup,
                                                   disable_web_page_preview=True)
        except Forbidden as exc:
            await self._cannot_send(work, mv, exc.message)
            raise Unreachable(exc.message) from exc
        except BadRequest as exc:
            if "chat not found" in exc.message.lower():
                await self._cannot_send(work, mv, exc.message)
                raise Unreachable(exc.message) from exc
            raise
        self.p.faults.reached(f"notice-sent:{kind}")
        if then is not None:
            await then(sent.message_id)
        recorded = await uc.delivery.record_notice_sent(work.id, token, claim=work.claim,
                                               message_id=sent.message_id)
        if recorded is None:  # the send outlived the lease: the place's claimant sends its own
            await self._delete(chat_id, sent.message_id)
            await uc.delivery.drop_probes(work.id, [token])
            raise Stale
        self.p.faults.reached(f"notice-recorded:{kind}")
        return recorded

    async def _cannot_send(self, work: DeliveryWork, mv: MatchView | None, why: str) -> None:
        """A player's private chat refused the notice: they blocked the bot (handled as such,
        see :mod:`bot.delivery.reach`), or never started it. A group that cannot be asked to
        start the bot: the match no board can reach is cancelled."""
        if work.for_seat is None and (work.notice or {}).get("kind") != SEED:
            if mv is not None and work.notice is not None and work.notice["kind"] == STRANDED:
                await cancel_unreached(self.p, self.bot, mv)
            return
        player_id = work.chat_id  # a reader's notice goes to their private chat
        if player_id is None:
            return
        if blocked_us(why):
            await player_blocked(self.p, self.bot, player_id)
        else:
            await self.p.uc.set_can_message(player_id, False)

    async def _probe(self, work: DeliveryWork, probes: list[dict[str, Any]], own: int) -> None:
        """Look, below the notice (message id ``own``), for the copies of sends whose outcome
        was unknown, and delete them."""
        chat_id = work.chat_id
        if not probes or chat_id is None or not own:
            return
        await self.hold(work)
        # the bot's own messages that are no copy (boards, answers this process got back)
        # are left alone: an edit with the notice's text would change them
        known = await self.p.uc.delivery.known_message_ids(chat_id)
        limiter = getattr(self.bot, "rate_limiter", None)
        if isinstance(limiter, ChatLimiter):
            known |= limiter.posted_in(chat_id)
        found: list[str] = []
        for probe in probes:
            markup = (Markup.de_json(probe["markup"], self.bot) if probe.get("markup")
                      else None)
            for message_id in range(max(int(probe["after"]) + 1, own - PROBE_SPAN), own):
                if message_id in known:
                    continue
                if await self._is_copy(chat_id, message_id, str(probe["caption"]), markup,
                                       photo=bool(probe.get("photo"))):
                    log.info("an earlier copy of %s found in %s: %s", work.place, chat_id,
                             message_id)
                    await self._delete(chat_id, message_id)
                    found.append(str(probe["token"]))
                    break
        if found:
            await self.p.uc.delivery.drop_probes(work.id, found)

    async def _is_copy(self, chat_id: int, message_id: int, text: str,
                       markup: Markup | None, *, photo: bool = False) -> bool:
        """An edit carrying exactly the notice's text is "not modified" only on a copy of it;
        a user's message "can't be edited", a missing one is "not found", a board has "no
        text": all left alone. A picture's copy is probed by its caption."""
        try:
            if photo:
                await self.bot.edit_message_caption(chat_id=chat_id, message_id=message_id,
                                                    caption=text, parse_mode=HTML,
                                                    reply_markup=markup)
            else:
                await self.bot.edit_message_text(text, chat_id=chat_id, message_id=message_id,
                                                 parse_mode=HTML, reply_markup=markup,
                                                 disable_web_page_preview=True)
        except BadRequest as exc:
            return not_modified(exc)
        log.warning("probing %s in %s changed a message of the bot to a notice; deleting it",
                    message_id, chat_id)
        return True

    async def _delete(self, chat_id: int, message_id: int) -> None:
        try:
            await self.bot.delete_message(chat_id, message_id)
        except BadRequest:
            log.info("could not delete message %s in %s (older than 48 h?)", message_id, chat_id)
