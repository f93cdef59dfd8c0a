"""Telegram handlers: decode the update, call one use case, then show the result.

Order of work for a tap: decide and commit through the use case, answer the callback query (an
alert when refused), then update the messages (render, upload).
"""

from __future__ import annotations

import html
import logging
import re
import urllib.parse
from collections.abc import Sequence

from telegram import (
    Chat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Message,
    Update,
)
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import BadRequest, Forbidden
from telegram.ext import ContextTypes

from bot import texts
from bot.callbacks import BOARD_ACTIONS, Action, Callback, decode, encode
from bot.computer_side import level_text, on_hint, on_review
from bot.core import (
    Portes,
    command_sender,
    is_group_match,
    opponent_name,
    portes,
    quietly,
    tapped,
)
from bot.i18n import LANG_NAMES, LANGS, Tr, tr
from bot.keyboards import (
    challenge_keyboard,
    computer_card_keyboard,
    computer_challenge_keyboard,
    inline_accept_keyboard,
    lang_keyboard,
    new_card_keyboard,
    resign_keyboard,
)
from bot.publish import Publisher, turn_changed
from bot.turn import destinations, direct_plays
from rules.match import MATCH_LENGTHS
from storage.results import ActionResult, ChallengeView, MatchSummary, MatchView

log = logging.getLogger("bot.handlers")
HTML = ParseMode.HTML
Ctx = ContextTypes.DEFAULT_TYPE

NEW_ARG_RE = re.compile(r"^(o?)([1357tn])([tn]?)(\d*)$")
INLINE_ARG_RE = re.compile(r"^([1357])([tn])(\d+)$")
PLAY_TEXT_RE = re.compile(r"^\s*(?:(?:bar|b|off|o|\d{1,2})(?:/(?:bar|b|off|o|\d{1,2})\*?)+"
                          r"(?:\(\d\))?\s*)+$", re.IGNORECASE)


def _pub(context: Ctx) -> Publisher:
    return Publisher(portes(context), context.bot)


def _is_group(chat: Chat | None) -> bool:
    return chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


# -- commands -----------------------------------------------------------------------------


async def cmd_start(update: Update, context: Ctx) -> None:
    sender = await command_sender(update, context, starts_in_private=True)
    if sender is None:
        return
    p, msg, user, t = sender
    private = msg.chat.type == ChatType.PRIVATE
    payload = context.args[0] if context.args else ""
    if private and payload.startswith("c") and len(payload) > 1:
        challenge = await p.uc.get_challenge(token=payload[1:])
        if challenge is None:
            await msg.reply_text(texts.error_text(t, "expired"))
            return
        await show_challenge_privately(p, t, msg, challenge, user.id)
        return
    if private and payload.startswith("m") and payload[1:].isdigit():
        res = await p.uc.load_match(int(payload[1:]))
        if res.match is not None and res.match.seat_of(user.id) is not None:
            mv = res.match
            if is_group_match(mv):
                await msg.reply_text(t._("This match is played in its group."))
            else:
                p.touch(user.id, mv.id)
                await _pub(context).post_seat(mv, mv.seat_of(user.id) or 0, new_message=True)
            return
    await msg.reply_text(welcome_text(t, p.username), parse_mode=HTML)


def welcome_text(t: Tr, username: str) -> str:
    return t._(
        "🎲 <b>Portes</b>: Greek backgammon without the doubling cube.\n\n"
        "/new: challenge someone (in a group: anyone, or the person you reply to; here: a link "
        "to send to a friend, or a match against the computer)\n"
        "/games: your matches\n/resign: resign a game or the match\n"
        "/review: review a finished match\n/rules: the rules\n"
        "/lang: Ελληνικά / English\n/help: how to play\n\n"
        "From any chat, type @{bot} and pick a match length to post a challenge.",
        bot=username,
    )


