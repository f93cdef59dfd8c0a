"""/top (leaderboards, hiding from them), /stats (a record, or head to head) and /forgetme.

Both /top and /stats answer about one game, with buttons to switch it (:mod:`bot.views.game_choice`:
which game when none is named, the names understood, the buttons' data).

In a group, ``/top`` is that group's leaderboard (its matches only), in a private chat the
global one: a picture (:mod:`rendering.leaderboard`) with the same text as its caption, or the
text alone when a picture would not read better. ``/stats`` replying to someone's message, or
``/stats @username``, or in a group ``/stats <name>`` (someone who played there), compares the
caller with that player; a name several players have, or nobody, gets a button per player.
``/forgetme`` asks first, in the private chat only; the button deletes
(:func:`storage.social.forget`).
"""

from __future__ import annotations

import asyncio

from telegram import Chat, InputMediaPhoto, Message, Update, User
from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Markup

from bot.delivery.telegram import is_group, quietly
from bot.handlers.common import Ctx, point_to_private
from bot.state import Portes, command_sender, tapped
from bot.views import accuracy
from bot.views.callbacks import Action, Callback, encode
from bot.views.competitions import titles_line
from bot.views.echo import CAPTION_LIMIT, echoed, u16len
from bot.views.game_choice import (
    default_game,
    games_list,
    players_keyboard,
    split_game,
    stats_game,
    stats_keyboard,
    top_game,
    top_keyboard,
    unknown_game_text,
)
from bot.views.i18n import Tr
from bot.views.social import (
    forget_question,
    head_to_head_text,
    leaderboard_text,
    leaderboard_title,
    name_of,
    player_label,
    provisional_note,
    rating_text,
    stats_text,
    which_player_text,
)
from rendering.leaderboard import Line, drawable, printable, render_leaderboard
from storage.social import Forgotten, Leaderboard, named

GLOBAL = 0


async def cmd_top(update: Update, context: Ctx) -> None:
    """``/top [game]``: the leaderboard of a game here (:mod:`bot.views.game_choice`); ``/top hide``
    and ``/top show`` set whether the caller is listed on leaderboards."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    args = list(context.args or [])
    if len(args) == 1 and args[0].lower() in ("hide", "show"):
        hide = args[0].lower() == "hide"
        await p.uc.set_hidden(user.id, hide)
        await msg.reply_text(
            t._("You are hidden from leaderboards now: /top show lists you again.")
            if hide else t._("You are listed on leaderboards again."), do_quote=True)
        return
    game, rest = split_game(args)
    if rest:
        await msg.reply_text(unknown_game_text(t, " ".join(rest), "/top"), do_quote=True)
        return
    game = game or await p.uc.last_game(user.id) or default_game(t)
    text, picture = await top_answer(p, t, msg.chat, user.id, game)
    markup = top_keyboard(t, game, user.id)
    if picture is None:
        await msg.reply_text(text, reply_markup=markup)
        return
    await msg.reply_photo(picture, caption=text, reply_markup=markup)


async def top_answer(p: Portes, t: Tr, chat: Chat, me: int,
                     game: str) -> tuple[str, bytes | None]:
    """The leaderboard of ``game`` in ``chat`` (a group's own, else the global one), seen by
    ``me``: its text and its picture (``None``: the text alone)."""
    group = is_group(chat)
    board = await p.uc.leaderboard(chat.id if group else GLOBAL, me, game=game)
    title = (chat.title or "") if group else None
    text = leaderboard_text(t, board, title)
    return text, await leaderboard_picture(t, board, title, text)


async def on_top_game(update: Update, context: Ctx, cb: Callback, *, anew: bool = False) -> None:
    """A game button under ``/top``: the message shows that game's leaderboard, with the
    tapper's own place. ``anew`` (someone tapping another's card, see
    :mod:`bot.handlers.guard`): the tapper gets it in a new message, the card stays."""
    p, q, t = await tapped(update, context, see=True)
    msg = q.message if isinstance(q.message, Message) else None
    game = top_game(cb.match_id, cb.version, cb.arg)
    if msg is None or game is None:
        await q.answer(t._("This button is not valid: send /top again."), show_alert=True)
        return
    await q.answer()
    t = await p.t_in(msg.chat, q.from_user)
    text, picture = await top_answer(p, t, msg.chat, q.from_user.id, game)
    markup = top_keyboard(t, game, q.from_user.id)
    if anew:
        await post_answer(context, msg, text, picture, markup)
    else:
        await replace_answer(context, msg, text, picture, markup)


async def replace_answer(context: Ctx, msg: Message, text: str, picture: bytes | None,
                         markup: Markup) -> None:
    """Show a new answer in ``msg``'s place: edited in place when it has the same form (a
    picture, or text), else posted anew and the old one deleted (Telegram cannot turn a text
    message into a photo or back)."""
    if picture is not None and msg.photo:
        await quietly(msg.edit_media(InputMediaPhoto(picture, caption=text),
                                     reply_markup=markup))
        return
    if picture is None and not msg.photo:
        await quietly(msg.edit_text(text, reply_markup=markup))
        return
    await post_answer(context, msg, text, picture, markup)
    await quietly(msg.delete())


async def post_answer(context: Ctx, msg: Message, text: str, picture: bytes | None,
                      markup: Markup) -> None:
    """Post an answer (a picture with ``text`` as its caption, or the text alone) in ``msg``'s
    chat and forum topic."""
    thread = msg.message_thread_id if msg.is_topic_message else None
    if picture is None:
        await quietly(context.bot.send_message(msg.chat.id, text, reply_markup=markup,
                                               message_thread_id=thread))
    else:
        await quietly(context.bot.send_photo(msg.chat.id, picture, caption=text,
                                             reply_markup=markup, message_thread_id=thread))


async def leaderboard_picture(t: Tr, board: Leaderboard, title: str | None,
                              caption: str) -> bytes | None:
    """The leaderboard drawn (its text goes as the caption), or ``None`` when text reads as
    well: nobody listed, a caption over Telegram's limit, or a name the font cannot draw."""
    lines = picture_lines(t, board)
    heading = printable(leaderboard_title(t, title, board.game).removeprefix("🏆"))
    too_long = u16len(caption) > CAPTION_LIMIT
    if not board.top or too_long or heading is None or lines is None:
        return None
    footer = provisional_note(t) if any(line.provisional for line in lines) else ""
    if not drawable(footer):
        return None
    gap = board.mine is not None and board.mine not in board.top
    return await asyncio.to_thread(render_leaderboard, heading, lines, gap=gap, footer=footer,
                                   matches_label=t._("matches"))


