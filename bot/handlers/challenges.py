"""Challenges: the /new card's choices (against a person or the computer), Accept, Withdraw, a
challenge opened from a deep link (inline mode's cards: ``bot.handlers.inline``)."""

from __future__ import annotations

import html
import re
import urllib.parse

from telegram import Message, Update, User
from telegram.constants import ChatType

from bot.delivery.telegram import is_group, quietly
from bot.handlers.common import HTML, Ctx, finish
from bot.handlers.inline import on_uncommitted_accept
from bot.state import Portes, is_group_match, tapped
from bot.views import texts
from bot.views.callbacks import Action, Callback
from bot.views.games import (
    CAFE_GAMES,
    GAME_OF_LETTER,
    cafe_default,
    cafe_line,
    game_line,
    game_name,
)
from bot.views.i18n import Tr, tr
from bot.views.keyboards import (
    challenge_keyboard,
    computer_card_keyboard,
    computer_challenge_keyboard,
    new_card_keyboard,
    offered_levels_for,
)
from bot.views.lang_defaults import no_triple_default
from bot.views.player_settings import move_seconds_of
from computer.decide import default_level
from rules.game import DEFAULT_KIND, find_kind
from storage.results import ChallengeView

# matched with fullmatch: the whole argument or nothing
NEW_ARG_RE = re.compile(
    r"(o?)([1357tn])([tn]?)([0-9]*)(?:h([0-9]{1,3}))?g([a-z])(?:w([01]))?")
NEW_COMPUTER_ARG_RE = re.compile(r"([ol1357])([tn])([123])g([a-z])")
"""The last group, ``g`` and a letter, is the game chosen; ``w`` and 0 or 1 (NEW_ARG_RE), the
café start switch (none: the game's default, :func:`bot.views.games.cafe_default`). Against
the computer the first is ``l`` (a level chosen), ``o`` (the card drawn: from the card against
a person, or "no triple" switched) or a length, and the third the level the card showed."""


async def show_challenge_privately(p: Portes, t: Tr, msg: Message, c: ChallengeView,
                                   user_id: int) -> None:
    """A challenge opened from its deep link: its card, with Accept (or Withdraw, for its
    author)."""
    author, target = texts.challenge_names(c)
    text = texts.challenge_card_text(t, c, author, target, p.settings.timeouts.move_timeout)
    if c.status != "open":
        await msg.reply_text(texts.error_text(t, "expired"))
        return
    mine = c.author.id == user_id
    await msg.reply_text(text, parse_mode=HTML, reply_markup=challenge_keyboard(
        t, c.id, accept=not mine, cancel=mine))


async def show_new_card(msg: Message, t: Tr, no_triple: bool, target: int | None,
                        hours: int | None, default_move: float, *, edit: bool, owner: int,
                        game: str = DEFAULT_KIND, cafe: bool | None = None) -> Message:
    """The /new card (sent as a reply to /new, or ``edit``-ed in place after a choice): the
    games (Portes ticked until another is chosen), the lengths, the times per move with
    ``hours`` ticked (``None``: the operator's default), the "no triple" switch, and in a
    private chat the way to a match against the computer; where it applies, the café start
    (``cafe``; ``None``: the game's default). ``owner``: the player who sent /new."""
    text = texts.new_card_text(t, no_triple, hours * 3600 if hours else default_move)
    if game != DEFAULT_KIND:
        text = game_line(t, game) + "\n" + text
    on = cafe_default(game) if cafe is None else cafe
    line = cafe_line(t, game, on)
    if line:
        text += "\n" + line
    markup = new_card_keyboard(t, no_triple, target, owner=owner,
                               computer=msg.chat.type == ChatType.PRIVATE, hours=hours,
                               default_move=default_move, game=game, cafe=on,
                               group=msg.chat.type != ChatType.PRIVATE and target is None)
    if edit:
        edited = await msg.edit_text(text, reply_markup=markup)
        return edited if isinstance(edited, Message) else msg
    return await msg.reply_text(text, reply_markup=markup, do_quote=True)


