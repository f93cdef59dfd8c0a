"""The computer in the bot: its turns, its answers to resignation offers, hints and reviews.

The engine runs in :mod:`computer.aio`'s worker process, so the event loop keeps answering
other matches' taps while the computer thinks. The computer acts through the same use cases as
a person (``actor=COMPUTER``) and its moves are shown by the same :class:`Publisher`, after a
short pause (``PORTES_COMPUTER_DELAY``) so the player can follow.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from telegram import Bot, Message, Update
from telegram.constants import ParseMode
from telegram.error import Forbidden, TelegramError
from telegram.ext import ContextTypes

import computer
from bot import texts
from bot.callbacks import Callback
from bot.core import Portes, command_sender, names, opponent_name, quietly, tapped
from bot.i18n import N_, Tr
from bot.publish import Publisher
from computer import Decision, Hint, MatchContext, MatchReview, aio, make_player
from computer.met import match_equity
from computer.players import ComputerPlayer
from rules.match import Match, Phase
from rules.position import Play, Position, apply_move
from storage.results import (
    COMPUTER,
    ActionResult,
    LoggedTurn,
    MatchRecord,
    MatchStatus,
    MatchView,
)

log = logging.getLogger("bot.computer")
HTML = ParseMode.HTML
Ctx = ContextTypes.DEFAULT_TYPE

LEVELS: dict[int, str] = dict(enumerate(computer.LEVELS, start=1))
"""Storage keeps a computer match's level as a number: 1 easy, 2 medium, 3 strong."""
"""``computer_level`` as stored (an integer) -> the level's name in :mod:`computer`."""
DEFAULT_LEVEL = 2
LEVEL_TEXT = {1: N_("easy"), 2: N_("medium"), 3: N_("strong")}
REVIEWED_STATUSES = (MatchStatus.FINISHED, MatchStatus.ABANDONED)
HINT_TIMEOUT = 10.0


def level_text(t: Tr, level: int | None) -> str:
    return t._(LEVEL_TEXT.get(level or DEFAULT_LEVEL, LEVEL_TEXT[DEFAULT_LEVEL]))


def match_context(state: Match, player: int) -> MatchContext:
    """The match situation from ``player``'s side (length, score, no triple)."""
    length = state.length
    mine = min(state.score[player], length - 1)
    theirs = min(state.score[1 - player], length - 1)
    return MatchContext(length, mine, theirs, state.no_triple)


def decisions_from_record(record: MatchRecord) -> list[Decision]:
    """Every logged turn as a :class:`computer.Decision`, rebuilt by replaying each game's
    moves from the starting position (the log keeps the dice and the moves; the positions
    follow from the rules). Scores before each game come from the games' results."""
    state = record.match.state
    games = {g.number: g for g in record.games}
    turns_by_game: dict[int, list[LoggedTurn]] = {}
    for turn in record.turns:
        turns_by_game.setdefault(turn.game, []).append(turn)
    score = [0, 0]
    out: list[Decision] = []
    for number in sorted(set(games) | set(turns_by_game)):
        if max(score) >= state.length:
            break
        contexts = (
            MatchContext(state.length, score[0], score[1], state.no_triple),
            MatchContext(state.length, score[1], score[0], state.no_triple),
        )
        position = Position.start()
        for turn in sorted(turns_by_game.get(number, ()), key=lambda t: t.turn):
            final = position
            for move in turn.moves:
                final = apply_move(final, move)
            out.append(Decision(turn.player, position, turn.dice, Play(turn.moves, final),
                                contexts[turn.player]))
            position = final.flip()
        game = games.get(number)
        if game is not None and game.winner is not None and game.points:
            score[game.winner] += game.points
    return out


def hint_text(t: Tr, h: Hint) -> str:
    """One short line (a callback alert holds 200 characters)."""
    text = t._("💡 Best play: {play}", play=h.text) + "\n" + t._(
        "Win {win}% · gammon {gammon}% · lose a gammon {lose_gammon}%",
        win=f"{100 * h.win:.1f}", gammon=f"{100 * h.win_gammon:.1f}",
        lose_gammon=f"{100 * h.lose_gammon:.1f}")
    return text[:200]


