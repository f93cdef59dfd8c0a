"""Inline mode: ``@bot`` in any chat offers a challenge card per game and match length (the
query narrows them: a game's name, a length, "no triple"); the card's challenge is created when
the card is chosen (inline feedback on) or first accepted, and an Accept tap on a card that does
not show its dice commitment yet does not count."""

from __future__ import annotations

import html
import re
import unicodedata

from telegram import (
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)

from bot.delivery.telegram import quietly
from bot.handlers.common import HTML, Ctx
from bot.state import Portes, portes, tapped
from bot.views import texts
from bot.views.callbacks import Callback
from bot.views.games import (
    GAME_LETTERS,
    GAME_OF_LETTER,
    cafe_default,
    game_name,
    inline_description,
)
from bot.views.i18n import Tr
from bot.views.keyboards import challenge_keyboard, inline_accept_keyboard
from bot.views.lang_defaults import games_in_order, no_triple_default
from rules.game import DEFAULT_KIND, KINDS, find_kind
from rules.match import MATCH_LENGTHS, match_lengths
from storage.results import ChallengeResult, ChallengeView

INLINE_ARG_RE = re.compile(r"([1357])([tn])([0-9]+)(?:g([a-z]))?")
"""An inline card's Accept before its challenge exists: length, triple flag, the author's id,
and ``g`` with the game's letter (none: Portes)."""
INLINE_RESULT_RE = re.compile(r"([1357])([tn])([a-z]?)")
"""An inline result's id: length, triple flag, the game's letter (none: Portes)."""

CAP_PAYLOAD = "limit"
"""The deep link of the inline answer's button when its author may open no more challenges:
the private chat says why."""

MAX_RESULTS = 50
"""Telegram takes at most 50 results per answer to an inline query."""

GAME_WORDS = {key: kind.stems for key, kind in KINDS.items()}
"""What in a query names a game (lower case, without accents), in each of the bot's languages
(the registry's stems: Turkish "tavla" is Portes; "tavli", the tavli match, is written out)."""


def plain(text: str) -> str:
    """Lower case without accents: "Πλακωτό" -> "πλακωτο"."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


KNOWN_WORDS = frozenset({
    "no", "triple", "without", "point", "points", "match", "to",
    "χωρις", "τριπλο", "ποντο", "ποντος", "ποντοι", "ποντους", "αγωνας", "στους", "στον",
    "без", "кокса", "очко", "очка", "очков", "матч", "до",
    "uclu", "yok", "puan", "puanlık", "mac",
})
"""Words of a query that narrow the cards without naming a game (lower case, no accents)."""


def unknown_word(query: str) -> str | None:
    """The first word of the query that names no game and is none of :data:`KNOWN_WORDS`
    ("chess"), when no game is named at all: the player asked for a game there is not."""
    words = plain(query).split()
    if any(s in word for word in words for stems in GAME_WORDS.values() for s in stems):
        return None
    for word in words:
        if len(word) >= 3 and word.isalpha() and word not in KNOWN_WORDS:
            return word
    return None


def inline_choices(query: str, lang: str = "en") -> list[tuple[str, int, bool]]:
    """The cards an inline query offers, in order: (game, length, no triple). A game's name in
    the query keeps that game, a length that length, "no"/"χωρίς"/"без"/"yok" puts "no triple"
    first (and so does Turkish, where tavla has no triple); the games in ``lang``'s order."""
    words = plain(query)
    order = games_in_order(lang)
    games = [g for g in order if any(s in words for s in GAME_WORDS[g])] or list(order)
    asked = [n for n in MATCH_LENGTHS if str(n) in words]
    no_triple_first = (no_triple_default(lang) or "no" in words or "χωρ" in words
                       or "без" in words or "yok" in words)
    choices: list[tuple[str, int, bool]] = []
    for game in games:  # the lengths /new offers for the game (a tavli match: 3, 5, 7)
        lengths = [n for n in match_lengths(game) if n in asked] or list(match_lengths(game))
        flags = (True, False) if no_triple_first else (False, True)
        for nt in flags if find_kind(game).triple else (False,):
            choices.extend((game, n, nt) for n in lengths)
    return choices[:MAX_RESULTS]


def result_id(game: str, length: int, no_triple: bool) -> str:
    letter = "" if game == DEFAULT_KIND else GAME_LETTERS[game]
    return f"{length}{'n' if no_triple else 't'}{letter}"


def inline_result_title(t: Tr, game: str, length: int, no_triple: bool) -> str:
    """An inline result's title: the game, the match length and "no triple"."""
    title = t.ngettext("{game}: match to {n} point", "{game}: match to {n} points", length,
                       game=game_name(t, game))
    if no_triple:
        title += " · " + t._("no triple")
    return title


async def on_inline_query(update: Update, context: Ctx) -> None:
    """Inline mode: a challenge card per game and match length to post in any chat, in the
    language of the player who types."""
    p = portes(context)
    q = update.inline_query
    if q is None:
        return
    await p.see_user(q.from_user)
    t = p.t_user(q.from_user)
    if await p.uc.challenge_cap_reached(q.from_user.id) is not None:
        # a card posted now could never be accepted: none is offered, only why
        await q.answer([], cache_time=0, is_personal=True, button=InlineQueryResultsButton(
            text=t._("You have too many open challenges"), start_parameter=CAP_PAYLOAD))
        return
    name = html.escape(q.from_user.full_name)
    results = [
        InlineQueryResultArticle(
            id=result_id(game, n, nt), title=inline_result_title(t, game, n, nt),
            description=inline_description(t, game),
            input_message_content=InputTextMessageContent(
                texts.challenge_line(t, name, None, n, game), parse_mode=HTML),
            reply_markup=inline_accept_keyboard(t, n, nt, q.from_user.id, GAME_LETTERS[game]),
        )
        for game, n, nt in inline_choices(q.query, t.lang)
    ]
    word = unknown_word(q.query)
    button = None if word is None else InlineQueryResultsButton(
        text=t._("No game “{word}” here: the five games are below", word=word[:20]),
        start_parameter="help")
    await q.answer(results, cache_time=0, is_personal=True, button=button)


