"""The computer player in the bot: its turns, its answers to resignation offers, hints and
reviews (the service; its buttons and commands are in :mod:`bot.handlers.computer`).

The engine runs in :mod:`computer.aio`'s worker process, so the event loop keeps answering
other matches' taps while the computer thinks. The computer acts through the same use cases as
a person (``actor=COMPUTER``) and its moves are shown by the same :class:`Publisher`, after a
short pause (``PORTES_COMPUTER_DELAY``) so the player can follow.

Several instances: the instance that plays a computer's turn claims it in the database first (a
lease of ``PORTES_COMPUTER_LEASE`` seconds, renewed while the engine thinks, released once the
move is committed), so each pending turn is played by one instance. Every instance looks for
unclaimed pending turns at start and then every third of a lease (:meth:`ComputerSide.take_over`):
the turns of an instance that died are played by a survivor once its lease has run out. The
move itself is a compare-and-swap on the match's version, so even a turn played twice (a lease
lost while thinking) is committed once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from telegram import Bot
from telegram.constants import ParseMode

import computer
from bot.delivery.publish import Publisher
from bot.state import Portes
from bot.views.texts import DEFAULT_LEVEL
from computer import Decision, Hint, MatchContext, MatchReview, aio, make_player, tavli_player
from computer.engine import available as engine_available
from computer.met import match_equity
from computer.players import ComputerPlayer
from rules.match import Match, Phase
from rules.position import Play, Position, apply_move
from rules.tavliboard import TavliPosition
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

LEVELS: dict[int, str] = dict(enumerate(computer.LEVELS, start=1))
"""``computer_level`` as stored (an integer: 1 easy, 2 medium, 3 strong) -> the level's name in
:mod:`computer`."""
REVIEWED_STATUSES = (MatchStatus.FINISHED, MatchStatus.ABANDONED)
"""The matches that have a review: finished, or lost on time."""
HINT_TIMEOUT = 10.0


def tavli_level(level: int | None) -> str:
    """The level of a Plakoto, Fevga, Long Nardy or tavli match (``computer.TAVLI_LEVELS``):
    easy (1) or medium (2, and 3 from a card of before)."""
    return "easy" if level == 1 else "medium"


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


class ComputerSide:
    """The computer's turns and the engine's services for one bot (one per ``Portes``,
    as its :class:`bot.state.ComputerService`)."""

    def __init__(self, portes: Portes, bot: Bot) -> None:
        self.p = portes
        self.bot = bot
        self.players: dict[int, ComputerPlayer] = {
            level: make_player(name) for level, name in LEVELS.items()
        }
        self.busy: dict[int, str] = {}
        """Matches whose turn a call of this instance is playing, and that call's claim."""
        self.reviews: OrderedDict[int, MatchReview] = OrderedDict()
        self.engine = engine_available()
        """Whether gnubg-nn is installed (the ``computer`` extra): the stronger levels, hints,
        reviews and judging resignation offers need it."""
        self.worker = f"{socket.gethostname()[:40]}:{os.getpid()}:computer"
        self.turns = 0
        """Turn calls so far (each claims under its own name: ``<worker>:<n>``)."""

    def player_for(self, level: int | None) -> ComputerPlayer:
        if not self.engine:  # without gnubg-nn every match gets the easy level
            return self.players[1]
        return self.players.get(level or DEFAULT_LEVEL) or self.players[DEFAULT_LEVEL]

    @property
    def delay(self) -> float:
        return max(0.0, self.p.settings.computer_delay)

    # -- the computer's turn ---------------------------------------------------------------

    @property
    def lease(self) -> float:
        return max(1.0, self.p.settings.timeouts.computer_lease)

    async def resume(self) -> None:
        """At start-up: take up the matches where the computer was to act."""
        await self.take_over()

    async def take_over(self) -> int:
        """Play the computer's pending turns no live instance holds (left when the bot
        stopped, or by an instance that died); returns how many were started."""
        try:
            pending = await self.p.uc.unclaimed_computer_turns()
        except Exception:
            log.exception("could not list the computer's pending turns")
            return 0
        started = 0
        for match_id in pending:
            if match_id in self.busy:
                continue
            loaded = await self.p.uc.load_match(match_id)
            if loaded.match is not None and loaded.match.computer_to_act:
                log.info("match %s: playing the computer's pending turn", match_id)
                self.p.spawn(self.turn(loaded.match))
                started += 1
        return started

    async def turn(self, mv: MatchView) -> None:
        """Act for the computer in ``mv`` (a move, or an answer to a resignation offer), after
        the pause, then show the match. At most one of these runs per match at a time, in one
        instance: the one whose claim on the turn the database accepted."""
        if mv.id in self.busy:
            return
        self.turns += 1
        claimant = f"{self.worker}:{self.turns}"[:64]
        self.busy[mv.id] = claimant
        renewing: asyncio.Future[None] | None = None
        try:
            if not await self.p.uc.claim_computer_turn(mv.id, claimant, self.lease):
                return  # another instance (or call) is playing it
            renewing = asyncio.ensure_future(self._renew(mv.id, claimant))
            await self._play(mv, claimant)
        finally:
            if renewing is not None:
                renewing.cancel()
                await self._let_go(mv.id, claimant)
            if self.busy.get(mv.id) == claimant:  # not the next turn's mark
                del self.busy[mv.id]

    async def _renew(self, match_id: int, claimant: str) -> None:
        """Keep the claim while the engine thinks and the pause runs."""
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                if not await self.p.uc.renew_computer_claim(match_id, claimant, self.lease):
                    log.warning("match %s: the computer's turn was taken over", match_id)
                    return
            except Exception as exc:
                log.warning("match %s: could not renew the computer's claim: %s", match_id, exc)

    async def _let_go(self, match_id: int, claimant: str) -> None:
        with contextlib.suppress(Exception):
            await self.p.uc.release_computer_claim(match_id, claimant)

    async def _play(self, mv: MatchView, claimant: str) -> None:
        """Think, pause, commit, let the turn go, and show (see :meth:`turn`)."""
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
            # the turn is committed: its claim goes before the next turn (shown below) starts
            await self._let_go(mv.id, claimant)
            if self.busy.get(mv.id) == claimant:
                del self.busy[mv.id]
            if not res.ok or res.match is None:
                if res.outcome != "stale":
                    log.warning("match %s: the computer's action was refused: %s",
                                mv.id, res.code)
                return
            await Publisher(self.p, self.bot).show(res.match, res.events, res.chat_keys)

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
        if state.game_type != "portes":
            # Plakoto, Fevga, Long Nardy and the tavli rotation: no net for these games;
            # computer.tavli_player plays them, easy or medium (a search within about 200 ms),
            # in this process; a tavli match's Portes games go to the engine's worker.
            player = tavli_player(tavli_level(mv.computer_level), state.options)
            if isinstance(state.position, TavliPosition):
                return await asyncio.to_thread(player.choose_play, state.position, state.dice)
        context = match_context(state, state.turn)
        began = time.monotonic()
        try:
            play = await aio.choose_play_async(player, state.position, state.dice, context)
            if self.p.metrics is not None:
                self.p.metrics.computer_seconds.observe(time.monotonic() - began)
            return play
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
        if state.game_type != "portes":
            return points >= 2  # no engine for these games: the most a game can give
        if state.dice is None or not self.engine:
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