async def cmd_help(update: Update, context: Ctx) -> None:
    p = portes(context)
    msg = update.effective_message
    if msg is None:
        return
    await p.see_user(update.effective_user)
    t = p.t_user(update.effective_user)
    text = welcome_text(t, p.username) + "\n\n" + t._(
        "<b>Playing a turn</b>: the dice roll by themselves. Tap the point a checker leaves, "
        "then where it goes (one die or several); ⟲ Undo takes a move back; ✅ Confirm ends the "
        "turn. When there are only a few possible plays they are offered whole. In a private "
        "chat you may also type a play, such as 24/18 13/11. Forced plays and turns with no "
        "legal move are played for you.\n\n"
        "<b>Fair dice</b>: every match commits to a secret dice seed (its SHA-256 is on the "
        "challenge card) and reveals it at the end, so anyone can recompute every roll.\n\n"
        "<b>Time</b>: you are reminded when it is your move; a match nobody moves on for a "
        "week is lost by the player to move."
    ) + "\n\n" + t._(
        "<b>Against the computer</b>: in the private chat with the bot, /new, then 🤖 Against "
        "the computer; choose a level (Easy, Medium, Strong) and a match length, then tap ▶ "
        "Start. On your turn, 💡 Hint shows the best play and your chances (only in games "
        "against the computer).\n\n"
        "<b>Review</b>: when a match ends, each player gets a review: the equity lost against "
        "the computer's choices, the worst plays with a better one, and the luck of the dice. "
        "/review lists your finished matches (/review 12 for match #12)."
    )
    await msg.reply_text(text, parse_mode=HTML, disable_web_page_preview=True)


async def cmd_rules(update: Update, context: Ctx) -> None:
    p = portes(context)
    msg = update.effective_message
    if msg is None:
        return
    t = p.t_user(update.effective_user)
    await msg.reply_text(rules_text(t), parse_mode=HTML)


def rules_text(t: Tr) -> str:
    return t._(
        "<b>Portes: the rules on one page</b>\n\n"
        "<b>1. Board and set-up.</b> Two players, 15 checkers each, 24 points, two dice. You "
        "number the points 1 to 24 from your home: 2 checkers on 24, 5 on 13, 3 on 8, 5 on 6. "
        "The opponent sets up the mirror image. You move from 24 towards 1; your home is 1-6.\n\n"
        "<b>2. Moving.</b> Each player rolls one die; the higher starts and plays both numbers. "
        "Each die is a separate move. Doubles are played four times. You may land on an empty "
        "point, your own, or a point with one opposing checker; two or more make a door (πόρτα), "
        "closed. If both dice can be played, both must be; if only one, that one; if either but "
        "not both, the larger. If nothing can be played, the turn is lost.\n\n"
        "<b>3. Hitting.</b> Landing on a lone opposing checker hits it to the bar. With a checker "
        "on the bar you move nothing else until it enters in the opponent's home (a 1 enters on "
        "your 24, a 6 on your 19).\n\n"
        "<b>4. Bearing off.</b> Only with all your checkers in your home. A die bears off from "
        "its point; a higher die bears off from your highest point.\n\n"
        "<b>5. Scoring.</b> Single win 1 point; double (gammon, the loser bore off nothing) 2; "
        "triple (backgammon, and a loser's checker is on the bar or in your home) 3, or 2 with "
        "\"no triple\". Matches to 1, 3, 5 or 7 points. No doubling cube.\n\n"
        "<b>6. Resigning.</b> On your turn you may offer to resign the game for 1, 2 or 3 "
        "points; the opponent accepts or declines. You may resign the whole match at any time. "
        "A match nobody has moved in yet may be cancelled."
    )


async def cmd_lang(update: Update, context: Ctx) -> None:
    p = portes(context)
    msg = update.effective_message
    if msg is None:
        return
    await p.see_user(update.effective_user)
    if _is_group(msg.chat):
        t = tr(await p.lang_for_chat(msg.chat.id, update.effective_user))
        text = t._("Language of this group's match cards:")
    else:
        t = p.t_user(update.effective_user)
        text = t._("Your language:")
    await msg.reply_text(text, reply_markup=lang_keyboard())


async def cmd_new(update: Update, context: Ctx) -> None:
    sender = await command_sender(update, context, starts_in_private=True)
    if sender is None:
        return
    p, msg, user, t = sender
    target = None
    if _is_group(msg.chat) and msg.reply_to_message and msg.reply_to_message.from_user:
        other = msg.reply_to_message.from_user
        if not other.is_bot and other.id != user.id:
            target = other.id
            await p.see_user(other)
    await msg.reply_text(new_card_text(t, False), reply_markup=new_card_keyboard(
        t, False, target, computer=msg.chat.type == ChatType.PRIVATE), do_quote=True)


def new_card_text(t: Tr, no_triple: bool) -> str:
    text = t._("New match: choose its length.")
    if no_triple:
        text += "\n" + t._("No triple: a backgammon counts 2 points.")
    return text


