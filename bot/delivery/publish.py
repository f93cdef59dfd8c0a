"""Showing a match: captions and keyboards of boards, inline cards, notices.

What each chat shows is a projection of the database: every accepted action writes, in its own
transaction, what each place of the match should show (the outbox, see
:mod:`storage.delivery.outbox`), and the delivery worker (:mod:`bot.delivery.worker`) makes Telegram
match it. :meth:`Publisher.show` only kicks that worker (no Telegram call between the commit and
the board, nor any other message about the match: see :mod:`bot.delivery.notices`), then starts
the computer's turn.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from telegram import Bot
from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Markup
from telegram.constants import ParseMode
from telegram.error import BadRequest

from bot.delivery.telegram import gone, not_modified, quietly
from bot.state import Portes, is_group_match, mention, plays_privately
from bot.views import texts
from bot.views.accuracy import end_lines as accuracy_lines
from bot.views.board_image import SHARED_SIDE
from bot.views.games import draw_text, game_title
from bot.views.group_moves import group_moves_keyboard
from bot.views.i18n import Tr
from bot.views.keyboards import rematch_keyboard, turn_keyboard, url_keyboard
from bot.views.play import block_button
from bot.views.texts import names
from rules.common.scoring import GameKind
from rules.game import find_kind
from rules.match import Event, Phase
from storage.delivery.claims import KeyboardAsked
from storage.results import BoardMessageView, LoggedTurn, MatchStatus, MatchView, PlayerView

log = logging.getLogger("bot.delivery.publish")
HTML = ParseMode.HTML
STUB = "⤵"
"""What an old board becomes when Telegram refuses to delete it (older than 48 h)."""


def end_lines(t: Tr, mv: MatchView) -> list[str]:
    """Under a match's end: the rating changes, then the accuracy figures once judged."""
    seat_names = names(t, mv)
    return [*texts.rating_lines(t, mv),
            *accuracy_lines(t, mv, (seat_names[0], seat_names[1]))]


def event_notes(t: Tr, mv: MatchView, notes: Sequence[dict[str, Any]]) -> list[str]:
    """What happened, in the order it happened (``notes``: :func:`storage.delivery.outbox.notes_of`
    of the action's events): each turn played (a forced one with its note under it), each game's
    result after the play that ended it, and on the first board the dice commitment with the
    value mixed in. A new game's opening roll is not among them: the caption says it (see
    ``texts.caption``); nor is a reminder: it heads the caption (:func:`reminder_lines`)."""
    n = names(t, mv)
    lines: list[str] = []
    for note in notes:
        if note["k"] == "turn":
            lines.append(texts.play_line(t, n, note["player"], note["dice"], not note["passed"],
                                         note["text"]))
            if note["forced"] and not note["passed"]:
                lines.append(t._("(forced: the only legal play)"))
        elif note["k"] == "end":
            lines.append("🏁 " + texts.game_result_text(
                t, n, note["winner"], GameKind(note["kind"]), note["points"], note["resigned"]))
        elif note["k"] == "draw":
            lines.append("🤝 " + draw_text(t))
        elif note["k"] == "declined":
            lines.append(t._("✋ {player} declined the resignation.", player=n[note["player"]]))
        elif note["k"] == "start" and note["game"] == 1 and mv.mix is not None:
            lines.append(texts.dice_start_text(t, mv.commitment, mv.mix))
    return lines


def reminder_lines(t: Tr, mv: MatchView, notes: Sequence[dict[str, Any]], *,
                   shared: bool) -> list[str]:
    """A reminder's line, at the top of the board posted again for the player who is waited
    for (a ``remind`` note, see :meth:`storage.usecases.DeliveryCases.redeliver`): how long
    they were waited for and how long they have left, or the last warning before the loss; on
    the group's board it mentions them."""
    lines: list[str] = []
    for note in notes:
        if note["k"] != "remind":
            continue
        player = mv.seats[note["seat"]].player
        who = mention(player) if shared and player is not None else None
        how_long = texts.duration(t, timedelta(seconds=note["waited_s"]))
        if note.get("left_s") is None:  # a note written before reminders told the time left
            lines.append(t._("⏰ {player}, your move in match #{id} (waiting for {waited}).",
                             player=who, id=mv.id, waited=how_long) if who else
                         t._("⏰ Your move in match #{id} (waiting for {waited}).", id=mv.id,
                             waited=how_long))
            continue
        left = texts.duration(t, timedelta(seconds=note["left_s"]))
        lines.append(reminder_line(t, mv.id, who, how_long, left, last=bool(note.get("last"))))
    return lines


