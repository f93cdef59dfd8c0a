"""Asynchronous wrappers: the engine runs off the event loop.

``gnubg_nn`` does not release the GIL while it evaluates (measured: a Python thread makes no
progress during a call; a 2-ply evaluation holds it for 10-80 ms, a whole review for seconds).
A worker *thread* would therefore still stall the bot's event loop for the length of each engine
call. So the default executor is a **process pool** (one worker, ``spawn`` start so no threads
of the bot are forked): the loop only waits on a pipe. The worker loads the nets once (about
0.3 s) when the pool starts, at the first call; :func:`start` pays that early instead. The bot
does not call it: a computer turn's pause covers the first start.

Values cross the process boundary by pickling. ``rules.position.Position`` refuses
``__setattr__``, which breaks pickle's default for slotted classes, so this module registers a
reducer for it (``copyreg``; rebuilding goes through ``Position(board)``).

Every result is mapped back to the caller's own objects: :func:`choose_play_async` returns an
element of ``legal_plays(position, dice)`` computed in this process.
"""

from __future__ import annotations

import asyncio
import copyreg
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor

from computer.accuracy import MatchAccuracy, equity_lost, tally
from computer.context import MONEY, MatchContext
from computer.hint import Hint, hint
from computer.players import ComputerPlayer
from computer.review import Decision, MatchReview, review_match
from rules.position import Dice, Play, Position, legal_plays
from rules.steps.options import RuleOptions


def _reduce_position(position: Position) -> tuple[type[Position], tuple[tuple[int, ...]]]:
    return Position, (position.board,)


try:
    pickle.loads(pickle.dumps(Position.start()))
except AttributeError:
    copyreg.pickle(Position, _reduce_position)

_executor: Executor | None = None


def _warm_up() -> None:
    from computer import engine

    if engine.available():
        engine.nets()  # loads the nets, once, in the worker


def _watch_parent(parent: int, interval: float = 1.0) -> None:
    """In the worker: exit when the process that started it (``parent``, its pid) is gone. A
    bot killed outright (SIGKILL, a crash) cannot stop its pool, and an idle worker would
    otherwise live on. The pid comes from the parent: read in the worker, it was already
    init's when the bot died while the worker was still starting (seen: 29 such workers, 1.9 GB,
    left by one test run that kills bots just after their start)."""
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="portes-parent-watch", daemon=True).start()


def init_worker(parent: int | None = None) -> None:
    """The worker's initializer: watch the parent (``parent``: its pid, passed by
    :func:`pool`), load the nets."""
    _watch_parent(os.getppid() if parent is None else parent)
    _warm_up()


def pool() -> ProcessPoolExecutor:
    """A process pool of one engine worker (``spawn``: none of the caller's threads is forked)
    that ends itself when the process that made it is gone."""
    return ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=init_worker,
        initargs=(os.getpid(),))


def use_executor(executor: Executor | None) -> None:
    """Use ``executor`` for engine work (``None``: back to the default process pool).

    A ``ThreadPoolExecutor`` works too (lighter, but see the module text about the GIL).
    The previous default pool, if any, is shut down; an executor passed in is the caller's.
    """
    global _executor
    if _executor is not None and getattr(_executor, "_portes_default", False):
        _executor.shutdown(wait=False, cancel_futures=True)
    _executor = executor


def executor() -> Executor:
    """The executor in use, creating the default process pool on first use."""
    global _executor
    if _executor is None:
        _executor = pool()
        _executor._portes_default = True  # type: ignore[attr-defined]
    return _executor


def uses_default() -> bool:
    """True when engine work goes (or will go) to the default process pool, i.e. no executor
    was chosen with :func:`use_executor` (the bot then owns the pool and stops it at shutdown)."""
    return _executor is None or bool(getattr(_executor, "_portes_default", False))


async def start() -> None:
    """Start the worker and load the nets now (optional; the first call would do it)."""
    await asyncio.get_running_loop().run_in_executor(executor(), _warm_up)


def shutdown() -> None:
    """Stop the default worker process (at bot shutdown)."""
    use_executor(None)


def _choose(
    player: ComputerPlayer, position: Position, dice: Dice, context: MatchContext
) -> Position:
    return player.choose_play(position, dice, context).position


async def choose_play_async(
    player: ComputerPlayer,
    position: Position,
    dice: Dice | tuple[int, int],
    context: MatchContext = MONEY,
) -> Play:
    """``player.choose_play`` off the event loop; returns one of ``legal_plays(position, dice)``."""
    dice = Dice(*dice)
    plays = legal_plays(position, dice)
    if len(plays) == 1:
        return plays[0]  # forced or a pass: nothing to think about
    loop = asyncio.get_running_loop()
    chosen = await loop.run_in_executor(executor(), _choose, player, position, dice, context)
    for play in plays:
        if play.position == chosen:
            return play
    raise RuntimeError("the computer chose a position that is not a legal play")


async def hint_async(
    position: Position,
    dice: Dice | tuple[int, int],
    context: MatchContext = MONEY,
    *,
    plies: int = 1,
) -> Hint:
    """:func:`computer.hint.hint` off the event loop."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(
        executor(), _hint, position, Dice(*dice), context, plies
    )


def _hint(position: Position, dice: Dice, context: MatchContext, plies: int) -> Hint:
    return hint(position, dice, context, plies=plies)


def _review(decisions: list[Decision], plies: int, options: RuleOptions | None) -> MatchReview:
    return review_match(decisions, plies=plies, options=options)


async def review_match_async(decisions: Sequence[Decision], *, plies: int = 1,
                             options: RuleOptions | None = None) -> MatchReview:
    """:func:`computer.review.review_match` off the event loop (seconds for a long match)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor(), _review, list(decisions), plies, options)


async def match_accuracy_async(decisions: Sequence[Decision],
                               options: RuleOptions | None = None) -> MatchAccuracy:
    """:func:`computer.accuracy.match_accuracy` off the event loop, one turn per call to the
    worker (a 1-ply look is some 50 ms): the computer's turns of other matches are not held
    behind a whole match's judging (seconds)."""
    loop = asyncio.get_running_loop()
    losses = [await loop.run_in_executor(executor(), equity_lost, d, options)
              for d in decisions]
    return tally(decisions, losses)