def review_text(t: Tr, mv: MatchView, review: MatchReview) -> str:
    """The post-match review: per player, decisions, equity lost, the worst plays, luck."""
    n = names(t, mv)
    lines = [t._("📊 <b>Review of match #{id}</b> ({p0} – {p1}, {s0}–{s1})", id=mv.id,
                 p0=n[0], p1=n[1], s0=mv.state.score[0], s1=mv.state.score[1])]
    for pr in review.players:
        lines.append("")
        lines.append(t.ngettext(
            "<b>{player}</b>: {n} decision, equity lost {lost} ({average} per decision), "
            "luck {luck}",
            "<b>{player}</b>: {n} decisions, equity lost {lost} ({average} per decision), "
            "luck {luck}",
            pr.decisions, player=n[pr.player], lost=f"{pr.equity_lost:.3f}",
            average=f"{pr.average_equity_lost:.3f}", luck=f"{pr.luck:+.2f}"))
        if not pr.worst:
            lines.append(t._("No mistakes found."))
        for w in pr.worst:
            lines.append(t._("• {dice}: played {played}, better {best} (−{lost})",
                             dice=f"{w.dice.die1}-{w.dice.die2}",
                             played=html.escape(w.played_text), best=html.escape(w.best_text),
                             lost=f"{w.equity_lost:.3f}"))
    lines.append("")
    lines.append(t._("Equity in points per game against the engine's choice; positive luck "
                     "means better dice than average."))
    return "\n".join(lines)[:4096]


