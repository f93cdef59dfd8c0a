"""Which taps reach their handler: checked here, once for every button, before any handler runs
(:func:`bot.handlers.router.on_callback`), so that no button can forget it.

Any Telegram client can send any callback data from any message of the bot it sees; a handler
that edits "the tapped message" would then rewrite or delete whatever message was tapped. So:

1. **The button is on the message.** With a tap Telegram sends the message as it is now,
   keyboard included. A tap counts only when its data is that of one of the keyboard's buttons;
   anything else is answered with an alert and changes nothing. One kind of tap not on the
   keyboard goes on: a board's button (:data:`~bot.views.callbacks.ON_BOARD`) of a match, tapped
   on a board of that match, at a version older than the match's (a double tap, or a client a moment
   behind, whose keyboard was redrawn before the tap arrived). Its handler can only refuse it as
   stale, or answer a repeated tap quietly, as before.
2. **A message Telegram no longer shows** (an inaccessible message, too old: no keyboard comes
   with it): a board's buttons count, since their handlers find the message among the match's
   recorded boards and check the version and the seat; so do the buttons whose handlers only
   post something new or answer, after checking the tapper played the match (:data:`POSTING`:
   Rematch, Review, Download, Position, a /games board). Anything else would edit a message we
   cannot see: it asks for the command again.
3. **Inline messages** (cards posted through inline mode; the tap brings no message): the bot
   puts only Accept and Withdraw there, while the card's challenge is open. The challenge they
   name must be the one whose card this inline message is (looked up in the database); Accept
   naming 0 (the card as first posted, before its challenge existed) counts while no challenge
   or an open one is behind the card: its handler then makes the challenge, or shows it again,
   and accepts nothing. Once the challenge is taken, withdrawn or expired the card carries
   links or nothing: no tap counts there.
4. **Personal cards**: the buttons of :data:`~bot.views.callbacks.PERSONAL` carry their card's owner
   (``@<owner>``). In a group, only the owner's taps act on the card. Anyone else tapping a view
   (/top's and /stats's game switch, a replay's steps: the router's ``VIEWS``) gets that view in
   a new message of their own, and the card stays as it was; a tap on anything else (/new's
   choices, "which match?", /resign's card, /games's Close) gets an alert. In a private
   chat the tapper is the owner. A card from before owners were recorded has none: in a group it
   is nobody's, so views come anew and the rest asks for the command again.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import Enum

from telegram import CallbackQuery, Message
from telegram.constants import ChatType

from bot.handlers.common import from_its_board
from bot.state import Portes
from bot.views.callbacks import ON_BOARD, PERSONAL, Action, Callback
from bot.views.i18n import Tr
from storage.results import ChallengeStatus

INLINE = frozenset({Action.ACCEPT, Action.WITHDRAW})
"""The only buttons the bot puts on inline messages (an inline challenge card's)."""

POSTING = frozenset({Action.REMATCH, Action.REVIEW, Action.DOWNLOAD, Action.POSITION,
                     Action.SHOW})
"""Buttons whose handlers never edit or delete the tapped message: they check that the tapper
played the match, then post something new (a card, a review, a document, a board) or answer."""

NEW_CARD = frozenset({Action.NEW, Action.NEW_CANCEL, Action.NEW_COMPUTER})
PICK = frozenset({Action.PICK_PLAY, Action.PICK_RESIGN})


class Passed(Enum):
    """How an admitted tap goes on."""

    GO = "go"
    """To its handler, as tapped."""
    ANEW = "anew"
    """To its view handler with ``anew``: the tapper's own new message, the card untouched."""


def not_on_message_text(t: Tr) -> str:
    return t._("This button is not on this message; use the buttons it shows now.")


def too_old_text(t: Tr) -> str:
    return t._("This message is too old for its buttons; send the command again.")


def not_theirs_text(t: Tr, action: Action) -> str:
    """The alert for a tap on someone else's card that cannot come anew."""
    if action in NEW_CARD:
        return t._("Only the player who typed /new can choose.")
    if action in PICK:
        return t._("This question is for someone else.")
    return t._("These buttons are for the player who asked for them; send the command yourself "
               "for your own.")


def keyboard_data(msg: Message) -> set[str]:
    """The callback data of every button on ``msg``'s inline keyboard."""
    if msg.reply_markup is None:
        return set()
    return {b.callback_data for row in msg.reply_markup.inline_keyboard for b in row
            if isinstance(b.callback_data, str)}


async def admit(p: Portes, q: CallbackQuery, cb: Callback, t: Tr, *,
                views: Collection[Action]) -> Passed | None:
    """How the tap ``cb`` goes on (``views``: the actions that can answer a non-owner with a
    new message); ``None``: refused, and answered here with an alert."""
    verdict = await check(p, q, cb, t, views)
    if isinstance(verdict, str):
        await q.answer(verdict, show_alert=True)
        return None
    return verdict


async def check(p: Portes, q: CallbackQuery, cb: Callback, t: Tr,
                views: Collection[Action]) -> Passed | str:
    """How the tap goes on, or the text of its refusal (see the module's rules)."""
    if q.inline_message_id is not None:
        if await on_its_inline_card(p, q.inline_message_id, cb):
            return Passed.GO
        return not_on_message_text(t)
    msg = q.message
    if not isinstance(msg, Message) or not msg.is_accessible:
        # python-telegram-bot reads a callback's inaccessible message (date 0) as a Message
        return Passed.GO if cb.action in ON_BOARD | POSTING else too_old_text(t)
    if q.data not in keyboard_data(msg) and not await stale_board_tap(p, q, cb):
        return not_on_message_text(t)
    if (cb.action in PERSONAL and msg.chat.type != ChatType.PRIVATE
            and cb.owner != q.from_user.id):
        return Passed.ANEW if cb.action in views else not_theirs_text(t, cb.action)
    return Passed.GO


async def stale_board_tap(p: Portes, q: CallbackQuery, cb: Callback) -> bool:
    """Whether a tap not on the message's keyboard is a board button of a match, tapped on a
    board of that match, older than the match's version: refused as stale by its handler."""
    if cb.action not in ON_BOARD:
        return False
    mv, _ = await p.view(cb.match_id, cb.version)
    return mv is not None and cb.version < mv.version and await from_its_board(p, q, mv)


async def on_its_inline_card(p: Portes, inline_message_id: str, cb: Callback) -> bool:
    """Whether a tap on an inline message names what that message shows."""
    if cb.action not in INLINE:
        return False
    challenge = await p.uc.get_challenge(inline_message_id=inline_message_id)
    if challenge is None:
        return cb.action == Action.ACCEPT and cb.match_id == 0
    if challenge.status != ChallengeStatus.OPEN:
        return False  # the card shows the match begun, or that it was withdrawn or expired
    return cb.match_id == challenge.id or (cb.action == Action.ACCEPT and cb.match_id == 0)