async def cmd_games(update: Update, context: Ctx) -> None:
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    matches = await p.uc.list_active_matches(user.id)
    if not matches:
        await msg.reply_text(t._("You have no active match. Start one with /new."))
        return
    lines = [t._("Your matches:")]
    rows = []
    for s in matches[:20]:
        opponent = opponent_name(t, s)  # plain: escaped for the HTML text, not for the buttons
        me, them = s.score[s.my_seat], s.score[1 - s.my_seat]
        state = t._("your move") if s.my_turn else t._("waiting")
        lines.append(f"#{s.id} · {html.escape(opponent)} · {me}–{them}/{s.length} · {state}")
        rows.append([InlineKeyboardButton(f"#{s.id} {opponent} ({state})",
                                          callback_data=encode(Action.SHOW, s.id, s.version))])
    await msg.reply_text("\n".join(lines), parse_mode=HTML,
                         reply_markup=InlineKeyboardMarkup(rows))


def _is_private_match(s: MatchSummary) -> bool:
    return s.place.chat_id is None or s.place.chat_id > 0


def _matches_here(matches: Sequence[MatchSummary], chat: Chat) -> list[MatchSummary]:
    if _is_group(chat):
        return [m for m in matches if m.place.chat_id == chat.id]
    return [m for m in matches if _is_private_match(m)]


async def _replied_board(p: Portes, msg: Message,
                         matches: Sequence[MatchSummary]) -> MatchSummary | None:
    """The match whose board ``msg`` replies to, if it replies to one of theirs."""
    target = msg.reply_to_message
    if target is None or not target.photo:
        return None
    for s in matches:
        mv = (await p.uc.load_match(s.id)).match
        if mv is not None and any(b.chat_id == target.chat_id and b.message_id == target.message_id
                                  for b in mv.board_messages):
            return s
    return None


async def _meant(p: Portes, user_id: int, msg: Message,
                 candidates: Sequence[MatchSummary]) -> MatchSummary | None:
    """The one of ``candidates`` the player means: the only one; the one whose board the
    message replies to; the one whose board they last interacted with (unless a board of
    another match has come to them since). ``None`` when it is not clear: ask.

    The last interaction is remembered in memory; in webhook mode several instances may share
    the updates, and one instance's memory may miss a later tap handled by another, so it is
    not used there (the bot asks)."""
    if len(candidates) == 1:
        return candidates[0]
    replied = await _replied_board(p, msg, candidates)
    if replied is not None:
        return replied
    if p.settings.webhook:
        return None
    focus = p.focused(user_id)
    return next((s for s in candidates if s.id == focus), None)


def match_label(t: Tr, s: MatchSummary) -> str:
    """A match on a button: id, opponent, score (mine first), length."""
    me, them = s.score[s.my_seat], s.score[1 - s.my_seat]
    return f"#{s.id} · {opponent_name(t, s)} · {me}–{them}/{s.length}"


def pick_keyboard(t: Tr, action: Action, matches: Sequence[MatchSummary]) -> InlineKeyboardMarkup:
    """"Which match?": one button per match."""
    return InlineKeyboardMarkup([
        [InlineKeyboardButton(match_label(t, s), callback_data=encode(action, s.id, s.version))]
        for s in matches[:20]])


def resign_card(t: Tr, mv: MatchView, user_id: int) -> tuple[str, InlineKeyboardMarkup]:
    seat = mv.seat_of(user_id)
    text = t._("Match #{id}: resign the current game (your opponent scores the points you "
               "offer, if they accept) or the whole match?", id=mv.id)
    return text, resign_keyboard(t, mv.id, mv.version, mv.state,
                                 my_turn=seat is not None and mv.state.turn == seat)


async def cmd_resign(update: Update, context: Ctx) -> None:
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    here = _matches_here(await p.uc.list_active_matches(user.id), msg.chat)
    if not here:
        await msg.reply_text(t._("You have no match here."))
        return
    summary = await _meant(p, user.id, msg, here)
    if summary is None:
        await msg.reply_text(t._("Which match do you want to resign?"), do_quote=True,
                             reply_markup=pick_keyboard(t, Action.PICK_RESIGN, here))
        return
    res = await p.uc.load_match(summary.id)
    if res.match is None:
        await msg.reply_text(texts.error_text(t, res.code or "not_found"))
        return
    p.touch(user.id, summary.id)
    text, markup = resign_card(t, res.match, user.id)
    await msg.reply_text(text, reply_markup=markup)


# -- challenges ---------------------------------------------------------------------------


def challenge_card_text(t: Tr, c: ChallengeView, author_name: str,
                        target_name: str | None) -> str:
    who = target_name or t._("anyone")
    text = t.ngettext(
        "🎲 {author} challenges {who} to Portes: a match to {n} point.",
        "🎲 {author} challenges {who} to Portes: a match to {n} points.",
        c.length, author=author_name, who=who)
    if c.no_triple:
        text += "\n" + t._("No triple: a backgammon counts 2 points.")
    text += "\n" + t._("Dice commitment (SHA-256): {commitment}",
                       commitment=f"<code>{c.commitment}</code>")
    return text