class ComputerSide:
    """The computer's turns and the engine's services for one bot (one per ``Portes``)."""

    def __init__(self, portes: Portes, bot: Bot) -> None:
        self.p = portes
        self.bot = bot
        self.players: dict[int, ComputerPlayer] = {
            level: make_player(name) for level, name in LEVELS.items()
        }
        self.busy: set[int] = set()
        self.reviews: OrderedDict[int, MatchReview] = OrderedDict()
        self.reviewed: set[int] = set()
        """Matches whose end-of-match review was sent by this instance."""

    def install(self) -> None:
        self.p.computer_turn = self.turn
        self.p.match_finished = self.match_finished

    def player_for(self, level: int | None) -> ComputerPlayer:
        return self.players.get(level or DEFAULT_LEVEL) or self.players[DEFAULT_LEVEL]

    @property
    def delay(self) -> float:
        return max(0.0, self.p.settings.computer_delay)

    # -- the computer's turn ---------------------------------------------------------------

    async def resume(self) -> None:
        """At start-up: take up the matches where the computer was to act."""
        try:
            pending = await self.p.uc.pending_computer_turns()
        except Exception:
            log.exception("could not list the computer's pending turns")
            return
        for summary in pending:
            loaded = await self.p.uc.load_match(summary.id)
            if loaded.match is not None and loaded.match.computer_to_act:
                self.p.spawn(self.turn(loaded.match))

    async def turn(self, mv: MatchView) -> None:
        """Act for the computer in ``mv`` (a move, or an answer to a resignation offer), after
        the pause, then show the match. At most one of these runs per match at a time."""
        if mv.id in self.busy:
            return
        self.busy.add(mv.id)
        try:
            loop = asyncio.get_running_loop()
            began = loop.time()
            loaded = await self.p.uc.load_match(mv.id)
            current = loaded.match
            if current is None or not current.computer_to_act:
                return
            action = await self._decide(current)
            if action is None:
                return
            pause = self.delay - (loop.time() - began)
            if pause > 0:
                await asyncio.sleep(pause)
            async with self.p.locks.hold(mv.id):
                res = await action()
                self.p.remember(res.match)
                self.busy.discard(mv.id)  # the next turn (shown below) may start
                if not res.ok or res.match is None:
                    if res.outcome != "stale":
                        log.warning("match %s: the computer's action was refused: %s",
                                    mv.id, res.code)
                    return
                await Publisher(self.p, self.bot).show(res.match, res.events)
        finally:
            self.busy.discard(mv.id)

    async def _decide(
        self, mv: MatchView
    ) -> Callable[[], Awaitable[ActionResult]] | None:
        """Think (off the loop); return the use-case call that commits the decision."""
        state = mv.state
        uc = self.p.uc
        if state.phase == Phase.RESIGN_OFFERED:
            accept = await self.accepts_resignation(state)
            return lambda: uc.answer_resignation(mv.id, COMPUTER, mv.version, accept=accept)
        if state.phase != Phase.PLAYING or state.dice is None:
            return None
        play = await self.choose(mv)
        return lambda: uc.play(mv.id, COMPUTER, mv.version, play)

    async def choose(self, mv: MatchView) -> Play:
        state = mv.state
        assert state.dice is not None
        player = self.player_for(mv.computer_level)
        context = match_context(state, state.turn)
        try:
            return await aio.choose_play_async(player, state.position, state.dice, context)
        except Exception:
            log.exception("match %s: the engine failed; the easy level plays instead", mv.id)
            easy = self.players[1]
            return await asyncio.to_thread(easy.choose_play, state.position, state.dice, context)

    async def accepts_resignation(self, state: Match) -> bool:
        """Accept when the points offered win the computer at least as much as playing on is
        expected to (by match-winning chance: the engine's chances after the offerer's best
        play with the dice rolled, against the match equity after taking the points)."""
        offerer = state.turn
        me = 1 - offerer
        points = state.resign_offer
        my_away = state.length - state.score[me]
        their_away = state.length - state.score[offerer]
        if points >= my_away:
            return True  # the points win the match
        if state.dice is None:
            return False
        try:
            h = await aio.hint_async(state.position, state.dice, match_context(state, offerer),
                                     plies=0)
        except Exception:
            log.exception("the engine failed to judge a resignation offer; declining")
            return False
        if h.match_winning_chance is None:
            return False
        playing_on = 1.0 - h.match_winning_chance
        taking = match_equity(my_away - points, their_away, no_triple=state.no_triple)
        return taking >= playing_on - 1e-9

    # -- hints -----------------------------------------------------------------------------

    async def hint(self, mv: MatchView, seat: int) -> Hint:
        state = mv.state
        assert state.dice is not None
        return await asyncio.wait_for(
            aio.hint_async(state.position, state.dice, match_context(state, seat)),
            HINT_TIMEOUT)

    # -- reviews ---------------------------------------------------------------------------

    async def review(self, match_id: int) -> tuple[MatchView, MatchReview] | None:
        """The review of a finished match (computed once, then remembered), or ``None`` when
        the match is not finished or has no turns."""
        record = await self.p.uc.match_record(match_id)
        if record is None or record.match.status not in REVIEWED_STATUSES:
            return None
        known = self.reviews.get(match_id)
        if known is not None:
            return record.match, known
        decisions = decisions_from_record(record)
        if not decisions:
            return None
        review = await aio.review_match_async(decisions)
        self.reviews[match_id] = review
        while len(self.reviews) > 256:
            self.reviews.popitem(last=False)
        return record.match, review

    async def match_finished(self, mv: MatchView) -> None:
        """At match end: each human player gets the review privately (if the bot may write)."""
        if mv.status not in REVIEWED_STATUSES or mv.id in self.reviewed:
            return
        self.reviewed.add(mv.id)
        try:
            found = await self.review(mv.id)
        except Exception:
            log.exception("match %s: the review failed", mv.id)
            return
        if found is None:
            return
        final, review = found
        for seat in final.seats:
            player = seat.player
            if player is None or not player.can_message:
                continue
            t = self.p.t_user(player)
            try:
                await self.bot.send_message(player.id, review_text(t, final, review),
                                            parse_mode=HTML)
            except Forbidden:
                await self.p.uc.set_can_message(player.id, False)
            except TelegramError as exc:
                log.info("could not send the review to %s: %s", player.id, exc)


def side(p: Portes) -> ComputerSide:
    value = p.computer
    assert isinstance(value, ComputerSide)
    return value


# -- handlers -------------------------------------------------------------------------------


