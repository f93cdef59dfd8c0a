"""The engine runs off the event loop: other coroutines make progress while it thinks."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from computer import aio
from computer.players import make_player
from computer.selfplay import play_game
from rules.position import Dice, Position, legal_plays

ROOT = Path(__file__).resolve().parents[2]


async def test_engine_does_not_block_the_loop() -> None:
    record = play_game((make_player("medium", 1), make_player("random", 2)), random.Random(4))
    try:
        await aio.start()
        ticks = 0
        done = asyncio.Event()

        async def ticker() -> None:
            nonlocal ticks
            while not done.is_set():
                await asyncio.sleep(0.001)
                ticks += 1

        task = asyncio.create_task(ticker())
        review = await aio.review_match_async(record.decisions)
        done.set()
        await task
        # the review takes a good fraction of a second of engine work; the loop kept ticking
        assert ticks >= 10
        assert review.players[0].turns + review.players[1].turns == len(record.decisions)

        dice = Dice(4, 2)
        play = await aio.choose_play_async(make_player("strong"), Position.start(), dice)
        assert play in legal_plays(Position.start(), dice)
        hint = await aio.hint_async(Position.start(), (3, 1))
        assert hint.text == "8/5 6/5"
    finally:
        aio.shutdown()


async def test_a_thread_executor_can_be_used() -> None:
    with ThreadPoolExecutor(1) as pool:
        aio.use_executor(pool)
        try:
            dice = Dice(6, 5)
            play = await aio.choose_play_async(make_player("easy", 3), Position.start(), dice)
            assert play in legal_plays(Position.start(), dice)
        finally:
            aio.use_executor(None)


def test_a_worker_whose_bot_died_while_it_started_ends_itself() -> None:
    # Given a process that starts its engine worker and is gone at once (a bot killed
    # right after its start), before the worker has even imported the engine
    script = ("import os, sys\n"
              "from computer import aio\n"
              "pool = aio.pool()\n"
              "pool.submit(os.getpid)\n"
              "print(*pool._processes, flush=True)\n"
              "os._exit(0)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    [worker] = [int(pid) for pid in done.stdout.split()]
    # Then the worker ends too (it watches the pid its parent gave it, not its own parent
    # once it runs: by then that was init)
    for _ in range(600):  # a hang guard of a minute
        if not alive(worker):
            return
        time.sleep(0.1)
    os.kill(worker, signal.SIGKILL)
    raise AssertionError(f"the engine worker {worker} outlived its bot by a minute")


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for init to reap it does not)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