def _challenge_names(c: ChallengeView) -> tuple[str, str | None]:
    author = html.escape(c.author.display_name)
    target = None
    if c.target is not None:
        target = html.escape(c.target.display_name)
    elif c.target_username:
        target = "@" + html.escape(c.target_username)
    return author, target


async def show_challenge_privately(p: Portes, t: Tr, msg: Message, c: ChallengeView,
                                   user_id: int) -> None:
    author, target = _challenge_names(c)
    text = challenge_card_text(t, c, author, target)
    if c.status != "open":
        await msg.reply_text(texts.error_text(t, "expired"))
        return
    mine = c.author.id == user_id
    await msg.reply_text(text, parse_mode=HTML, reply_markup=challenge_keyboard(
        t, c.id, accept=not mine, cancel=mine))


async def on_new_card(update: Update, context: Ctx, cb: Callback) -> None:
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
    m = NEW_ARG_RE.match(cb.arg or "")
    if not m:
        await q.answer(texts.error_text(t, "stale"), show_alert=True)
        return
    toggle, first, flag, target_raw = m.groups()
    target = int(target_raw) if target_raw else None
    if toggle:
        no_triple = first == "n"
        await q.answer()
        await quietly(msg.edit_text(new_card_text(t, no_triple), reply_markup=new_card_keyboard(
            t, no_triple, target, computer=msg.chat.type == ChatType.PRIVATE)))
        return
    length = int(first)
    no_triple = flag == "n"
    group = _is_group(msg.chat)
    thread = msg.message_thread_id if (group and msg.is_topic_message) else None
    res = await p.uc.create_challenge(
        user.id, length=length, no_triple=no_triple,
        chat_id=msg.chat.id if group else None, thread_id=thread, target_id=target)
    if not res.ok or res.challenge is None:
        await q.answer(texts.error_text(t, res.code or "error"), show_alert=True)
        return
    await q.answer()
    c = res.challenge
    author_name, target_name = _challenge_names(c)
    if group:
        ct = tr(await p.lang_for_chat(msg.chat.id, user))
        await msg.edit_text(challenge_card_text(ct, c, author_name, target_name), parse_mode=HTML,
                            reply_markup=challenge_keyboard(ct, c.id))
    else:
        link = p.link(f"c{c.token}")
        share = "https://t.me/share/url?" + urllib.parse.urlencode(
            {"url": link, "text": t._("Play Portes with me!")})
        text = challenge_card_text(t, c, author_name, target_name) + "\n\n" + t._(
            "Send this link to a friend: {link}", link=link)
        await msg.edit_text(text, parse_mode=HTML, disable_web_page_preview=True,
                            reply_markup=challenge_keyboard(t, c.id, accept=False,
                                                            share_url=share))
    await p.uc.set_challenge_card(c.id, chat_id=msg.chat.id, message_id=msg.message_id)


NEW_COMPUTER_ARG_RE = re.compile(r"^([o1357])([tn])([123])$")


def computer_card_text(t: Tr, no_triple: bool) -> str:
    text = t._("🤖 A match against the computer: choose the level, then the match length.")
    if no_triple:
        text += "\n" + t._("No triple: a backgammon counts 2 points.")
    return text


def computer_challenge_text(t: Tr, c: ChallengeView) -> str:
    text = t.ngettext("🤖 A match against the computer ({level}) to {n} point.",
                      "🤖 A match against the computer ({level}) to {n} points.",
                      c.length, level=level_text(t, c.computer_level))
    if c.no_triple:
        text += "\n" + t._("No triple: a backgammon counts 2 points.")
    text += "\n" + t._("Dice commitment (SHA-256): {commitment}",
                       commitment=f"<code>{c.commitment}</code>")
    text += "\n\n" + t._("Tap Start when you are ready.")
    return text


async def on_new_computer(update: Update, context: Ctx, cb: Callback) -> None:
    """The /new card in a private chat, against the computer: choose the level and length;
    the challenge is created with its dice commitment, and the player's Start tap begins it."""
    p, q, t = await tapped(update, context)
    user = q.from_user
    msg = q.message if isinstance(q.message, Message) else None
    m = NEW_COMPUTER_ARG_RE.match(cb.arg or "")
    if msg is None or msg.chat.type != ChatType.PRIVATE or not m:
        await q.answer(texts.error_text(t, "stale"), show_alert=True)
        return
    mode, flag, level_raw = m.groups()
    no_triple, level = flag == "n", int(level_raw)
    if mode == "o":
        await q.answer()
        await quietly(msg.edit_text(computer_card_text(t, no_triple),
                                    reply_markup=computer_card_keyboard(t, no_triple, level)))
        return
    res = await p.uc.create_challenge(user.id, length=int(mode), no_triple=no_triple,
                                      computer_level=level)
    if not res.ok or res.challenge is None:
        await q.answer(texts.error_text(t, res.code or "error"), show_alert=True)
        return
    await q.answer()
    c = res.challenge
    await msg.edit_text(computer_challenge_text(t, c), parse_mode=HTML,
                        reply_markup=computer_challenge_keyboard(t, c.id))
    await p.uc.set_challenge_card(c.id, chat_id=msg.chat.id, message_id=msg.message_id)