async def on_chosen_inline(update: Update, context: Ctx) -> None:
    """An inline card was posted (inline feedback on): create its challenge at once."""
    p = portes(context)
    r = update.chosen_inline_result
    if r is None or not r.inline_message_id:
        return
    m = INLINE_RESULT_RE.fullmatch(r.result_id)
    game = GAME_OF_LETTER.get(m.group(3) or "p") if m else None
    if not m or game is None:
        return
    made = await materialise_inline(p, r.inline_message_id, r.from_user.id, int(m.group(1)),
                                    m.group(2) == "n", context, game=game)
    if isinstance(made, ChallengeResult):
        await card_refused(p, context, r.inline_message_id, r.from_user.id, made)


async def on_uncommitted_accept(update: Update, context: Ctx, cb: Callback) -> None:
    """Accept on an inline card that does not show a dice commitment yet (inline feedback off,
    or a tap faster than the card's edit): no acceptance counts before the commitment is seen,
    so the challenge is made and its card shows the commitment, and the tap is asked again."""
    p, q, t = await tapped(update, context, see=True)
    m = INLINE_ARG_RE.fullmatch(cb.arg or "")
    game = GAME_OF_LETTER.get(m.group(4) or "p") if m else None
    if not m or game is None or not q.inline_message_id:
        await q.answer(texts.error_text(t, "stale"), show_alert=True)
        return
    author_id = int(m.group(3))
    if author_id == q.from_user.id:
        await q.answer(texts.error_text(t, "own_challenge"), show_alert=True)
        return
    created = await materialise_inline(p, q.inline_message_id, author_id, int(m.group(1)),
                                       m.group(2) == "n", context, show_again=True, game=game)
    if isinstance(created, ChallengeResult):
        await q.answer(await card_refused(p, context, q.inline_message_id, author_id, created,
                                          tapper=t), show_alert=True)
        return
    if created is None:
        await q.answer(texts.error_text(t, "error"), show_alert=True)
        return
    await q.answer(t._("The card now shows its dice commitment; tap Accept again to play."),
                   show_alert=True)


async def materialise_inline(p: Portes, inline_message_id: str, author_id: int, length: int,
                             no_triple: bool, context: Ctx, *, show_again: bool = False,
                             game: str = DEFAULT_KIND) -> ChallengeView | ChallengeResult | None:
    """Create the challenge behind an inline card (once), and show its commitment on the card
    (again with ``show_again``: a tap came from a card still without it). ``game``: what the
    match plays (the café start as the game's default). The refusal when the challenge cannot
    be opened (its author has too many open challenges: the card was made before)."""
    # a negative key: never a match id
    async with p.locks.hold(-abs(hash(inline_message_id)) - 1):
        known = context.application.bot_data.setdefault("inline_cards", {})
        # recorded in the database too: another instance, or this one before a restart, made it
        c = (await p.uc.get_challenge(known[inline_message_id]) if inline_message_id in known
             else await p.uc.get_challenge(inline_message_id=inline_message_id))
        if c is not None or inline_message_id in known:
            if c is None or not show_again or c.status != "open":
                return c
        else:
            res = await p.uc.create_challenge(
                author_id, length=length, no_triple=no_triple and find_kind(game).triple,
                inline=True, game_type=game, winner_starts=cafe_default(game))
            if not res.ok or res.challenge is None:
                return res
            c = res.challenge
            known[inline_message_id] = c.id
            await p.card_shown(c.id, inline_message_id=inline_message_id)
        t = p.t_user(c.author)
        author, target = texts.challenge_names(c)
        await quietly(context.bot.edit_message_text(
            texts.challenge_card_text(t, c, author, target, p.settings.timeouts.move_timeout),
            inline_message_id=inline_message_id,
            parse_mode=HTML, reply_markup=challenge_keyboard(t, c.id, cancel=True)))
        return c


async def card_refused(p: Portes, context: Ctx, inline_message_id: str, author_id: int,
                       refusal: ChallengeResult, *, tapper: Tr | None = None) -> str:
    """An inline card whose challenge cannot be opened (made while its author could still
    open one, posted once they could not): the card says so at once, without its Accept,
    and the author is told in private (when they started the bot). Returns what the tapper
    of its Accept is told (in ``tapper``'s language)."""
    author = await p.uc.get_player(author_id)
    ta = p.t_user(author)
    name = author.display_name if author is not None else "?"
    over = refusal.code in ("too_many_challenges", "too_many_challenges_here")
    card = (ta._("🚫 {player} has too many open challenges, so this challenge cannot be "
                 "opened.", player=html.escape(name)) if over
            else ta._("🚫 This challenge cannot be opened."))
    await quietly(context.bot.edit_message_text(card, inline_message_id=inline_message_id,
                                                parse_mode=HTML, reply_markup=None))
    if over and author is not None and author.can_message:
        await quietly(context.bot.send_message(author_id, ta._(
            "Your challenge card could not be opened: you have too many open challenges. "
            "Withdraw one (Withdraw on its card), or wait until one is accepted or expires, "
            "then post a new card.")))
    t = tapper or ta
    if over:
        return t._("{player} has too many open challenges right now, so this card cannot be "
                   "accepted.", player=name)
    return texts.error_text(t, refusal.code or "error")
