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

from bot.delivery.publish import Publisher
from bot.state import Portes
from computer import Decision, Hint, MatchContext, MatchReview, aio, make_player
from computer.decide import (
    LEVEL_NAMES,
    accepts_offer,
    match_context,
    mover_for,
    resignation_verdict,
)
from computer.engine import available as engine_available
from computer.evaluators import needs_engine
from computer.hint import PlainHint, plain_hint
from computer.players import ComputerPlayer
from rules.common.fairdice import FairDice
from rules.games import turn_input
from rules.match import Match, Phase, TurnPlayed
from rules.position import Play
from storage.replay import replay
from storage.results import (
    COMPUTER,
    ActionResult,
    MatchRecord,
    MatchStatus,
    MatchView,
)

log = logging.getLogger("bot.computer")
HTML = ParseMode.HTML

REVIEWED_STATUSES = (MatchStatus.FINISHED, MatchStatus.ABANDONED)
"""The matches that have a review: finished, or lost on time."""
HINT_TIMEOUT = 10.0


def decisions_from_record(record: MatchRecord) -> list[Decision]:
    """Every logged turn as a :class:`computer.Decision`, from the one replay of the move log
    (:func:`storage.replay.replay`, with the match's revealed dice); empty while the dice are
    not revealed. Scores before each game come from the games' results."""
    mv = record.match
    state = mv.state
    if mv.seed_hex is None or mv.mix is None:
        return []
    played: list[TurnPlayed] = []
    replay(record, FairDice(mv.seed_hex, mv.mix), played=played)
    score = [0, 0]
    before: dict[int, tuple[int, int]] = {}
    for game in sorted(record.games, key=lambda g: g.number):
        before[game.number] = (score[0], score[1])
        if game.winner is not None and game.points:
            score[game.winner] += game.points
    out: list[Decision] = []
    for turn in played:
        mine, theirs = before.get(turn.game, (score[0], score[1]))
        if turn.player == 1:
            mine, theirs = theirs, mine
        final = turn_input(turn.position_before, turn.dice, state.options).position_after(
            turn.moves)
        out.append(Decision(turn.player, turn.position_before, turn.dice,
                            Play(turn.moves, final),
                            MatchContext(state.length, mine, theirs, state.no_triple)))
    return out


class ComputerSide:
    """The computer's turns and the engine's services for one bot (one per ``Portes``,
    as its :class:`bot.state.ComputerService`)."""

    def __init__(self, portes: Portes, bot: Bot) -> None:
        self.p = portes
        self.bot = bot
        self.players: dict[int, ComputerPlayer] = {
            level: make_player(name) for level, name in LEVEL_NAMES.items()
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
        mover = mover_for(state, mv.computer_level, self.players, engine=self.engine)
        if not mover.in_worker:
            return await asyncio.to_thread(mover.player.choose_play, state.position, state.dice)
        context = match_context(state, state.turn)
        began = time.monotonic()
        try:
            play = await aio.choose_play_async(mover.player, state.position, state.dice, context)
            if self.p.metrics is not None:
                self.p.metrics.computer_seconds.observe(time.monotonic() - began)
            return play
        except Exception:
            log.exception("match %s: the engine failed; the easy level plays instead", mv.id)
            easy = self.players[1]
            return await asyncio.to_thread(easy.choose_play, state.position, state.dice, context)

    async def accepts_resignation(self, state: Match) -> bool:
        """The computer's answer to a resignation offer (:mod:`computer.decide`'s policy; the
        engine judges the offerer's chances when the policy needs them)."""
        verdict = resignation_verdict(state, engine=self.engine)
        if verdict is not None:
            return verdict
        assert state.dice is not None
        try:
            h = await aio.hint_async(state.position, state.dice,
                                     match_context(state, state.turn), plies=0)
        except Exception:
            log.exception("the engine failed to judge a resignation offer; declining")
            return False
        return accepts_offer(state, h.match_winning_chance)

    # -- hints -----------------------------------------------------------------------------

    async def hint(self, mv: MatchView, seat: int) -> Hint | PlainHint:
        state = mv.state
        assert state.dice is not None
        if not needs_engine(state.position):
            return await asyncio.wait_for(asyncio.to_thread(
                plain_hint, state.position, state.dice, match_context(state, seat),
                state.options), HINT_TIMEOUT)
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
        review = await aio.review_match_async(decisions, options=record.match.state.options)
        self.reviews[match_id] = review
        while len(self.reviews) > 256:
            self.reviews.popitem(last=False)
        return record.match, review
