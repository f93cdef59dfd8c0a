"""The engine runs off the event loop: other coroutines make progress while it thinks."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

from computer import aio
from computer.players import make_player
from computer.selfplay import play_game
from rules.position import Dice, Position, legal_plays


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