def picture_lines(t: Tr, board: Leaderboard) -> list[Line] | None:
    """The picture's lines: the names without the symbols the font lacks (the caption keeps
    them whole); ``None`` when a name would lose a letter (then no picture)."""
    ranked = list(board.top)
    if board.mine is not None and board.mine not in board.top:
        ranked.append(board.mine)
    me = board.mine.player_id if board.mine is not None else None
    lines = []
    for r in ranked:
        name = printable(r.name)
        if name is None:
            return None
        lines.append(Line(r.rank, name, rating_text(t, r.rating, r.matches), r.matches,
                          mine=r.player_id == me, provisional=r.provisional))
    return lines


async def cmd_stats(update: Update, context: Ctx) -> None:
    """``/stats [game]``: the caller's record in a game; replying to someone, or with
    ``@username``: head to head between the caller and them in a game."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    game, rest = split_game(context.args or [])
    other: int | None = None
    if rest:
        named_other = await _other_named(p, msg, user, t, " ".join(rest), game)
        if named_other is None:
            return  # answered: nobody by that name, or the players it may be
        other = named_other
    else:
        other = await _replied_to(p, msg, user)
    if other == user.id:
        other = None
    text, shown = await stats_answer(p, t, msg.chat, (user.id, other), game)
    await msg.reply_text(text, do_quote=True,
                         reply_markup=stats_keyboard(t, shown, user.id, other))


CHOICES = 8
"""At most this many players offered when a name is not one player's."""


async def _other_named(p: Portes, msg: Message, user: User, t: Tr, wanted: str,
                       game: str | None) -> int | None:
    """The player ``/stats <wanted>`` names: an @username, or in a group the display name of
    someone who played here. ``None`` when answered here: nobody known by that name, or (in a
    group) a card with a button for each player it may be, or who played here."""
    if len(wanted.split()) == 1 and (found := await p.uc.find_username(wanted)) is not None:
        return found[0]
    if wanted.startswith("@") or not is_group(msg.chat):
        await msg.reply_text(_unknown_player(t, wanted), do_quote=True)
        return None
    known = await p.uc.players_in_chat(msg.chat.id)
    matching = named(known, wanted)
    if len(matching) == 1:
        return matching[0].id
    choices = [pl for pl in (matching or known) if pl.id != user.id][:CHOICES]
    if not choices:
        await msg.reply_text(_unknown_player(t, wanted), do_quote=True)
        return None
    names = [pl.name for pl in choices]
    buttons = [(pl.id, player_label(pl, names.count(pl.name) > 1),
                game or await p.uc.last_game(user.id, pl.id) or await p.uc.last_game(user.id)
                or default_game(t)) for pl in choices]
    await msg.reply_text(which_player_text(t, wanted, found=bool(matching)), do_quote=True,
                         reply_markup=players_keyboard(user.id, buttons))
    return None


def _unknown_player(t: Tr, wanted: str) -> str:
    if wanted.startswith("@"):
        return t._("I do not know {username}: a player is known here once they have played or "
                   "written to me.", username=echoed(wanted))
    return t._("I know no game and no player called \"{word}\". The games: {games}; a player: "
               "/stats @username.", word=echoed(wanted), games=games_list(t))


