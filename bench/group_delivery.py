"""The group measurements of ``bench/delivery.py`` (its docstring says what each measures):
a group match at Telegram's limits with both players on private boards, with one who plays on
the group's board (``fallback_tap_p95_s``), and commands sent there meanwhile
(``group_command_p95_s``); and the bot process every measurement runs."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

from bench.turns import live_board, moved_on, pct, pick, wait_until
from bot.views.callbacks import Action, decode
from standin import Chat, Message, StandIn, StandInError, User
from standin.players import start_group_match, start_the_bot
from storage.migrate import upgrade

ROOT = Path(os.environ.get("PORTES_BENCH_ROOT") or Path(__file__).resolve().parents[1])
"""The checkout whose bot is measured (``PORTES_BENCH_ROOT``: another one, e.g. main, with
these measurements: before and after figures from one script)."""

@contextlib.asynccontextmanager
async def running_bot(standin: StandIn, **env_changes: str) -> AsyncIterator[Path]:
    """The bot as a process against ``standin`` on a fresh SQLite file, default settings unless
    changed; yields the path of its log."""
    work = Path(tempfile.mkdtemp(prefix="portes-delivery-"))
    url = f"sqlite:///{work / 'bench.sqlite3'}"
    upgrade(url)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PORTES_"))}
    env.update(TELEGRAM_BOT_TOKEN=standin.token, TELEGRAM_API_URL=standin.base_url,
               TELEGRAM_FILE_URL=standin.base_file_url, DATABASE_URL=url,
               PORTES_LOG_LEVEL="WARNING", **env_changes)
    log_path = work / "bot.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=env,
                                stdout=log, stderr=subprocess.STDOUT)
    try:
        yield log_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


ON_ITS_WAY = "on its way"
"""How the toast reads for a tap on the old board before its new one came (issue 27, item 6):
the tap did nothing, as a refused one, and is not counted."""


async def timed_group_tap(standin: StandIn, user: User, board: Message, text: str,
                          group: Chat) -> float | None:
    """Tap ``board`` and wait until it shows the result: edited, gone, or (in the group)
    followed by a newer board. Seconds, or None when refused or never shown."""
    t0 = time.perf_counter()
    try:
        answer = await user.tap(board, text).wait(30)
    except StandInError:
        return None
    if answer is None or answer.show_alert or ON_ITS_WAY in (answer.text or ""):
        return None  # refused, or a tap on a board whose new state is still to come

    if await wait_until(lambda: moved_on(board, group, in_group_only=True),
                        timeout=60) is None:
        return None
    return time.perf_counter() - t0


def where_to_tap(user: User, group: Chat) -> Message | None:
    """The board ``user`` plays on now (private, or the group's), if it is their turn."""
    board = live_board(group)
    mine = board if board is not None and board.mentions(user) else None
    found = [b for b in (live_board(user.private), mine)
             if b is not None and pick(b) is not None]
    found = [b for b in found if any(
        (data := decode(btn.callback_data)) is not None
        and data.action in (Action.FROM, Action.MOVE, Action.PLAY, Action.CONFIRM)
        for row in b.buttons for btn in row)]
    return found[0] if found else None


async def play_group_turns(standin: StandIn, group: Chat, players: list[User], turns: int,
                           every: float, taps: dict[str, list[float]]) -> int:
    """Play ``turns`` turns at a tap every ``every`` s; the taps' latencies by player."""
    played = 0
    while played < turns:
        found = await wait_until(lambda: next(
            ((u, b) for u in players if (b := where_to_tap(u, group)) is not None), None),
            timeout=60)
        if not found:
            break
        user, board = found
        text = pick(board)
        assert text is not None
        action = next(data.action for row in board.buttons for btn in row
                      if btn.text == text and (data := decode(btn.callback_data)) is not None)
        latency = await timed_group_tap(standin, user, board, text, group)
        if latency is not None:
            taps[user.first_name].append(latency)
        if action in (Action.CONFIRM, Action.PLAY):  # Confirm, or a whole play: the turn ends
            played += 1
        await asyncio.sleep(max(0.0, every - (latency or 0.0)))
    return played


async def bot_is_up(standin: StandIn) -> None:
    """Wait for the bot process to answer (a loaded machine takes a while to start it)."""
    early = standin.user("Early", username="early")
    hello = early.start_bot()
    await early.private.wait_for_bot_message(after=hello, timeout=120)


async def one_group(args: argparse.Namespace, *, both_started: bool
                    ) -> tuple[dict[str, list[float]], float, int]:
    """One group match of ``--turns`` turns (``--fallback-turns`` when Bob never started the
    bot): the taps' latencies by player, the group's calls per turn, the 429s."""
    with StandIn(recompress_photos=False) as standin:
        standin.set_flood_limits()
        async with running_bot(standin):
            await bot_is_up(standin)
            alice, bob = standin.user("Alice", username="alice"), standin.user("Bob")
            await start_the_bot(alice)
            if both_started:
                await start_the_bot(bob)
            group = standin.group("Kafeneio", alice, bob)
            await start_group_match(standin, alice, bob, group, length="7 points")
            await standin.idle(quiet=1.0)
            before = counted_calls(standin, group)
            taps: dict[str, list[float]] = {"Alice": [], "Bob": []}
            every = args.every if both_started else args.fallback_every
            turns = args.turns if both_started else (args.fallback_turns or args.turns)
            played = await play_group_turns(standin, group, [alice, bob], turns, every, taps)
            await standin.idle(quiet=1.0)
            calls = counted_calls(standin, group)[len(before):]
            throttled = sum(1 for c in standin.calls(ok=False) if c.error_code == 429)
    kinds = Counter(calls)
    print(f"  {'both started' if both_started else 'fallback'}: {played} turns, "
          f"{len(calls)} group calls: " + ", ".join(f"{n} {m}" for m, n in kinds.most_common()))
    return taps, len(calls) / max(1, played), throttled


def counted_calls(standin: StandIn, group: Chat) -> list[str]:
    return [c.method for c in standin.calls(chat_id=group.id)
            if c.ok and c.method.lower().startswith(("send", "edit", "delete"))]


async def measure_group(args: argparse.Namespace) -> dict[str, float]:
    """Case 7: a group match at Telegram's limits, at a human pace."""
    taps, per_turn, throttled = await one_group(args, both_started=True)
    sys.stdout.flush()
    every = taps["Alice"] + taps["Bob"]
    print(f"group: {len(every)} taps on private boards, p50 {pct(every, .5):.0f} ms, p95 "
          f"{pct(every, .95):.0f} ms; {per_turn:.2f} group calls per turn; {throttled} x 429")
    figures = await measure_fallback(args)
    return {"group_tap_p95_s": pct(every, .95) / 1000, "group_calls_per_turn": per_turn,
            "group_429": float(throttled + figures.pop("fallback_429")), **figures}


async def measure_fallback(args: argparse.Namespace) -> dict[str, float]:
    """The fallback game of case 7 alone (``--only fallback``, with ``--fallback-turns``:
    a turn there is one or two taps, so a p95 of its taps needs a longer game)."""
    fb_taps, fb_per_turn, fb_throttled = await one_group(args, both_started=False)
    bob = fb_taps["Bob"]
    print(f"fallback: Bob (never started the bot) {len(bob)} taps on the group's board, p50 "
          f"{pct(bob, .5):.0f} ms, p95 {pct(bob, .95):.0f} ms; Alice (private) p95 "
          f"{pct(fb_taps['Alice'], .95):.0f} ms; {fb_per_turn:.2f} group calls per turn; "
          f"{fb_throttled} x 429; his slowest: "
          + ", ".join(f"{s:.2f}" for s in sorted(bob, reverse=True)[:4]) + " s")
    return {"fallback_tap_p95_s": pct(bob, .95) / 1000, "fallback_calls_per_turn": fb_per_turn,
            "fallback_429": float(fb_throttled)}


COMMANDS = ("/top", "/rules", "/help", "/stats")
"""What a spectator asks in a group while a match is played there."""


def is_board(message: Message) -> bool:
    return message.photo_bytes is not None and any(
        b.callback_data or (b.url and "start=m" in b.url) for row in message.buttons for b in row)


async def timed_command(group: Chat, who: User, text: str) -> float | None:
    """Send a command in the group; seconds until its answer shows (a message of the bot
    there, not a board, after it), None when none within 60 s."""
    t0 = time.perf_counter()
    sent = who.send(group, text)

    def answered() -> bool:
        return any(m.message_id > sent.message_id and (
            m.reply_to_message_id == sent.message_id or not is_board(m))
            for m in group.bot_messages())

    if await wait_until(answered, timeout=60) is None:
        return None
    return time.perf_counter() - t0


async def spectator_asks(group: Chat, who: User, every: float, count: int,
                         latencies: list[float], lost: list[str]) -> None:
    for i in range(count):
        await asyncio.sleep(every)
        text = COMMANDS[i % len(COMMANDS)]
        latency = await timed_command(group, who, text)
        if latency is None:
            lost.append(text)
        else:
            latencies.append(latency)


async def measure_command(args: argparse.Namespace) -> dict[str, float]:
    """Issue 27: commands in a group while a match is played there on the group's board (Bob
    never started the bot; he taps every ``--fallback-every`` s): a spectator sends one of
    /top, /rules, /help, /stats every ``--command-every`` s, ``--commands`` times. The
    figure is the 95th percentile from the command sent to its answer in the group. Target:
    <= 2 s, 0 x 429."""
    with StandIn(recompress_photos=False) as standin:
        standin.set_flood_limits()
        async with running_bot(standin):
            await bot_is_up(standin)
            alice, bob = standin.user("Alice", username="alice"), standin.user("Bob")
            carol = standin.user("Carol", username="carol")
            await start_the_bot(alice, carol)
            group = standin.group("Kafeneio", alice, bob, carol)
            await start_group_match(standin, alice, bob, group, length="7 points")
            await standin.idle(quiet=1.0)
            taps: dict[str, list[float]] = {"Alice": [], "Bob": []}
            latencies: list[float] = []
            lost: list[str] = []
            play = asyncio.ensure_future(play_group_turns(
                standin, group, [alice, bob], 10_000, args.fallback_every, taps))
            try:
                await spectator_asks(group, carol, args.command_every, args.commands,
                                     latencies, lost)
            finally:
                play.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await play
            throttled = sum(1 for c in standin.calls(ok=False) if c.error_code == 429)
    p95 = pct(latencies, .95)
    bob_taps = taps["Bob"]
    print(f"command: {len(latencies)} commands answered in the group, p50 "
          f"{pct(latencies, .5):.0f} ms, p95 {p95:.0f} ms, worst "
          f"{max(latencies, default=0) * 1000:.0f} ms, {len(lost)} never; meanwhile Bob's "
          f"{len(bob_taps)} taps on the group's board p95 {pct(bob_taps, .95):.0f} ms; "
          f"{throttled} x 429")
    return {"group_command_p95_s": p95 / 1000, "group_command_lost": float(len(lost)),
            "command_429": float(throttled)}