async def on_hint(update: Update, context: Ctx, cb: Callback) -> None:
    """The Hint button (games against the computer only): the best play and its chances."""
    p, q, t = await tapped(update, context)
    mv, code = await p.view(cb.match_id, cb.version)
    if mv is None:
        await q.answer(texts.error_text(t, code or "not_found"), show_alert=True)
        return
    seat = mv.seat_of(q.from_user.id)
    if seat is None:
        await q.answer(texts.error_text(t, "not_a_player"), show_alert=True)
        return
    if not mv.seats[1 - seat].is_computer:
        await q.answer(t._("Hints are only for games against the computer."), show_alert=True)
        return
    state = mv.state
    if mv.to_act != seat or state.phase != Phase.PLAYING or state.dice is None:
        await q.answer(texts.error_text(t, "not_your_turn"), show_alert=True)
        return
    try:
        h = await side(p).hint(mv, seat)
    except Exception:
        log.exception("match %s: no hint", mv.id)
        await q.answer(t._("The computer cannot give a hint just now; try again."),
                       show_alert=True)
        return
    await q.answer(hint_text(t, h), show_alert=True)


async def on_review(update: Update, context: Ctx, cb: Callback) -> None:
    """The Review button (any finished match): the review, sent where the button was."""
    p, q, t = await tapped(update, context)
    loaded = await p.uc.load_match(cb.match_id)
    mv = loaded.match
    if mv is None or mv.seat_of(q.from_user.id) is None:
        await q.answer(texts.error_text(t, "not_a_player"), show_alert=True)
        return
    if mv.status not in REVIEWED_STATUSES:
        await q.answer(t._("The review is ready when the match is over."), show_alert=True)
        return
    await q.answer(t._("Reviewing the match…"))
    msg = q.message if isinstance(q.message, Message) else None
    chat_id = msg.chat_id if msg is not None else q.from_user.id
    thread = msg.message_thread_id if msg is not None and msg.is_topic_message else None
    await send_review(p, context.bot, mv.id, chat_id, t, thread_id=thread)


async def send_review(p: Portes, bot: Bot, match_id: int, chat_id: int, t: Tr, *,
                      thread_id: int | None = None) -> None:
    try:
        found = await side(p).review(match_id)
    except Exception:
        log.exception("match %s: the review failed", match_id)
        found = None
    if found is None:
        await quietly(bot.send_message(chat_id, t._("No review is available for this match."),
                                       message_thread_id=thread_id))
        return
    final, review = found
    await quietly(bot.send_message(chat_id, review_text(t, final, review), parse_mode=HTML,
                                   message_thread_id=thread_id))


async def cmd_review(update: Update, context: Ctx) -> None:
    """``/review``: the player's recent finished matches, each with a Review button;
    ``/review <match id>``: that match's review at once."""
    from telegram import InlineKeyboardButton as Btn
    from telegram import InlineKeyboardMarkup as Markup

    from bot.callbacks import Action, encode
    from storage.history import finished_matches

    sender = await command_sender(update, context)
    if sender is None:
        return
    p, msg, user, t = sender
    thread = msg.message_thread_id if msg.is_topic_message else None
    if context.args and context.args[0].lstrip("#").isdigit():
        loaded = await p.uc.load_match(int(context.args[0].lstrip("#")))
        mv = loaded.match
        if mv is None or mv.seat_of(user.id) is None:
            await msg.reply_text(texts.error_text(t, "not_a_player"))
            return
        if mv.status not in REVIEWED_STATUSES:
            await msg.reply_text(t._("The review is ready when the match is over."))
            return
        await send_review(p, context.bot, mv.id, msg.chat_id, t, thread_id=thread)
        return
    matches = await finished_matches(p.uc, user.id, 10)
    if not matches:
        await msg.reply_text(t._("You have no finished match yet."))
        return
    lines = [t._("Your finished matches (tap one for its review):")]
    rows = []
    for s in matches:
        opponent = opponent_name(t, s)  # plain: escaped for the HTML text, not for the buttons
        me, them = s.score[s.my_seat], s.score[1 - s.my_seat]
        lines.append(f"#{s.id} · {html.escape(opponent)} · {me}–{them}/{s.length}")
        rows.append([Btn(f"📊 #{s.id} {opponent} {me}–{them}",
                         callback_data=encode(Action.REVIEW, s.id, 0))])
    await msg.reply_text("\n".join(lines), parse_mode=HTML, reply_markup=Markup(rows))
