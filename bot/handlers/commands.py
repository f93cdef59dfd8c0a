"""Commands: /start (and its deep links), /help, /rules, /lang, /notices, /new, /games; the
language and notices buttons and the /games buttons that bring a board back (or close a match
that cannot be read)."""

from __future__ import annotations

from telegram import Message, Update, User
from telegram.constants import ChatType

from bot.delivery.telegram import is_group, quietly
from bot.handlers.challenges import new_from_args, show_challenge_privately, show_new_card
from bot.handlers.chats import is_group_admin
from bot.handlers.common import HTML, Ctx, message_parts, point_to_private, publisher
from bot.handlers.computer import REVIEW_PAYLOAD, review_one
from bot.handlers.inline import CAP_PAYLOAD
from bot.handlers.player_settings import show_settings
from bot.handlers.quiet import SEED_PAYLOAD, send_full_reveal
from bot.handlers.which_match import replied_board
from bot.intake.crowd import admit_new
from bot.state import Portes, command_sender, is_group_match, portes, tapped
from bot.views import help as help_texts
from bot.views import texts
from bot.views.callbacks import Callback, parse_id
from bot.views.game_choice import bad_new_args_text, new_args, split_game, unknown_game_text
from bot.views.games import GAME_RULES, portes_rules
from bot.views.i18n import Tr, lang_name, langs, tr
from bot.views.keyboards import (
    games_keyboard,
    lang_keyboard,
    notices_keyboard,
    url_keyboard,
)
from bot.views.lang_defaults import favourite_game, no_triple_default
from bot.views.reveal import dice_help_text
from rules.game import DEFAULT_KIND
from storage.results import ActionResult


async def cmd_start(update: Update, context: Ctx) -> None:
    """/start: the welcome, or a deep link's challenge (``c<token>``), board (``m<id>``),
    review (``review<id>``), whole seed reveal (``seed<id>``) or page on checking the dice
    (``dice``)."""
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
    if private and payload.startswith("m") and len(payload) > 1:
        await show_board_privately(context, t, msg, payload[1:], user.id)
        return
    if private and payload.startswith(SEED_PAYLOAD) and len(payload) > len(SEED_PAYLOAD):
        # the button under a group's short seed reveal: the whole of it, here
        await send_full_reveal(p, t, msg, payload[len(SEED_PAYLOAD):], user.id)
        return
    if private and payload == "dice":  # the seed reveal's "How to check the dice"
        await msg.reply_text(dice_help_text(t), parse_mode=HTML, disable_web_page_preview=True)
        return
    if private and payload == "notices":  # /notices sent in a group
        await show_notices(context, t, msg, user.id)
        return
    if private and payload == "help":  # /help sent in a group: its "Full help" button
        await send_help(t, msg, p.username)
        return
    if private and payload == CAP_PAYLOAD:  # inline mode offered no card: over the cap
        await msg.reply_text(texts.error_text(t, "too_many_challenges"))
        return
    if private and payload == "settings":  # /settings sent in a group
        await show_settings(p, msg, user)
        return
    if private and payload.startswith(REVIEW_PAYLOAD) and len(payload) > len(REVIEW_PAYLOAD):
        # Review tapped in a group by a player the bot could not write to yet
        await review_one(p, context.bot, msg, user, t, payload[len(REVIEW_PAYLOAD):])
        return
    await msg.reply_text(help_texts.welcome_text(t, p.username), parse_mode=HTML)


async def show_board_privately(context: Ctx, t: Tr, msg: Message, match_ref: str,
                               user_id: int) -> None:
    """A board's deep link (``m<id>``): the player's own board of that match, posted again
    (the first time, for a player who had not started the bot when the match began)."""
    p = portes(context)
    match_id = parse_id(match_ref)
    res = await p.uc.load_match(match_id) if match_id is not None else None
    mv = res.match if res is not None else None
    seat = mv.seat_of(user_id) if mv is not None else None
    if mv is None or seat is None:
        await msg.reply_text(texts.error_text(t, "not_found" if mv is None else "not_a_player"))
        return
    p.touch(user_id, mv.id)
    # the players as they are now: this one may just have started the bot
    p.remember(mv)
    pub = publisher(context)
    if not await pub.bring_back(mv, seat, shared=False):
        await msg.reply_text(t._("Match #{id} is played in its group: your board comes here "
                                 "when it is your turn.", id=mv.id))
    # an inline card that asked this player to start the bot no longer does
    await pub.update_inline_card(mv)