async def on_new_card(update: Update, context: Ctx, cb: Callback) -> None:
    """The /new card: the "no triple" switch, Cancel, or a length (creating the challenge)."""
    p, q, t = await tapped(update, context)
    user = q.from_user
    msg = q.message if isinstance(q.message, Message) else None
    if msg is None:
        await q.answer()
        return
    author = msg.reply_to_message.from_user if msg.reply_to_message else None
    if msg.chat.type != ChatType.PRIVATE and (author is None or author.id != user.id):
        await q.answer(t._("Only the player who typed /new can choose."), show_alert=True)
        return
    if cb.action == Action.NEW_CANCEL:
        await q.answer()
        await quietly(msg.delete())
        return
    m = NEW_ARG_RE.fullmatch(cb.arg or "")
    if not m:
        await q.answer(texts.error_text(t, "stale"), show_alert=True)
        return
    toggle, first, flag, target_raw, hours_raw, letter, cafe_raw = m.groups()
    game = GAME_OF_LETTER.get(letter)
    if game is None:
        await q.answer(texts.error_text(t, "stale"), show_alert=True)
        return
    target = int(target_raw) if target_raw else None
    hours = int(hours_raw) if hours_raw else None
    cafe = (cafe_raw == "1" if cafe_raw else cafe_default(game)) and game in CAFE_GAMES
    default = p.settings.timeouts.move_timeout
    try:
        move_seconds = move_seconds_of(hours, default)
    except ValueError:
        await q.answer(texts.error_text(t, "stale"), show_alert=True)
        return
    if toggle:
        await q.answer()
        ct = await p.t_in(msg.chat, user)
        await quietly(show_new_card(msg, ct, first == "n", target, hours, default, edit=True,
                                    owner=user.id, game=game, cafe=cafe))
        return
    length = int(first)
    no_triple = flag == "n" and find_kind(game).triple  # ticked in Turkish, kept on a game switch
    group = is_group(msg.chat)
    thread = msg.message_thread_id if (group and msg.is_topic_message) else None
    res = await p.uc.create_challenge(
        user.id, length=length, no_triple=no_triple,
        chat_id=msg.chat.id if group else None, group=group, thread_id=thread, target_id=target,
        move_seconds=move_seconds, game_type=game, winner_starts=cafe)
    if not res.ok or res.challenge is None:
        await q.answer(texts.error_text(t, res.code or "error"), show_alert=True)
        return
    await q.answer()
    await show_challenge_card(p, t, msg, res.challenge, group, user)


async def show_challenge_card(p: Portes, t: Tr, msg: Message, c: ChallengeView,
                              group: bool, user: User, *, edit: bool = True) -> None:
    """The /new card becomes the challenge's card (``edit``; else the card is a reply to
    ``msg``, a ``/new`` that named its game and length): in a group with Accept (in the
    group's language); in a private chat with the link to send a friend."""
    default = p.settings.timeouts.move_timeout
    author_name, target_name = texts.challenge_names(c)
    if group:
        ct = tr(await p.lang_for_chat(msg.chat.id, user))
        text = texts.challenge_card_text(ct, c, author_name, target_name, default)
        markup = challenge_keyboard(ct, c.id)
    else:
        link = p.link(f"c{c.token}")
        share = "https://t.me/share/url?" + urllib.parse.urlencode(
            {"url": link, "text": t._("Play Portes with me!") if c.game_type == DEFAULT_KIND else
             t._("Play {game} with me!", game=game_name(t, c.game_type))})
        text = texts.challenge_card_text(t, c, author_name, target_name, default) + "\n\n" + t._(
            "Send this link to a friend: {link}", link=link)
        markup = challenge_keyboard(t, c.id, accept=False, share_url=share)
    if edit:
        await msg.edit_text(text, parse_mode=HTML, disable_web_page_preview=True,
                            reply_markup=markup)
        card = msg
    else:
        card = await msg.reply_text(text, parse_mode=HTML, disable_web_page_preview=True,
                                    reply_markup=markup, do_quote=True)
    await p.card_shown(c.id, chat_id=card.chat.id, message_id=card.message_id)


async def new_from_args(p: Portes, t: Tr, msg: Message, user: User, target: int | None,
                        game: str, length: int) -> None:
    """``/new plakoto 5``: the challenge made at once, with the card's defaults for the rest
    (the operator's time per move, backgammons counting 3 unless the language's players count
    them 2 (:mod:`bot.views.lang_defaults`), the game's café start)."""
    group = is_group(msg.chat)
    thread = msg.message_thread_id if (group and msg.is_topic_message) else None
    res = await p.uc.create_challenge(
        user.id, length=length, no_triple=no_triple_default(t.lang) and find_kind(game).triple,
        chat_id=msg.chat.id if group else None, group=group, thread_id=thread, target_id=target,
        move_seconds=None, game_type=game, winner_starts=cafe_default(game) and game in CAFE_GAMES)
    if not res.ok or res.challenge is None:
        await msg.reply_text(texts.error_text(t, res.code or "error"), do_quote=True)
        return
    await show_challenge_card(p, t, msg, res.challenge, group, user, edit=False)


