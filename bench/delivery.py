"""How fast boards heal: Telegram fails a turn's calls, then recovers; how long until the chat
shows exactly one live board again?

    python bench/delivery.py [--trials 12]

Starts the real bot (``python -m bot``, rate limits lifted) against a stand-in started here and
plays one group match. Each trial plays a turn up to its last tap, then makes Telegram fail:
``answerCallbackQuery`` answers 502 (case 1 of issue 10) and the next three ``sendPhoto`` calls
answer 502 (past nothing the client would retry by itself: the delivery worker must come back
to it). The fault has cleared when the last failing call was answered; the board has converged
when the group shows exactly one live board, newer than the tapped one. ``heal_s`` is the time
between the two.

The last line is ``delivery: heal_p95_s=<x> heal_p50_s=<x> trials=<n> lost=<n>`` (``lost``:
trials whose board never converged within 30 s). The target is heal_p95_s <= 10.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from storage.migrate import upgrade  # noqa: E402
from tests.bot.players import start_group_match, tap_and_wait  # noqa: E402
from tests.standin import Chat, Message, StandIn, StandInError, User  # noqa: E402


def boards(chat: Chat) -> list[Message]:
    return [m for m in chat.bot_messages() if m.photo_bytes is not None and m.has_keyboard]


def buttons(board: Message, kinds: str) -> list[str]:
    return [b.text for row in board.buttons for b in row
            if b.callback_data and b.callback_data.split(":")[0] in kinds]


async def last_tap(standin: StandIn, user: User, chat: Chat) -> tuple[Message, str]:
    """Tap through the turn until only the tap that ends it is left."""
    for _ in range(12):
        board = boards(chat)[-1]
        final = buttons(board, "cp")
        if final:
            return board, final[0]
        assert await tap_and_wait(standin, user, board, buttons(board, "mf")[0]) is None
    raise AssertionError("a turn took more than 12 taps")


async def trial(standin: StandIn, chat: Chat, alice: User, bob: User) -> float | None:
    board = boards(chat)[-1]
    mover = alice if board.mentions(alice) else bob
    board, final = await last_tap(standin, mover, chat)
    await standin.idle()
    standin.inject_error("answerCallbackQuery", 502, description="Bad Gateway")
    standin.inject_error("sendPhoto", 502, times=3, description="Bad Gateway")
    started = standin.now()
    mover.tap(board, final)

    def healed() -> float | None:
        live = boards(chat)
        if len(live) == 1 and live[0].message_id != board.message_id:
            return standin.now()
        return None
    try:
        converged = await standin.wait_for(healed, timeout=30, what="the board healed")
    except StandInError:
        return None
    failed = [c.time for c in standin.calls("sendPhoto", ok=False) if c.time >= started]
    cleared = max(failed) if failed else started
    return float(converged) - cleared


async def main(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="portes-bench-delivery-"))
    url = f"sqlite:///{work / 'bench.sqlite3'}"
    upgrade(url)
    heals: list[float] = []
    lost = 0
    with StandIn(recompress_photos=False) as standin:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PORTES_"))}
        env.update(TELEGRAM_BOT_TOKEN=standin.token, TELEGRAM_API_URL=standin.base_url,
                   TELEGRAM_FILE_URL=standin.base_file_url, DATABASE_URL=url,
                   PORTES_RATE_OVERALL="0", PORTES_RATE_GROUP="0", PORTES_LOG_LEVEL="WARNING")
        with (work / "bot.log").open("w") as log:
            proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=env,
                                    stdout=log, stderr=subprocess.STDOUT)
        try:
            alice, bob = standin.user("Alice", username="alice"), standin.user("Bob")
            alice.start_bot()
            bob.start_bot()
            group = standin.group("Kafeneio", alice, bob)
            await start_group_match(standin, alice, bob, group, length="7 points")
            for _ in range(args.trials):
                heal = await trial(standin, group, alice, bob)
                if heal is None:
                    lost += 1
                else:
                    heals.append(heal)
                    print(f"healed in {heal:5.2f} s after the fault cleared")
        finally:
            proc.terminate()
            proc.wait(timeout=15)
    heals.sort()
    p95 = heals[min(len(heals) - 1, int(0.95 * len(heals)))] if heals else float("nan")
    p50 = heals[len(heals) // 2] if heals else float("nan")
    print(f"delivery: heal_p95_s={p95:.2f} heal_p50_s={p50:.2f} trials={args.trials} "
          f"lost={lost}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=12)
    sys.exit(asyncio.run(main(parser.parse_args())))
