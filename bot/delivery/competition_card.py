"""A competition's card in its group: drawn from the database, posted or edited.

The sign-up card is the answer to ``/tournament`` and is edited by the taps on it (answers
to taps, like the /new card). From the start on, the card is edited only by the delivery
worker, from the outbox rows each recorded result writes (``standings`` notices, see
:mod:`storage.usecases.competition_progress`), in the group's budget: a league's card is its
standings table, edited in place; a cup's is a bracket picture with the round under it,
posted once by the worker when its first match opens (a ``bracket`` notice, see
:mod:`storage.usecases.competition_cards`; the sign-up card then points to it) and edited in
place with each result. The winner is announced by a ``champion`` notice (a new message: it
notifies).
"""

from __future__ import annotations

import asyncio
import html

from telegram import Bot, InputMediaPhoto, Message
from telegram.error import BadRequest, Forbidden

from bot.delivery.publish import HTML
from bot.delivery.telegram import Unreachable, gone, not_modified
from bot.state import Portes
from bot.views import competitions as views
from bot.views.i18n import Tr, tr
from rendering.bracket import render_bracket
from storage.usecases.competition_views import CompetitionView


async def reader(p: Portes, comp: CompetitionView) -> Tr:
    """The group's language (its /lang, else the organiser's)."""
    return tr(await p.lang_for_chat(comp.chat_id, None))


async def bracket_picture(t: Tr, comp: CompetitionView) -> bytes:
    entries = views.bracket_entries(t, comp)
    title = f"{views.kind_name(t, comp)} #{comp.id}"
    return await asyncio.to_thread(render_bracket, title, views.round_names(t, len(entries)),
                                   entries)


def card_text(t: Tr, comp: CompetitionView) -> str:
    if comp.open:
        return views.signup_text(t, comp)
    if comp.is_league and comp.status != "cancelled":
        return views.standings_text(t, comp)
    return views.heading(t, comp) + "\n\n" + views.cup_caption(t, comp).split("\n\n", 1)[-1]


def pictured(comp: CompetitionView) -> bool:
    """A cup that has started: its card is the bracket picture."""
    return not comp.is_league and comp.status in ("running", "finished")


async def show_card(p: Portes, bot: Bot, comp: CompetitionView, *,
                    reply_to: Message | None = None, edit: Message | None = None,
                    ) -> Message | None:
    """The card as the competition is now: a new message replying to ``reply_to`` (with its
    buttons only when it is the competition's first card), else ``edit`` (the tapped sign-up
    card) edited, else the stored card edited. A cup that has just started gets its bracket
    picture as a new message, which is its card from then on."""
    t = await reader(p, comp)
    if reply_to is not None:
        if pictured(comp):
            photo = await bracket_picture(t, comp)
            return await reply_to.reply_photo(photo, caption=views.cup_caption(t, comp),
                                              parse_mode=HTML, do_quote=True)
        # the buttons only on the card itself: a copy (``/tournament <id>``, or the group's
        # open competition shown again) is read-only, its taps would act on another message
        first = reply_to.chat.id == comp.chat_id and comp.card_message_id is None
        markup = views.card_keyboard(t, comp) if first else None
        return await reply_to.reply_text(card_text(t, comp), parse_mode=HTML,
                                         reply_markup=markup, do_quote=True)
    if pictured(comp):  # started: the sign-up card points to the bracket, posted by the
        # delivery worker (a ``bracket`` notice: :mod:`storage.usecases.competition_cards`)
        await _edit_text(bot, comp, edit, started_text(t, comp))
        return edit
    await _edit_text(bot, comp, edit, card_text(t, comp), views.card_keyboard(t, comp))
    return edit


def started_text(t: Tr, comp: CompetitionView) -> str:
    return views.heading(t, comp) + "\n\n" + t._("The cup has started: its bracket follows.")


async def signup_started(bot: Bot, t: Tr, comp: CompetitionView) -> None:
    """The worker's part before a cup's bracket is posted: its sign-up card (the card until
    then) says the bracket follows. A card that is no text any more (a picture a crashed send
    left, kept as the card) is left to the probe."""
    if comp.card_message_id is None:
        return
    try:
        await bot.edit_message_text(started_text(t, comp), chat_id=comp.chat_id,
                                    message_id=comp.card_message_id, parse_mode=HTML)
    except BadRequest:
        return  # not modified, gone, or not a text
    except Forbidden as exc:
        raise Unreachable(exc.message) from exc


async def _edit_text(bot: Bot, comp: CompetitionView, edit: Message | None, text: str,
                     markup: object = None) -> None:
    try:
        if edit is not None:
            await edit.edit_text(text, parse_mode=HTML, reply_markup=markup)  # type: ignore[arg-type]
        elif comp.card_message_id is not None:
            await bot.edit_message_text(text, chat_id=comp.chat_id,
                                        message_id=comp.card_message_id, parse_mode=HTML,
                                        reply_markup=markup)  # type: ignore[arg-type]
    except BadRequest as exc:
        if not (not_modified(exc) or gone(exc)):
            raise


async def deliver_card(p: Portes, bot: Bot, comp: CompetitionView) -> None:
    """The worker's part (a ``standings`` notice): the card edited in place as the
    competition is now (an edit made twice is "not modified": no probe needed)."""
    t = await reader(p, comp)
    if comp.card_message_id is None:
        return
    try:
        if pictured(comp):
            photo = await bracket_picture(t, comp)
            await bot.edit_message_media(
                InputMediaPhoto(photo, caption=views.cup_caption(t, comp), parse_mode=HTML),
                chat_id=comp.chat_id, message_id=comp.card_message_id)
        else:
            await bot.edit_message_text(card_text(t, comp), chat_id=comp.chat_id,
                                        message_id=comp.card_message_id, parse_mode=HTML)
    except BadRequest as exc:
        if not (not_modified(exc) or gone(exc)):
            raise
    except Forbidden as exc:
        raise Unreachable(exc.message) from exc


def champion_text(t: Tr, comp: CompetitionView) -> str:
    """The winner's announcement (a ``champion`` notice)."""
    return views.champion_text(t, comp) + "\n" + html.escape(
        t._("Final standings: /tournament {id}", id=comp.id))