def reminder_line(t: Tr, match_id: int, who: str | None, waited: str, left: str, *,
                  last: bool) -> str:
    """One reminder (``who``: the mention on a group's board), or the last warning."""
    if last and who:
        return t._("⏰ {player}, last call in match #{id}: {left} left to move, then the match "
                   "is lost.", player=who, id=match_id, left=left)
    if last:
        return t._("⏰ Last call in match #{id}: {left} left to move, then you lose the match.",
                   id=match_id, left=left)
    if who:
        return t._("⏰ {player}, your move in match #{id} (waiting for {waited}; {left} left).",
                   player=who, id=match_id, waited=waited, left=left)
    return t._("⏰ Your move in match #{id} (waiting for {waited}; {left} left).", id=match_id,
               waited=waited, left=left)


async def take_down(bot: Bot, chat_id: int, message_id: int) -> None:
    """Delete a board of the bot; when Telegram refuses (older than 48 h), edit it to the
    :data:`STUB`, without buttons. Done twice it changes nothing (a message already deleted
    is "not found", a stub already made "not modified"), so after a lost answer it is simply
    made again: that second try is the probe. A failure that may pass (a 5xx, a network
    drop, a 429) is raised, for the delivery worker to try again; a refusal that will not
    pass (the message cannot be edited either) is logged: there is nothing more to do."""
    try:
        await bot.delete_message(chat_id, message_id)
        return
    except BadRequest as exc:
        if gone(exc):
            return
    try:
        await bot.edit_message_caption(chat_id=chat_id, message_id=message_id, caption=STUB,
                                       reply_markup=None)
    except BadRequest as exc:
        if not (not_modified(exc) or gone(exc)):
            log.info("board %s in %s cannot be taken down: %s", message_id, chat_id,
                     exc.message)