async def on_accept(update: Update, context: Ctx, cb: Callback) -> None:
    p, q, t = await tapped(update, context, see=True)
    user = q.from_user
    challenge_id = cb.match_id
    if challenge_id == 0:
        m = INLINE_ARG_RE.match(cb.arg or "")
        if not m or not q.inline_message_id:
            await q.answer(texts.error_text(t, "stale"), show_alert=True)
            return
        created = await materialise_inline(p, q.inline_message_id, int(m.group(3)),
                                           int(m.group(1)), m.group(2) == "n", context)
        if created is None:
            await q.answer(texts.error_text(t, "error"), show_alert=True)
            return
        challenge_id = created.id
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
    author_name, _ = _challenge_names(challenge)
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


async def materialise_inline(p: Portes, inline_message_id: str, author_id: int, length: int,
                             no_triple: bool, context: Ctx) -> ChallengeView | None:
    """Create the challenge behind an inline card (once), and show its commitment on the card."""
    # a negative key: never a match id
    async with p.locks.hold(-abs(hash(inline_message_id)) - 1):
        known = context.application.bot_data.setdefault("inline_cards", {})
        if inline_message_id in known:
            return await p.uc.get_challenge(known[inline_message_id])
        res = await p.uc.create_challenge(author_id, length=length, no_triple=no_triple,
                                          inline=True)
        if not res.ok or res.challenge is None:
            return None
        c = res.challenge
        known[inline_message_id] = c.id
        await p.uc.set_challenge_card(c.id, inline_message_id=inline_message_id)
        t = p.t_user(c.author)
        author, target = _challenge_names(c)
        await quietly(context.bot.edit_message_text(
            challenge_card_text(t, c, author, target), inline_message_id=inline_message_id,
            parse_mode=HTML, reply_markup=challenge_keyboard(t, c.id, cancel=True)))
        return c


async def on_withdraw(update: Update, context: Ctx, cb: Callback) -> None:
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


async def on_inline_query(update: Update, context: Ctx) -> None:
    p = portes(context)
    q = update.inline_query
    if q is None:
        return
    await p.see_user(q.from_user)
    t = p.t_user(q.from_user)
    query = q.query.lower()
    no_triple_first = "no" in query or "χωρ" in query
    results = []
    name = html.escape(q.from_user.full_name)
    lengths = [n for n in MATCH_LENGTHS if str(n) in query] or list(MATCH_LENGTHS)
    for nt in ((True, False) if no_triple_first else (False, True)):
        for n in lengths:
            title = t.ngettext("Portes: match to {n} point", "Portes: match to {n} points", n)
            if nt:
                title += " · " + t._("no triple")
            text = t.ngettext(
                "🎲 {author} challenges {who} to Portes: a match to {n} point.",
                "🎲 {author} challenges {who} to Portes: a match to {n} points.",
                n, author=name, who=t._("anyone"))
            results.append(InlineQueryResultArticle(
                id=f"{n}{'n' if nt else 't'}", title=title,
                description=t._("Post a challenge with an Accept button"),
                input_message_content=InputTextMessageContent(text, parse_mode=HTML),
                reply_markup=inline_accept_keyboard(t, n, nt, q.from_user.id),
            ))
    await q.answer(results, cache_time=0, is_personal=True)


async def on_chosen_inline(update: Update, context: Ctx) -> None:
    p = portes(context)
    r = update.chosen_inline_result
    if r is None or not r.inline_message_id:
        return
    m = re.match(r"^([1357])([tn])$", r.result_id)
    if not m:
        return
    await materialise_inline(p, r.inline_message_id, r.from_user.id, int(m.group(1)),
                             m.group(2) == "n", context)


# -- the turn -----------------------------------------------------------------------------


def _refusal(t: Tr, res: ActionResult) -> str:
    if res.outcome == "stale":
        return texts.error_text(t, "stale")
    return texts.error_text(t, res.code or "error")