async def cmd_help(update: Update, context: Ctx) -> None:
    """/help: how to play."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, _, t = sender
    if is_group(msg.chat):  # a few lines here; the full help in the private chat
        text = help_texts.group_help_text(t, lang_name(t.lang))
        await msg.reply_text(text, parse_mode=HTML, reply_markup=url_keyboard(
            "📖 " + t._("Full help"), p.link("help")), do_quote=True)
        return
    await send_help(t, msg, p.username)


async def send_help(t: Tr, msg: Message, username: str) -> None:
    for part in message_parts(help_texts.help_text(t, username)):
        await msg.reply_text(part, parse_mode=HTML, disable_web_page_preview=True)


async def cmd_rules(update: Update, context: Ctx) -> None:
    """/rules: the rule sheet of the game being played (``/rules plakoto`` names one, in
    English or Greek: :func:`bot.views.game_choice.split_game`), in the reader's language; a name
    it does not know is answered with the games' names, not with a sheet."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    args = context.args or []
    game, rest = split_game(args)
    if args and (game is None or rest):
        await msg.reply_text(unknown_game_text(t, " ".join(rest or args), "/rules"),
                             do_quote=True)
        return
    game = game or await game_played(p, msg, user.id)
    await msg.reply_text(GAME_RULES.get(game, portes_rules)(t), parse_mode=HTML)


async def game_played(p: Portes, msg: Message, user_id: int) -> str:
    """The game /rules is about when none is named: the match of the board the message
    replies to; else the one the sender is playing (in a group, in this group; the match
    waiting for them first); in a group, else the one played there (by others: a spectator
    asks), the newest; else Portes."""
    group = is_group(msg.chat)
    mine = await p.uc.list_active_matches(user_id)
    if group:
        mine = [s for s in mine if s.place.chat_id == msg.chat.id]
    replied = await replied_board(p, msg, mine)
    if replied is not None:
        mine = [replied]
    if mine:
        loaded = await p.uc.load_match(mine[0].id)
        return loaded.match.state.game_key if loaded.match is not None else DEFAULT_KIND
    if group:
        played = await p.uc.active_matches_in_chat(msg.chat.id)
        target = msg.reply_to_message
        on_board = [mv for mv in played if target is not None and any(
            b.chat_id == target.chat_id and b.message_id == target.message_id
            for b in mv.board_messages)]
        if on_board or played:
            return (on_board or played)[-1].state.game_key
    return DEFAULT_KIND


async def cmd_lang(update: Update, context: Ctx) -> None:
    """/lang: the language buttons; in a group, the group's language, which its admins set
    (anyone else is told so, without buttons)."""
    p = portes(context)
    msg = update.effective_message
    user = update.effective_user
    if msg is None or user is None:
        return
    await p.see_user(user)
    if not is_group(msg.chat):
        await msg.reply_text(p.t_user(user)._("Your language:"), reply_markup=lang_keyboard())
        return
    lang = await p.lang_for_chat(msg.chat.id, user)
    t = tr(lang)
    if not await is_group_admin(context, msg.chat, user, msg):
        await msg.reply_text(only_admins_text(t, lang), do_quote=True)
        return
    await msg.reply_text(t._("Language of this group's match cards:"),
                         reply_markup=lang_keyboard())


def only_admins_text(t: Tr, lang: str) -> str:
    return t._("This group's language is {name}. Only the group's admins can change it.",
               name=lang_name(lang))


async def on_lang(update: Update, context: Ctx, cb: Callback) -> None:
    """A language button: the group's language in a group (an admin's tap; anyone else's
    changes nothing and says why), else the player's."""
    p = portes(context)
    q = update.callback_query
    assert q is not None
    msg = q.message if isinstance(q.message, Message) else None
    if cb.arg not in langs():  # not a button we send (a language since removed): nothing changes
        await q.answer(texts.error_text(p.t_user(q.from_user), "stale"), show_alert=True)
        return
    lang = cb.arg
    if msg is not None and is_group(msg.chat):
        if not await is_group_admin(context, msg.chat, q.from_user):
            current = await p.lang_for_chat(msg.chat.id, q.from_user)
            await q.answer(only_admins_text(tr(current), current), show_alert=True)
            return
        await p.uc.set_chat_language(msg.chat.id, lang)
    else:
        user = q.from_user
        await p.uc.upsert_player(user.id, user.full_name, username=user.username, language=lang)
        p.user_lang[user.id] = lang
    await q.answer()
    if msg is not None:
        await quietly(msg.edit_text(tr(lang)._("Language: {name}", name=lang_name(lang))))


async def cmd_notices(update: Update, context: Ctx) -> None:
    """/notices: whether the player's boards and reminders notify them, with a button to turn
    that the other way. A setting of one's own, so only in the private chat: in a group it
    says so, with a button that opens the private chat there."""
    sender = await command_sender(update, context, starts_in_private=True)
    if sender is None:
        return
    p, msg, user, t = sender
    if is_group(msg.chat):
        await point_to_private(p, msg, t, t._("Your notices are set in our private chat: tap "
                                              "below, or send /notices there."),
                               p.link("notices"))
        return
    await show_notices(context, t, msg, user.id)


async def show_notices(context: Ctx, t: Tr, msg: Message, user_id: int) -> None:
    player = await portes(context).uc.get_player(user_id)
    on = player is None or player.notices
    await msg.reply_text(help_texts.notices_text(t, on),
                         reply_markup=notices_keyboard(t, on, user_id))