async def stats_answer(p: Portes, t: Tr, chat: Chat, who: tuple[int, int | None],
                       game: str | None) -> tuple[str, str]:
    """``/stats`` of ``who`` (the player, and the other one for head to head) in ``game``
    (``None``: the game they played last): the text and the game shown."""
    player, other = who
    if other is not None:
        game = (game or await p.uc.last_game(player, other) or await p.uc.last_game(player)
                or default_game(t))
        h2h = await p.uc.head_to_head(player, other, game=game)
        text = head_to_head_text(t, h2h)
        if h2h.played:
            beside = [accuracy.head_to_head_line(
                t, name_of(t, who, name), await p.uc.accuracy_summary(who, game, against))
                for who, name, against in ((h2h.first, h2h.first_name, h2h.second),
                                           (h2h.second, h2h.second_name, h2h.first))]
            text = "\n".join([text, *(line for line in beside if line)])
        return text, game
    game = game or await p.uc.last_game(player) or default_game(t)
    group = is_group(chat)
    stats = await p.uc.player_stats(player, chat.id if group else None, game=game)
    text = stats_text(t, stats, group)
    if stats.people.played:
        text = "\n".join([text, *accuracy.stats_lines(t, await p.uc.accuracy_summary(player,
                                                                                    game))])
    titles = titles_line(t, await p.uc.titles_of(player))
    return (text if titles is None else text + "\n" + titles), game


async def on_stats_game(update: Update, context: Ctx, cb: Callback, *,
                        anew: bool = False) -> None:
    """A game button under ``/stats``: the record (or head to head) in that game, for the
    player whose it is only. ``anew`` (someone else tapping it, see
    :mod:`bot.handlers.guard`): the tapper gets their own in a new message (head to head with
    the card's player when they are its other player), and the card stays. The tapper is
    recorded first (someone who never wrote has a name then, not "a deleted player")."""
    p, q, t = await tapped(update, context, see=True)
    msg = q.message if isinstance(q.message, Message) else None
    chosen = stats_game(cb.version, cb.arg)
    if msg is None or chosen is None:
        await q.answer(t._("This button is not valid: send /stats again."),
                       show_alert=True)
        return
    game, other = chosen
    me = q.from_user.id
    if anew:
        who = (me, cb.match_id if other == me else None)
    elif me == cb.match_id:
        who = (me, other)
    else:
        await q.answer(t._("These buttons are for the player who asked: send /stats to see "
                           "yours."), show_alert=True)
        return
    await q.answer()
    t = await p.t_in(msg.chat, q.from_user)
    text, _ = await stats_answer(p, t, msg.chat, who, game)
    markup = stats_keyboard(t, game, *who)
    if anew:
        await post_answer(context, msg, text, None, markup)
    else:
        await quietly(msg.edit_text(text, reply_markup=markup))


async def _replied_to(p: Portes, msg: Message, user: User) -> int | None:
    """The person whose message ``/stats`` replies to (recorded first), if any."""
    replied = msg.reply_to_message
    other = replied.from_user if replied is not None else None
    if other is None or other.is_bot or other.id == user.id:
        return None
    await p.see_user(other)
    return other.id


def forget_keyboard(t: Tr, owner: int) -> Markup:
    return Markup([[Btn(t._("🗑 Delete my data"),
                        callback_data=encode(Action.FORGET, 0, 0, "yes", owner=owner)),
                    Btn(t._("Cancel"),
                        callback_data=encode(Action.FORGET, 0, 0, "no", owner=owner))]])


async def cmd_forgetme(update: Update, context: Ctx) -> None:
    """``/forgetme``: what deleting one's data means, with a button to confirm (in the
    private chat; in a group, a button to go there)."""
    sender = await command_sender(update, context, starts_in_private=True)
    if sender is None:
        return
    p, msg, user, t = sender
    if is_group(msg.chat):
        await point_to_private(p, msg, t, t._(
            "Deleting your data is done in our private chat: tap below and send /forgetme "
            "there."), f"https://t.me/{p.username}")
        return
    await msg.reply_text(forget_question(t), reply_markup=forget_keyboard(t, user.id))


async def on_forget(update: Update, context: Ctx, cb: Callback) -> None:
    """The /forgetme buttons: only the player's own, in their private chat."""
    p, q, t = await tapped(update, context)
    msg = q.message if isinstance(q.message, Message) else None
    user_id = q.from_user.id
    if msg is None or msg.chat.id != user_id or cb.arg not in ("yes", "no"):
        await q.answer(t._("That button is not for you."), show_alert=True)
        return
    if cb.arg == "no":
        await q.answer()
        await quietly(msg.edit_text(t._("Nothing was deleted.")))
        return
    done = await p.uc.forget_player(user_id)
    if done == Forgotten.PLAYING:
        await q.answer(t._("You have a match going on or an open challenge: finish or resign "
                           "the match, or withdraw the challenge, then send /forgetme again."),
                       show_alert=True)
        return
    # nothing of them stays in this instance's memory either
    p.seen.pop(user_id, None)
    p.user_lang.pop(user_id, None)
    p.focus.pop(user_id, None)
    p.tapped_at.pop(user_id, None)
    p.forget_views_of(user_id)
    await q.answer()
    await quietly(msg.edit_text(t._("Your data is deleted. If you write to me again, you start "
                                    "afresh as a new player.")))