async def on_turn_tap(update: Update, context: Ctx, cb: Callback) -> None:
    p, q, t = await tapped(update, context, see=True)
    user = q.from_user
    msg = q.message if isinstance(q.message, Message) else None
    async with p.locks.hold(cb.match_id):
        mv, code = await p.view(cb.match_id, cb.version)
        if mv is None:
            await q.answer(texts.error_text(t, code or "not_found"), show_alert=True)
            return
        seat = mv.seat_of(user.id)
        if seat is None:
            await q.answer(texts.error_text(t, "not_a_player"), show_alert=True)
            return
        if mv.version != cb.version:
            await q.answer(texts.error_text(t, "stale"), show_alert=True)
            return
        if mv.to_act != seat:
            code = "game_over" if mv.status.is_over else "not_your_turn"
            await q.answer(texts.error_text(t, code), show_alert=True)
            return
        res: ActionResult | None = None
        state = mv.state
        try:
            if cb.action == Action.BACK:
                await q.answer()
                await _pub(context).edit_tapped(mv, msg, caption_too=False)
                return
            if cb.action == Action.FROM:
                dests = destinations(state, cb.int_arg())
                if not dests:
                    await q.answer(texts.error_text(t, "illegal_play"), show_alert=True)
                    return
                if len(dests) > 1:
                    await q.answer()
                    await _pub(context).edit_tapped(mv, msg, selected=cb.int_arg(),
                                                    caption_too=False)
                    return
                res = await p.uc.steps(mv.id, user.id, cb.version, dests[0].moves)
            elif cb.action == Action.MOVE:
                src, dest, variant = cb.move()
                found = [d for d in destinations(state, src)
                         if d.to_point == dest and d.variant == variant]
                if not found:
                    await q.answer(texts.error_text(t, "illegal_play"), show_alert=True)
                    return
                res = await p.uc.steps(mv.id, user.id, cb.version, found[0].moves)
            elif cb.action == Action.PLAY:
                plays = direct_plays(state, p.settings.plays_direct)
                index = cb.int_arg()
                if index >= len(plays):
                    await q.answer(texts.error_text(t, "stale"), show_alert=True)
                    return
                res = await p.uc.play(mv.id, user.id, cb.version, plays[index][0])
            elif cb.action == Action.UNDO:
                res = await p.uc.undo(mv.id, user.id, cb.version)
            elif cb.action == Action.CONFIRM:
                res = await p.uc.confirm(mv.id, user.id, cb.version)
        except ValueError:
            await q.answer(texts.error_text(t, "stale"), show_alert=True)
            return
        if res is None:
            await q.answer()
            return
        p.remember(res.match)
        if not res.ok or res.match is None:
            await q.answer(_refusal(t, res), show_alert=True)
            return
        await q.answer()
        if turn_changed(res.events):
            await finish(context, res.match, res)
        else:
            await _pub(context).edit_tapped(res.match, msg)


async def finish(context: Ctx, mv: MatchView, res: ActionResult) -> None:
    """After an action that changed the turn: new boards, notices, the end of the match."""
    await _pub(context).show(mv, res.events)


async def on_resign(update: Update, context: Ctx, cb: Callback) -> None:
    p, q, t = await tapped(update, context)
    user = q.from_user
    async with p.locks.hold(cb.match_id):
        if cb.action == Action.RESIGN and cb.arg == "m":
            res = await p.uc.resign_match(cb.match_id, user.id, None)
        elif cb.action == Action.RESIGN:
            try:
                points = cb.int_arg()
            except ValueError:
                await q.answer(texts.error_text(t, "stale"), show_alert=True)
                return
            res = await p.uc.offer_resignation(cb.match_id, user.id, cb.version, points)
        elif cb.action == Action.CANCEL:
            res = await p.uc.cancel_match(cb.match_id, user.id, None)
        else:
            res = await p.uc.answer_resignation(cb.match_id, user.id, cb.version,
                                                accept=cb.action == Action.RESIGN_ACCEPT)
        if not res.ok or res.match is None:
            await q.answer(_refusal(t, res), show_alert=True)
            return
        await q.answer()
        msg = q.message if isinstance(q.message, Message) else None
        if msg is not None and cb.action in (Action.RESIGN, Action.CANCEL):
            await quietly(msg.edit_reply_markup(reply_markup=None))
        await finish(context, res.match, res)