async def on_notices(update: Update, context: Ctx, cb: Callback) -> None:
    """The /notices button: sets the tapper's own notices, and only from their private chat
    with the bot (where the button is posted); any other tap changes nothing."""
    p, q, t = await tapped(update, context)
    msg = q.message if isinstance(q.message, Message) else None
    if msg is None or msg.chat.id != q.from_user.id or cb.arg not in ("on", "off"):
        await q.answer(t._("That button is not for you."), show_alert=True)
        return
    player = await p.uc.set_notices(q.from_user.id, cb.arg == "on")
    if player is None:
        await q.answer(texts.error_text(t, "error"), show_alert=True)
        return
    p.forget_views_of(player.id)  # the next board reads the setting from the database
    await q.answer()
    await quietly(msg.edit_text(help_texts.notices_text(t, player.notices),
                                reply_markup=notices_keyboard(t, player.notices, player.id)))


async def cmd_new(update: Update, context: Ctx) -> None:
    """/new: the card to choose a new match's length (for anyone, or the person replied to)."""
    sender = await command_sender(update, context, starts_in_private=True)
    if sender is None:
        return
    p, msg, user, t = sender
    if not await admit_new(p, context.bot, msg, user, t):
        return
    target = None
    if is_group(msg.chat) and msg.reply_to_message and msg.reply_to_message.from_user:
        other = msg.reply_to_message.from_user
        if not other.is_bot and other.id != user.id:
            target = other.id
            await p.see_user(other)
    await new_card_or_challenge(p, t, msg, user, target, context.args or [])


async def new_card_or_challenge(p: Portes, t: Tr, msg: Message, user: User, target: int | None,
                                args: list[str]) -> None:
    """``/new``: the card; ``/new plakoto``: the card with that game chosen; with a length
    (``/new plakoto 5``, ``/new 3``): the challenge itself. Words that are neither a game nor
    a length are answered, and nothing is made."""
    read = new_args(args)
    if read is None:
        await msg.reply_text(bad_new_args_text(t, args), do_quote=True)
        return
    game, length = read
    if length is not None:
        await new_from_args(p, t, msg, user, target, game or favourite_game(t.lang), length)
        return
    # the card's first choices are its language's (Long Nardy first in Russian, no triple in
    # Turkish: bot.views.lang_defaults), each still a tap away from changing
    await show_new_card(msg, t, no_triple_default(t.lang), target, None,
                        p.settings.timeouts.move_timeout, edit=False, owner=user.id,
                        game=game or favourite_game(t.lang))


async def cmd_games(update: Update, context: Ctx) -> None:
    """/games: the player's active matches, each with a button bringing its board back."""
    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    matches = await p.uc.list_active_matches(user.id)
    if not matches:
        await msg.reply_text(t._("You have no active match. Start one with /new."))
        return
    shown = matches[:20]
    await msg.reply_text(texts.games_text(t, shown), parse_mode=HTML,
                         reply_markup=games_keyboard(t, shown, user.id))


async def on_close_unreadable(update: Update, context: Ctx, cb: Callback) -> None:
    """A /games button on a match that cannot be read: close it for both, counting for nobody."""
    p, q, t = await tapped(update, context)
    closed = await p.uc.close_unreadable(cb.match_id, q.from_user.id, cb.version)
    if isinstance(closed, ActionResult):
        await q.answer(texts.error_text(t, closed.code or "error"), show_alert=True)
        return
    await q.answer()
    text = t._("Match #{id} is closed: its record could not be read. It counts for nobody.",
               id=closed.id)
    msg = q.message if isinstance(q.message, Message) else None
    if msg is not None:
        await quietly(msg.edit_text(text))
    other = closed.opponent
    if other is not None and p.delivery is not None:  # told by a notice the close wrote
        p.delivery.kick(str(other.id))


async def on_show(update: Update, context: Ctx, cb: Callback) -> None:
    """A /games button: the match's board, posted again (in its group, or to the player), or
    an answer saying why it cannot come: a player who cannot be messaged privately is sent to
    the private chat (a link that starts the bot and brings the board there)."""
    p, q, t = await tapped(update, context)
    loaded = await p.uc.load_match(cb.match_id)
    mv = loaded.match
    seat = mv.seat_of(q.from_user.id) if mv else None
    if mv is None or seat is None:
        await q.answer(texts.error_text(t, "not_a_player"), show_alert=True)
        return
    if mv.status.is_over:
        await q.answer(texts.error_text(t, "game_over"), show_alert=True)
        return
    pub = publisher(context)
    if is_group_match(mv) and q.message is not None and is_group(q.message.chat):
        await q.answer()
        await pub.bring_back(mv, None, shared=True)
        return
    player = mv.seats[seat].player
    if player is not None and not player.can_message:  # START brings the board (m<id>)
        await q.answer(url=p.link(f"m{mv.id}"))
        return
    if not await pub.bring_back(mv, seat, shared=False):
        await q.answer(t._("Match #{id} is played in its group: your board comes here when it "
                           "is your turn.", id=mv.id), show_alert=True)
        return
    await q.answer()