class Publisher:
    def __init__(self, portes: Portes, bot: Bot) -> None:
        self.p = portes
        self.bot = bot

    # -- captions and keyboards ------------------------------------------------------------

    def shared_caption(self, mv: MatchView, notes: Sequence[dict[str, Any]] = (),
                       game_log: Sequence[LoggedTurn] = ()) -> tuple[str, Tr]:
        t = self.p.t_match_chat(mv)
        text = texts.caption(t, mv.state, names(t, mv), viewer=None,
                             notes=event_notes(t, mv, notes), ratings=end_lines(t, mv),
                             game_log=game_log, sides=True)
        seat = mv.to_act
        if seat is not None and not mv.seats[seat].is_computer:
            player = mv.seats[seat].player
            if player is not None:
                text += "\n" + self._awaited(t, mv, player)
        text = self._with_time_left(t, mv, text)
        return "\n".join((*reminder_lines(t, mv, notes, shared=True), text)), t

    def _with_time_left(self, t: Tr, mv: MatchView, text: str) -> str:
        """The caption with the time the player to act has left (a person, while the match
        goes on: ``turn_deadline``), within the caption's limit."""
        line = None
        if mv.status == MatchStatus.ACTIVE and mv.to_act is not None and (
                not mv.seats[mv.to_act].is_computer):
            line = texts.time_left_line(t, mv.turn_deadline, self.p.uc.now())
        if line is None or len(text) + 1 + len(line) > texts.CAPTION_LIMIT:
            return text
        return text + "\n" + line

    @staticmethod
    def _awaited(t: Tr, mv: MatchView, player: PlayerView) -> str:
        who = mention(player)
        offer = mv.state.phase == Phase.RESIGN_OFFERED
        if plays_privately(mv, mv.to_act):
            if offer:
                return t._("👉 {player}, accept or decline the offer in our private chat.",
                           player=who)
            return t._("👉 {player}, your move: your board is in our private chat.",
                       player=who)
        if offer:
            return t._("👉 {player}, accept or decline the offer.", player=who)
        return t._("👉 {player}, your move.", player=who)

    def seat_caption(
        self, mv: MatchView, seat: int, notes: Sequence[dict[str, Any]] = (),
        game_log: Sequence[LoggedTurn] = (),
    ) -> tuple[str, Tr]:
        t = self.p.t_user(mv.seats[seat].player)
        text = texts.caption(t, mv.state, names(t, mv), viewer=seat,
                             notes=event_notes(t, mv, notes), ratings=end_lines(t, mv),
                             game_log=game_log)
        text = self._with_time_left(t, mv, text)
        return "\n".join((*reminder_lines(t, mv, notes, shared=False), text)), t

    def keyboard(self, t: Tr, mv: MatchView, *, selected: int | None = None) -> Markup | None:
        if mv.status == MatchStatus.ACTIVE:
            return turn_keyboard(t, mv.id, mv.version, mv.state, selected=selected,
                                 direct_limit=self.p.settings.plays_direct,
                                 hint=(mv.computer_level is not None and not mv.computer_to_act
                                       and find_kind(mv.state.game_type).reviews))
        if mv.state.phase == Phase.MATCH_OVER:
            return rematch_keyboard(t, mv.id, review=find_kind(mv.state.game_type).reviews)
        return None

    def shared_keyboard(self, t: Tr, mv: MatchView, *,
                        selected: int | None = None) -> Markup | None:
        """A group's board: the turn's buttons, unless the one to act plays on a private
        board; then a link to it. Under the turn's buttons, a link that starts the bot: the
        player who plays here gets their turns in private from then on."""
        if mv.status == MatchStatus.ACTIVE and plays_privately(mv, mv.to_act):
            return url_keyboard("▶ " + t._("Play in the private chat"), self.p.link(f"m{mv.id}"))
        markup = self.moves_at_once(t, mv) or self.keyboard(t, mv, selected=selected)
        seat = mv.to_act
        if markup is None or seat is None or mv.seats[seat].is_computer:
            return markup
        # the mover plays here because they never started the bot: one Start (the deep link)
        # and their turns come to a private board, where taps cost the group nothing
        return Markup([*markup.inline_keyboard, [Button(
            "🔒 " + t._("Play privately: start the bot"), url=self.p.link(f"m{mv.id}"))]])

    def moves_at_once(self, t: Tr, mv: MatchView) -> Markup | None:
        """A group's board its mover plays on: every move a button, the one that completes
        the play ending the turn (:mod:`bot.views.group_moves`: each tap there is a call in
        the group's 20 a minute); ``None``: the usual keyboard (against the computer too,
        with its Hint)."""
        if mv.status != MatchStatus.ACTIVE or mv.computer_level is not None:
            return None
        return group_moves_keyboard(t, mv.id, mv.version, mv.state,
                                    direct_limit=self.p.settings.plays_direct,
                                    most=self.p.settings.group_moves)

    def seat_keyboard(self, t: Tr, mv: MatchView, seat: int, *,
                      selected: int | None = None) -> Markup | None:
        """A player's private board: the turn's buttons on their turn; Rematch at the end
        of a match played in private (a group match's is on the group's board), and against
        a person "never pair me with them" (find me an opponent's block list)."""
        if mv.to_act == seat or (mv.status.is_over and not is_group_match(mv)):
            markup = self.keyboard(t, mv, selected=selected)
            other = mv.seats[1 - seat].player
            if mv.status.is_over and markup is not None and other is not None:
                markup = Markup([*markup.inline_keyboard, [block_button(t, other.id)]])
            return markup
        return None

    @staticmethod
    def viewer_of_shared(mv: MatchView) -> int:
        """A group's board is drawn from one side for the whole match (:data:`SHARED_SIDE`),
        whoever must act: its spectators see it neither turn round nor renumber."""
        return SHARED_SIDE

    def shared_names(self, mv: MatchView) -> tuple[str, str]:
        """The players' names drawn on a group's board beside their colours, as its caption
        names them (the computer in the group's language), as plain text."""
        n = names(self.p.t_match_chat(mv), mv)
        return html.unescape(n[0]), html.unescape(n[1])

    # -- whole updates ---------------------------------------------------------------------

    async def show(self, mv: MatchView, events: Sequence[Event] = (),
                   chat_keys: Sequence[str] | None = None) -> None:
        """After an action committed: the delivery worker brings every place of the match up
        to date (at once, in the background: the chats the action wrote to, ``chat_keys``
        when the use case said which), the end of a match's notices with them (the seed
        revealed, a timeout, the review: see :mod:`bot.delivery.notices`); then the computer's
        turn."""
        self.p.remember(mv)
        self.p.faults.reached("committed")
        self.p.deliver(mv, chat_keys)
        if not mv.status.is_over and mv.computer_to_act and self.p.computer is not None:
            self.p.spawn(self.p.computer.turn(mv))

    async def bring_back(self, mv: MatchView, seat: int | None, *, shared: bool,
                         notes: list[dict[str, Any]] | None = None) -> bool:
        """Post the match's board again (``/games``, a deep link, a reminder): the group's
        board when ``shared``, and ``seat``'s private board (of a group match: while it is
        their turn), with ``notes`` on its caption (a reminder's, see :func:`reminder_lines`).
        ``False`` when there was nothing to post."""
        keys = await self.p.uc.delivery.redeliver(mv.id, seat=seat, shared=shared, notes=notes)
        if self.p.delivery is not None:
            self.p.delivery.kick(*keys)
        return bool(keys)

    async def retire(self, old: BoardMessageView) -> None:
        """Take down an old board (:func:`take_down`), then forget it. A failure that may
        pass (a 5xx, a network drop, a 429) is raised before it is forgotten: the delivery
        worker holding its place tries again."""
        if old.chat_id is not None and old.message_id is not None:
            await take_down(self.bot, old.chat_id, old.message_id)
        await self.p.uc.forget_board_message(old.id)

    @staticmethod
    def where_chosen(t: Tr, match_id: int, asked: KeyboardAsked,
                     tapped: int) -> tuple[str | None, bool]:
        """The answer to a keyboard-only tap on message ``tapped`` (the checker chosen is
        asked of the board's place by :meth:`~storage.usecases.UseCases.tap`), in the tapper's
        language ``t``: nothing when its board shows the choice at once; an alert when it is
        an old copy (the board to play on is elsewhere); a toast when the choice shows in a
        moment (a worker holds the place: the tapped board may be one just posted and not yet
        recorded; a new board comes)."""
        if asked.live is not None and tapped < asked.live:
            return t._("This is an old copy of the board of match #{id}: play on the newest "
                       "one, below. Your choice is shown there.", id=match_id), True
        if asked.busy:
            return t._("⏳ The board is being updated: your choice shows in a moment."), False
        if asked.repost or asked.live is None:
            return t._("A new board of match #{id} comes in a moment, with your choice.",
                       id=match_id), False
        if tapped > asked.live:
            return t._("This is an old copy of the board of match #{id}: play on the newest "
                       "one, above. Your choice is shown there.", id=match_id), True
        return None, False

    # -- notices ---------------------------------------------------------------------------

    async def update_inline_card(self, mv: MatchView) -> None:
        """The inline card edited now, if the match has one; a failure is only logged (the
        delivery worker edits it with the next action, see :meth:`edit_inline_card`)."""
        await quietly(self.edit_inline_card(mv))

    async def edit_inline_card(self, mv: MatchView) -> None:
        """Edit the match's inline card (the delivery worker's call: a failure is raised, and
        it tries again; "not modified" is success, and so is a card gone)."""
        imid = mv.place.inline_message_id
        if not imid:
            return
        text, markup = self.inline_card(mv)
        try:
            await self.bot.edit_message_text(text, inline_message_id=imid, parse_mode=HTML,
                                             reply_markup=markup)
        except BadRequest as exc:
            if not (not_modified(exc) or gone(exc)):
                raise

    def inline_card(self, mv: MatchView) -> tuple[str, Markup | None]:
        """An inline card's text and buttons: the score, whose turn, and a way to one's board.
        A player the bot cannot message (who never started it, or blocked it) is told on the
        card to start the bot: the button's deep link starts it and brings their board."""
        t = self.p.t_user(mv.seats[0].player)
        n = names(t, mv)
        lines = ["🎲 " + game_title(t, mv.state) + " · " + texts.score_line(t, mv.state, n),
                 texts.colours_line(t, n)]
        seat = mv.to_act
        if seat is not None:
            lines.append(t._("{player} to move.", player=n[seat]))
        elif mv.state.phase == Phase.MATCH_OVER and mv.state.winner is not None:
            lines.append(texts.match_won_text(t, n, mv.state))
        elif mv.status.is_over:
            lines.append(t._("This match is over."))
        if mv.status.is_over:
            return "\n".join(lines), None
        link = self.p.link(f"m{mv.id}")
        rows = []
        unreachable = [i for i, s in enumerate(mv.seats)
                       if s.player is not None and not s.player.can_message]
        for i in unreachable:
            lines.append("⚠️ " + t._("{player}: start the bot to get your board.", player=n[i]))
        if unreachable:
            rows.append([Button("▶ " + t._("Start the bot"), url=link)])
        rows.append([Button("▶ " + t._("Open my board"), url=link)])
        return "\n".join(lines), Markup(rows)