async def on_rematch(update: Update, context: Ctx, cb: Callback) -> None:
    p, q, t = await tapped(update, context)
    user = q.from_user
    loaded = await p.uc.load_match(cb.match_id)
    mv = loaded.match
    seat = mv.seat_of(user.id) if mv else None
    if mv is None or seat is None:
        await q.answer(texts.error_text(t, "not_a_player"), show_alert=True)
        return
    other = mv.seats[1 - seat]
    group = is_group_match(mv)
    res = await p.uc.create_challenge(
        user.id, length=mv.length, no_triple=mv.no_triple,
        chat_id=mv.place.chat_id if group else None, thread_id=mv.place.thread_id,
        target_id=other.player.id if other.player else None,
        computer_level=other.computer_level)
    if not res.ok or res.challenge is None:
        await q.answer(texts.error_text(t, res.code or "error"), show_alert=True)
        return
    await q.answer(t._("Rematch offered."))
    c = res.challenge
    author, target = _challenge_names(c)
    if group and mv.place.chat_id is not None:
        ct = p.t_match_chat(mv)
        sent = await context.bot.send_message(
            mv.place.chat_id, challenge_card_text(ct, c, author, target), parse_mode=HTML,
            reply_markup=challenge_keyboard(ct, c.id), message_thread_id=mv.place.thread_id)
        await p.uc.set_challenge_card(c.id, chat_id=sent.chat_id, message_id=sent.message_id)
    elif other.is_computer:
        sent = await context.bot.send_message(
            user.id, computer_challenge_text(t, c), parse_mode=HTML,
            reply_markup=computer_challenge_keyboard(t, c.id))
        await p.uc.set_challenge_card(c.id, chat_id=sent.chat_id, message_id=sent.message_id)
    elif other.player is not None:
        ot = p.t_user(other.player)
        try:
            sent = await context.bot.send_message(
                other.player.id, challenge_card_text(ot, c, author, target), parse_mode=HTML,
                reply_markup=challenge_keyboard(ot, c.id, cancel=False))
            await p.uc.set_challenge_card(c.id, chat_id=sent.chat_id,
                                          message_id=sent.message_id)
        except Forbidden:
            await p.uc.set_can_message(other.player.id, False)


async def on_show(update: Update, context: Ctx, cb: Callback) -> None:
    p, q, t = await tapped(update, context)
    loaded = await p.uc.load_match(cb.match_id)
    mv = loaded.match
    seat = mv.seat_of(q.from_user.id) if mv else None
    if mv is None or seat is None:
        await q.answer(texts.error_text(t, "not_a_player"), show_alert=True)
        return
    await q.answer()
    async with p.locks.hold(mv.id):
        if is_group_match(mv):
            await _pub(context).post_shared(mv)
        else:
            await _pub(context).post_seat(mv, seat, new_message=True)


async def on_lang(update: Update, context: Ctx, cb: Callback) -> None:
    p = portes(context)
    q = update.callback_query
    assert q is not None
    lang = cb.arg if cb.arg in LANGS else "en"
    msg = q.message if isinstance(q.message, Message) else None
    if msg is not None and _is_group(msg.chat):
        await p.uc.set_chat_language(msg.chat.id, lang)
    else:
        user = q.from_user
        await p.uc.upsert_player(user.id, user.full_name, username=user.username, language=lang)
        p.user_lang[user.id] = lang
    await q.answer()
    if msg is not None:
        await quietly(msg.edit_text(tr(lang)._("Language: {name}", name=LANG_NAMES[lang])))


async def on_pick(update: Update, context: Ctx, cb: Callback) -> None:
    """The answer to "which match?": resign that one, or play the typed play there (the
    question replies to the player's message, so the play is read back from it)."""
    p, q, t = await tapped(update, context)
    user = q.from_user
    msg = q.message if isinstance(q.message, Message) else None
    asked = msg.reply_to_message if msg is not None else None
    if msg is None or (asked is not None and asked.from_user is not None
                       and asked.from_user.id != user.id):
        await q.answer(t._("This question is for someone else."), show_alert=True)
        return
    mv, code = await p.view(cb.match_id, cb.version)
    if mv is None or mv.seat_of(user.id) is None:
        await q.answer(texts.error_text(t, code or "not_a_player"), show_alert=True)
        return
    if cb.action == Action.PICK_RESIGN:
        await q.answer()
        text, markup = resign_card(t, mv, user.id)
        await quietly(msg.edit_text(text, reply_markup=markup))
        return
    play = asked.text.strip() if asked is not None and asked.text else ""
    if not PLAY_TEXT_RE.match(play):
        await q.answer(t._("Type your play again."), show_alert=True)
        return
    async with p.locks.hold(mv.id):
        res = await p.uc.play(mv.id, user.id, cb.version, play)
        p.remember(res.match)
        if not res.ok or res.match is None:
            await q.answer(_refusal(t, res), show_alert=True)
            return
        await q.answer()
        await quietly(msg.edit_text(t._("Match #{id}: {play}", id=mv.id, play=play)))
        await finish(context, res.match, res)