async def on_new_computer(update: Update, context: Ctx, cb: Callback) -> None:
    """The /new card in a private chat, against the computer: choose the level and length;
    the challenge is created with its dice commitment, and the player's Start tap begins it.

    A level tapped is the player's (stored at once, then the card drawn again, which may wait
    a second or two for the chat's budget): a length tapped meanwhile on the card as it was
    still starts at the level chosen, and the challenge's card names it before Start."""
    p, q, t = await tapped(update, context)
    user = q.from_user
    msg = q.message if isinstance(q.message, Message) else None
    m = NEW_COMPUTER_ARG_RE.fullmatch(cb.arg or "")
    if msg is None or msg.chat.type != ChatType.PRIVATE or not m:
        await q.answer(texts.error_text(t, "stale"), show_alert=True)
        return
    mode, flag, level_raw, letter = m.groups()
    no_triple = flag == "n"
    game = GAME_OF_LETTER.get(letter) if letter else None
    if game is None:
        await q.answer(texts.error_text(t, "stale"), show_alert=True)
        return
    level = await card_level(p, user.id, game, int(level_raw), chosen=mode == "l")
    if mode in ("o", "l"):
        # the answer comes at once, the card when the chat's budget allows
        await q.answer(t._("🤖 Level: {level}", level=texts.level_text(t, level))
                       if mode == "l" else None)
        text = texts.computer_card_text(t, no_triple)
        if game != DEFAULT_KIND:
            text = game_line(t, game) + "\n" + text
        await quietly(msg.edit_text(text, reply_markup=computer_card_keyboard(
            t, no_triple, level, game, owner=user.id)))
        return
    res = await p.uc.create_challenge(user.id, length=int(mode), no_triple=no_triple,
                                      computer_level=level, game_type=game,
                                      winner_starts=cafe_default(game))
    if not res.ok or res.challenge is None:
        await q.answer(texts.error_text(t, res.code or "error"), show_alert=True)
        return
    await q.answer()
    c = res.challenge
    await msg.edit_text(texts.computer_challenge_text(t, c), parse_mode=HTML,
                        reply_markup=computer_challenge_keyboard(t, c.id))
    await p.card_shown(c.id, chat_id=msg.chat.id, message_id=msg.message_id)


async def card_level(p: Portes, user_id: int, game: str, shown: int, *, chosen: bool) -> int:
    """The computer's level of a tap on its /new card: a level ``chosen`` is remembered for the
    player and used; otherwise the one the player chose last, when ``game`` offers it, else the
    one the card showed (``shown``; a level no longer offered, after gnubg-nn was uninstalled,
    becomes the game's default)."""
    offered = offered_levels_for(game)
    if chosen and shown in offered:
        await p.uc.set_computer_level(user_id, shown)
        return shown
    last = await p.uc.computer_level(user_id)
    if last in offered:
        return last
    if shown in offered:
        return shown
    return default_level(game)


async def on_accept(update: Update, context: Ctx, cb: Callback) -> None:
    """Accept (or Start, against the computer): the match begins."""
    if cb.match_id == 0:
        await on_uncommitted_accept(update, context, cb)
        return
    p, q, t = await tapped(update, context, see=True)
    user = q.from_user
    challenge_id = cb.match_id
    challenge = await p.uc.get_challenge(challenge_id)
    if challenge is None:
        await q.answer(texts.error_text(t, "expired"), show_alert=True)
        return
    if challenge.author.id == user.id and challenge.computer_level is None:
        await q.answer(texts.error_text(t, "own_challenge"), show_alert=True)
        return
    if challenge.place.chat_id is None:
        # Played in private chats: the acceptor must have started the bot.
        player = await p.uc.get_player(user.id)
        if player is None or not player.can_message:
            await q.answer(url=p.link(f"c{challenge.token}"))
            return
    res = await p.uc.accept_challenge(challenge_id, user.id, mix=q.id,
                                      inline_message_id=q.inline_message_id)
    if not res.ok or res.match is None:
        code = res.code or "error"
        await q.answer(texts.error_text(t, "expired" if code == "challenge_closed" else code),
                       show_alert=True)
        return
    await q.answer()
    mv = res.match
    msg = q.message if isinstance(q.message, Message) else None
    author_name, _ = texts.challenge_names(challenge)
    ct = p.t_match_chat(mv) if is_group_match(mv) else t
    acceptor = (ct._("Computer") if challenge.computer_level is not None
                else html.escape(user.full_name))
    started = ct._("{author} vs {acceptor}: the match has started.", author=author_name,
                   acceptor=acceptor)
    if msg is not None and not q.inline_message_id:
        await quietly(msg.edit_text(started, parse_mode=HTML))
    # the author's own card (the link card in their private chat) no longer offers anything
    card_chat, card_id = challenge.card_chat_id, challenge.card_message_id
    if card_chat is not None and card_id is not None and (
            msg is None or (msg.chat_id, msg.message_id) != (card_chat, card_id)):
        at = p.t_user(challenge.author)
        await quietly(context.bot.edit_message_text(
            at._("{author} vs {acceptor}: the match has started.", author=author_name,
                 acceptor=html.escape(user.full_name)),
            chat_id=card_chat, message_id=card_id, parse_mode=HTML))
    await finish(context, mv, res)


async def on_withdraw(update: Update, context: Ctx, cb: Callback) -> None:
    """Withdraw: the challenger takes the challenge back."""
    p, q, t = await tapped(update, context)
    res = await p.uc.cancel_challenge(cb.match_id, q.from_user.id)
    if not res.ok:
        code = {"not_author": "not_for_you", "challenge_closed": "expired"}.get(
            res.code or "", res.code or "error")
        if res.code == "not_author":
            await q.answer(t._("Only the challenger can withdraw this challenge."),
                           show_alert=True)
        else:
            await q.answer(texts.error_text(t, code), show_alert=True)
        return
    await q.answer()
    text = t._("Challenge withdrawn.")
    if q.inline_message_id:
        await quietly(context.bot.edit_message_text(text, inline_message_id=q.inline_message_id))
    elif isinstance(q.message, Message):
        await quietly(q.message.edit_text(text))
