"""Showing a match: board messages in groups and private chats, inline cards, notices.

Only ever called after the use case has committed. Turn changes post a new board for the player
who must act (a new message notifies; an edit does not) and delete the old one, or edit it to a
short stub when Telegram refuses (boards older than 48 h). Taps inside a turn edit the caption and
the keyboard of the board that was tapped. Failures are repaired by re-posting, never by losing
the move: the database already has it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from telegram import Bot, InputMediaPhoto, Message
from telegram import InlineKeyboardMarkup as Markup
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from bot import texts
from bot.board import draw_board_async
from bot.core import (
    Portes,
    gone,
    is_group_match,
    mention,
    not_modified,
    quietly,
    retrying,
)
from bot.i18n import Tr
from bot.keyboards import rematch_keyboard, turn_keyboard, url_keyboard
from bot.texts import names
from rules.match import Event, GameEnded, GameStarted, Phase, TurnPlayed
from storage.results import BoardMessageView, MatchStatus, MatchView

log = logging.getLogger("bot.publish")
HTML = ParseMode.HTML


def event_notes(t: Tr, mv: MatchView, events: Sequence[Event]) -> list[str]:
    """What happened, in the order it happened: each turn played (a forced one with its note
    under it), each game's result after the play that ended it. A new game's opening roll is
    not among them: the caption says it (see ``texts.caption``)."""
    n = names(t, mv)
    notes: list[str] = []
    for e in events:
        if isinstance(e, TurnPlayed):
            notes.append(texts.play_line(t, n, e.player, e.dice, bool(e.moves), e.text))
            if e.forced and e.moves:
                notes.append(t._("(forced: the only legal play)"))
        elif isinstance(e, GameEnded):
            notes.append("🏁 " + texts.game_result_text(t, n, e.winner, e.kind, e.points,
                                                       e.resigned))
        elif isinstance(e, GameStarted) and e.game == 1 and mv.mix is not None:
            notes.append(texts.dice_start_text(t, mv.commitment, mv.mix))
    return notes


def turn_changed(events: Sequence[Event]) -> bool:
    return bool(events)


class Publisher:
    def __init__(self, portes: Portes, bot: Bot) -> None:
        self.p = portes
        self.bot = bot

    # -- captions and keyboards ------------------------------------------------------------

    def shared_caption(self, mv: MatchView, events: Sequence[Event] = ()) -> tuple[str, Tr]:
        t = self.p.t_match_chat(mv)
        text = texts.caption(t, mv.state, names(t, mv), viewer=None,
                             notes=event_notes(t, mv, events))
        seat = mv.to_act
        if seat is not None and not mv.seats[seat].is_computer:
            player = mv.seats[seat].player
            if player is not None and mv.state.phase == Phase.RESIGN_OFFERED:
                text += "\n" + t._("👉 {player}, accept or decline the offer.",
                                   player=mention(player))
            elif player is not None:
                text += "\n" + t._("👉 {player}, your move.", player=mention(player))
        return text, t

    def seat_caption(
        self, mv: MatchView, seat: int, events: Sequence[Event] = ()
    ) -> tuple[str, Tr]:
        t = self.p.t_user(mv.seats[seat].player)
        text = texts.caption(t, mv.state, names(t, mv), viewer=seat,
                             notes=event_notes(t, mv, events))
        return text, t

    def keyboard(self, t: Tr, mv: MatchView, *, selected: int | None = None) -> Markup | None:
        if mv.status == MatchStatus.ACTIVE:
            return turn_keyboard(t, mv.id, mv.version, mv.state, selected=selected,
                                 direct_limit=self.p.settings.plays_direct,
                                 hint=mv.computer_level is not None and not mv.computer_to_act)
        if mv.state.phase == Phase.MATCH_OVER:
            return rematch_keyboard(t, mv.id)
        return None

    def viewer_of_shared(self, mv: MatchView) -> int:
        """A group board is drawn from the side of the player who must act (the one who must
        answer a resignation offer, too)."""
        if mv.state.phase == Phase.RESIGN_OFFERED:
            return 1 - mv.state.turn
        return mv.state.turn if mv.state.phase != Phase.NOT_STARTED else 0

    # -- whole updates ---------------------------------------------------------------------

    async def show(self, mv: MatchView, events: Sequence[Event] = (), *,
                   repost: bool = True) -> None:
        """After a turn changed (or a match started or ended): new boards where someone must act."""
        self.p.remember(mv)
        if is_group_match(mv):
            await self.post_shared(mv, events)
            seat = mv.to_act
            if seat is not None:
                await self.notify_private(mv, seat)
        else:
            for seat in (0, 1):
                if mv.seats[seat].player is None:
                    continue
                must_act = mv.to_act == seat or mv.status.is_over
                await self.post_seat(mv, seat, events, new_message=must_act and repost)
            await self.update_inline_card(mv)
        if mv.status.is_over:
            await self.match_over(mv)
            if self.p.computer is not None:
                self.p.spawn(self.p.computer.match_finished(mv))
        elif mv.computer_to_act and self.p.computer is not None:
            self.p.spawn(self.p.computer.turn(mv))

    async def post_shared(self, mv: MatchView, events: Sequence[Event] = ()) -> Message | None:
        chat_id = mv.place.chat_id
        assert chat_id is not None
        caption, t = self.shared_caption(mv, events)
        photo = await draw_board_async(mv.state, self.viewer_of_shared(mv))
        try:
            sent = await retrying(lambda: self.bot.send_photo(
                chat_id, photo, caption=caption, parse_mode=HTML,
                reply_markup=self.keyboard(t, mv), message_thread_id=mv.place.thread_id,
            ))
        except Forbidden:
            log.info("cannot post in chat %s any more", chat_id)
            await self.left_group(chat_id)
            return None
        await self._record(mv, sent, for_seat=None)
        return sent

    async def post_seat(self, mv: MatchView, seat: int, events: Sequence[Event] = (), *,
                        new_message: bool) -> None:
        player = mv.seats[seat].player
        if player is None:
            return
        caption, t = self.seat_caption(mv, seat, events)
        markup = self.keyboard(t, mv) if (mv.to_act == seat or mv.status.is_over) else None
        photo = await draw_board_async(mv.state, seat)
        live = [b for b in mv.board_messages if b.for_seat == seat and b.message_id]
        if not new_message and live:
            board = live[-1]
            try:
                await retrying(lambda: self.bot.edit_message_media(
                    InputMediaPhoto(photo, caption=caption, parse_mode=HTML),
                    chat_id=board.chat_id, message_id=board.message_id, reply_markup=markup,
                ))
                await self.p.uc.record_board_message(
                    mv.id, version=mv.version, chat_id=board.chat_id,
                    message_id=board.message_id, for_seat=seat)
                return
            except BadRequest as exc:
                if not_modified(exc):
                    return
                if not gone(exc):
                    raise
            except Forbidden:
                await self.p.uc.set_can_message(player.id, False)
                return
        try:
            sent = await retrying(lambda: self.bot.send_photo(
                player.id, photo, caption=caption, parse_mode=HTML, reply_markup=markup))
        except Forbidden:
            await self.p.uc.set_can_message(player.id, False)
            return
        if mv.to_act == seat:
            self.p.board_posted(player.id, mv.id)
        await self._record(mv, sent, for_seat=seat)

    async def _record(self, mv: MatchView, sent: Message, *, for_seat: int | None) -> None:
        superseded = await self.p.uc.record_board_message(
            mv.id, version=mv.version, chat_id=sent.chat_id, message_id=sent.message_id,
            for_seat=for_seat)
        stale = [old for old in superseded
                 if not (old.message_id == sent.message_id and old.chat_id == sent.chat_id)]
        if stale:
            # off the tap's critical path: the new board is already there
            self.p.spawn(self._retire_all(stale))

    async def _retire_all(self, boards: list[BoardMessageView]) -> None:
        for old in boards:
            await self.retire(old)

    async def retire(self, old: BoardMessageView) -> None:
        """Delete an old board; when Telegram refuses (older than 48 h), edit it to a stub."""
        if old.chat_id is not None and old.message_id is not None:
            try:
                await self.bot.delete_message(old.chat_id, old.message_id)
            except TelegramError:
                await quietly(self.bot.edit_message_caption(
                    chat_id=old.chat_id, message_id=old.message_id,
                    caption="⤵", reply_markup=None))
        await self.p.uc.forget_board_message(old.id)

    async def edit_tapped(self, mv: MatchView, message: Message | None, *,
                          inline_message_id: str | None = None, selected: int | None = None,
                          caption_too: bool = True, notes: Sequence[str] = ()) -> None:
        """A tap inside a turn: new caption (the partial play) and keyboard on the same board."""
        if message is None:
            return
        if is_group_match(mv):
            caption, t = self.shared_caption(mv)
        else:
            seat = mv.seat_of(message.chat_id)
            if seat is None:
                return
            caption, t = self.seat_caption(mv, seat)
        if notes:
            caption = "\n".join((*notes, caption))
        markup = self.keyboard(t, mv, selected=selected)
        try:
            if caption_too:
                await retrying(lambda: message.edit_caption(caption, parse_mode=HTML,
                                                            reply_markup=markup))
            else:
                await retrying(lambda: message.edit_reply_markup(reply_markup=markup))
        except BadRequest as exc:
            if not_modified(exc):
                return
            if gone(exc):
                await self.show(mv)
                return
            raise

    # -- notices ---------------------------------------------------------------------------

    async def notify_private(self, mv: MatchView, seat: int) -> None:
        """Tell the player who must act in a group, privately, if they started the bot."""
        player = mv.seats[seat].player
        if player is None or not player.can_message:
            return
        t = self.p.t_user(player)
        try:
            await self.bot.send_message(
                player.id, t._("🎲 Your turn in the group match #{id}.", id=mv.id),
                disable_notification=False)
        except Forbidden:
            await self.p.uc.set_can_message(player.id, False)
        except TelegramError as exc:
            log.info("could not notify %s: %s", player.id, exc)

    async def update_inline_card(self, mv: MatchView) -> None:
        imid = mv.place.inline_message_id
        if not imid:
            return
        t = self.p.t_user(mv.seats[0].player)
        n = names(t, mv)
        lines = ["🎲 " + t._("Portes") + " · " + texts.score_line(t, mv.state, n)]
        seat = mv.to_act
        if seat is not None:
            lines.append(t._("{player} to move.", player=n[seat]))
        elif mv.state.phase == Phase.MATCH_OVER and mv.state.winner is not None:
            lines.append(t._("🏆 {player} wins the match {s0}–{s1}.",
                             player=n[mv.state.winner], s0=mv.state.score[0],
                             s1=mv.state.score[1]))
        elif mv.status.is_over:
            lines.append(t._("This match is over."))
        markup = None
        if not mv.status.is_over:
            markup = url_keyboard("▶ " + t._("Open my board"), self.p.link(f"m{mv.id}"))
        await quietly(self.bot.edit_message_text(
            "\n".join(lines), inline_message_id=imid, parse_mode=HTML, reply_markup=markup))

    async def match_over(self, mv: MatchView) -> None:
        """The dice seed revealed with how to verify it (and, for a finished match, Rematch)."""
        fair = await self.p.uc.fairness(mv.id)
        if fair is None or fair.seed_hex is None:
            return
        targets: list[tuple[int, Tr, int | None]] = []
        if is_group_match(mv) and mv.place.chat_id is not None:
            targets.append((mv.place.chat_id, self.p.t_match_chat(mv), mv.place.thread_id))
        else:
            for seat in mv.seats:
                if seat.player is not None and seat.player.can_message:
                    targets.append((seat.player.id, self.p.t_user(seat.player), None))
        for chat_id, t, thread in targets:
            text = t._("🔐 The dice seed was {seed} (SHA-256 {commitment}, announced before the "
                       "match). Recompute every roll with:", seed=f"<code>{fair.seed_hex}</code>",
                       commitment=f"<code>{fair.commitment[:16]}…</code>")
            text += f"\n<code>{fair.verify_command}</code>"
            await quietly(self.bot.send_message(chat_id, text, parse_mode=HTML,
                                                message_thread_id=thread))

    async def left_group(self, chat_id: int) -> None:
        """The bot can no longer post in a group: its active matches go on in the players'
        private chats (moved once, however often this is called), each player is told and
        gets their board there."""
        for mv in await self.p.uc.move_to_private(chat_id):
            self.p.remember(mv)
            for seat in mv.seats:
                player = seat.player
                if player is None or not player.can_message:
                    continue
                t = self.p.t_user(player)
                await quietly(self.bot.send_message(player.id, t._(
                    "The bot was removed from the group of match #{id}. The match goes on here, "
                    "in private: your board follows (/games brings it back, /resign ends the "
                    "match).", id=mv.id)))
            await self.show(mv)