ROUTES = {
    Action.FROM: on_turn_tap, Action.MOVE: on_turn_tap, Action.BACK: on_turn_tap,
    Action.PLAY: on_turn_tap, Action.UNDO: on_turn_tap, Action.CONFIRM: on_turn_tap,
    Action.RESIGN: on_resign, Action.RESIGN_ACCEPT: on_resign,
    Action.RESIGN_DECLINE: on_resign, Action.CANCEL: on_resign,
    Action.ACCEPT: on_accept, Action.WITHDRAW: on_withdraw, Action.REMATCH: on_rematch,
    Action.NEW: on_new_card, Action.NEW_CANCEL: on_new_card, Action.SHOW: on_show,
    Action.LANG: on_lang,
    Action.NEW_COMPUTER: on_new_computer, Action.HINT: on_hint, Action.REVIEW: on_review,
    Action.PICK_PLAY: on_pick, Action.PICK_RESIGN: on_pick,
}


async def on_callback(update: Update, context: Ctx) -> None:
    q = update.callback_query
    if q is None:
        return
    cb = decode(q.data)
    if cb is None:
        t = portes(context).t_user(q.from_user)
        await q.answer(texts.error_text(t, "stale"), show_alert=True)
        return
    if cb.action in BOARD_ACTIONS:
        portes(context).touch(q.from_user.id, cb.match_id)
    await ROUTES[cb.action](update, context, cb)


# -- typed plays, groups ------------------------------------------------------------------


async def on_private_text(update: Update, context: Ctx) -> None:
    """A play typed in notation goes to the match the player means (see :func:`_meant`);
    when several are waiting for them and none is clearly meant, the bot asks which."""
    p = portes(context)
    msg = update.effective_message
    user = update.effective_user
    if msg is None or user is None or not msg.text:
        return
    t = p.t_user(user)
    if not PLAY_TEXT_RE.match(msg.text):
        await msg.reply_text(t._("Type a play such as 24/18 13/11, or see /help."))
        return
    play = msg.text.strip()
    mine = [m for m in await p.uc.list_active_matches(user.id) if _is_private_match(m)]
    waiting = [m for m in mine if m.my_turn]
    target = await _replied_board(p, msg, mine)
    if target is None:
        if not waiting:
            await msg.reply_text(t._("It is not your turn in any private match."))
            return
        target = await _meant(p, user.id, msg, waiting)
    if target is None:
        await msg.reply_text(t._("Which match is {play} for?", play=play), do_quote=True,
                             reply_markup=pick_keyboard(t, Action.PICK_PLAY, waiting))
        return
    p.touch(user.id, target.id)
    async with p.locks.hold(target.id):
        res = await p.uc.play(target.id, user.id, target.version, play)
        p.remember(res.match)
        if not res.ok or res.match is None:
            await msg.reply_text(_refusal(t, res))
            return
        await finish(context, res.match, res)


async def on_migrate(update: Update, context: Ctx) -> None:
    p = portes(context)
    msg = update.effective_message
    if msg is None or not msg.migrate_to_chat_id:
        return
    await p.uc.migrate_chat(msg.chat.id, msg.migrate_to_chat_id)  # the group's language too


async def on_my_member(update: Update, context: Ctx) -> None:
    change = update.my_chat_member
    if change is None:
        return
    status = change.new_chat_member.status
    if status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        log.info("removed from chat %s", change.chat.id)
        p = portes(context)
        pub = _pub(context)
        for mv in await p.uc.active_matches_in_chat(change.chat.id):
            p.remember(mv)
            await pub.tell_players_removed(mv)


async def on_error(update: object, context: Ctx) -> None:
    error = context.error
    if isinstance(error, Forbidden):
        # the user blocked the bot (or never started it): remember, and carry on
        log.info("forbidden: %s", error.message)
        if isinstance(update, Update) and update.effective_user is not None:
            chat = update.effective_chat
            if chat is not None and chat.type == ChatType.PRIVATE:
                await portes(context).uc.set_can_message(update.effective_user.id, False)
        return
    if isinstance(error, BadRequest) and "not modified" in error.message.lower():
        return
    log.error("unhandled error while handling an update", exc_info=error)
    if isinstance(update, Update) and update.callback_query is not None:
        try:
            t = portes(context).t_user(update.callback_query.from_user)
            await update.callback_query.answer(texts.error_text(t, "error"), show_alert=True)
        except BadRequest:
            pass
        except Exception:
            log.debug("could not answer after an error", exc_info=True)

