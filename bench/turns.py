"""Drive many simultaneous matches through the running bot and the Bot API stand-in.

    python bench/turns.py [--matches 24] [--seconds 10] [--background 1000] [--rate 20]

What it does, all on 127.0.0.1:

1. seeds ``--background`` active matches straight into a fresh SQLite database through the
   storage use cases (the bot must carry them: memory, list queries, timers);
2. starts the real bot (``python -m bot``, long polling) against a stand-in started here, with
   the rate limiter's ceilings lifted (``PORTES_RATE_OVERALL=0``, ``PORTES_RATE_GROUP=0``);
3. opens ``--matches`` group matches the way players do (``/new``, a length, Accept);
4. phase "paced": simulated players tap at ``--rate`` taps per second in all, for ``--seconds``;
5. phase "sustained": they tap as fast as the bot answers, for ``--seconds``.

A tap's latency is from the callback query being sent to its board showing the result (the
keyboard or caption edited, or the next board posted). Errors are refused taps that should have
been accepted, waits that timed out, and ERROR lines in the bot's log. ``rss_mb`` is the bot
process's peak resident memory (VmHWM). The stand-in does not recompress photos here (it would
compete with the bot for the same two cores; Telegram does that work on its own servers).

The last line is: ``turns: taps_per_s=<sustained> turns_per_s=<sustained> p50_ms=<paced>
p95_ms=<paced> errors=<n> rss_mb=<peak> cpu_ms_per_tap=<x>``: ``turns_per_s`` counts the taps
that ended a turn (Confirm, a whole play, or a move marked ✅ that completes the play), what
players wait for; since a turn on the group's board takes as few taps as it can (issue 27: every
move a button, the completing one ends the turn) a tap there does a whole turn's work (a new
board, the old one deleted), so taps/s no longer compares with code from before that.
``cpu_ms_per_tap`` is the bot process's CPU (every thread, from ``/proc``) during the sustained
phase per tap answered, less sensitive to the machine's load than taps/s (under a load of 10-20
it still varies by a fifth from run to run: taps collapse into fewer edits when the bot falls
behind).
The line above it gives the Bot API calls per tap.
``--http-client lean`` runs the bot with ``PORTES_HTTP_CLIENT=lean``; ``--profile FILE`` runs it
under cProfile in every thread (:mod:`bench.profile_bot`). Targets on the project's machine:
p95 <= 100 ms at 20 taps/s; >= 60 taps/s sustained with 0 errors; peak RSS <= 150 MB with
1,000 active matches in the database.

Reference figures (the project's 2-core machine, shared with other work): with the delivery
worker, 73 taps/s sustained, p50 12 ms and p95 27 ms at 20 taps/s, 0 errors; peak RSS 139 MB
since the migrations run in a child process and the empty board is drawn in bands. In the
sustained phase the bot is CPU-bound (24 matches tapping as fast as they can queue), so a tap
then waits 300-700 ms.

Issue 21 (one interface for every game), side by side with the code before it (bbdc557), seven
alternating pairs of default runs on that machine under a load average of 11-20 from other
work: sustained 19.4 taps/s before, 23.1 after (median ratio of the pairs 1.21, from 0.69 to
1.73); median p95 at 20 taps/s 1688 ms before, 729 ms after; peak RSS 149-154 MB before,
134-136 MB after (32 board images kept instead of 256).

Then with the delivery worker's statements built once and the lean transport (opt-in), eight
alternating triples (base bbdc557, this code, this code with ``--http-client lean``) under a
load of 8-21: medians 19.8, 15.1 and 27.9 taps/s; cpu_ms_per_tap 26.7, 26.2 and 17.6; p95 at
20 taps/s 2277, 2034 and 1152 ms (the machine could not hold 20 taps/s); peak RSS 152.8, 151.1
and 147.3 MB; 0 errors. Median ratios to base: taps/s 0.89 (0.42-1.55) and 1.35 (0.76-2.83),
CPU per tap 0.94 (0.79-1.53) and 1.53 (1.06-2.09). A tap's CPU (cProfile in every thread and
per-call timers): drawing 6 ms a board (0.76 boards a tap, half of it JPEG encoding), the
database 2-3 ms, and 2.5 Bot API calls a tap plus a quarter of a long poll at about 2 ms each
through httpx and httpcore, 1 ms over the lean transport.

In turns (2026-12-03, issue 21 again, after issue 27's group board): five alternating runs of
base (bbdc557, with the same turn counter patched in) and this code, default options, on the
2-core machine with nothing else running (load 0.1-2.4): sustained turns/s 4.52, 4.55, 3.57,
3.30, 3.97 (base) against 11.12, 8.94, 12.48, 11.80, 12.22; ratios of the pairs 2.46, 1.96,
3.50, 3.58, 3.08 (median 3.08). Taps/s fell (20.9, 19.4, 15.1 -> 12.9, 11.0, 14.3: 1.16 taps a
turn now against 4.6, each with a new board and a deletion), and the bot's CPU per turn fell
from about 210 ms to 88 ms. At an equal load in turns (base at ``--rate 20``, 4.6 taps a turn:
about 4 turns/s; this code at ``--rate 5``, about 4.2 turns/s) the paced p95 was 1238 and 2249
ms (base) against 61 and 61 ms (p50 463-1104 against 49 ms); this code at ``--rate 20`` asks for
17 turns/s, beyond what it sustains, and waits 2.4-3.0 s. Peak RSS 151.9-154.2 MB (base)
against 140.2-143.3 MB; 0 errors in every run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.views.callbacks import Action, decode  # noqa: E402
from standin import Chat, Message, StandIn, StandInError, User  # noqa: E402
from standin.model import Call  # noqa: E402
from storage.db import Database  # noqa: E402
from storage.migrate import upgrade  # noqa: E402
from storage.usecases import UseCases  # noqa: E402


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    taps: int = 0
    turns: int = 0
    """Taps that ended a turn (Confirm, a whole play, a completing move marked ✅): what a
    player counts, since a turn on the group's board takes as few taps as it can."""
    errors: int = 0
    notes: list[str] = field(default_factory=list)

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.notes) < 10:
            self.notes.append(what)


class Pacer:
    """Hands out tap slots at ``rate`` per second overall (None: no limit)."""

    def __init__(self, rate: float | None) -> None:
        self.rate = rate
        self.next = time.perf_counter()
        self.lock = asyncio.Lock()

    async def slot(self) -> None:
        if not self.rate:
            return
        async with self.lock:
            now = time.perf_counter()
            wait = self.next - now
            self.next = max(self.next, now) + 1.0 / self.rate
        if wait > 0:
            await asyncio.sleep(wait)


def live_board(chat: Chat) -> Message | None:
    boards = [m for m in chat.bot_messages() if m.photo_bytes is not None]
    return boards[-1] if boards else None


def moved_on(board: Message, group: Chat, *, in_group_only: bool = False) -> bool:
    """Whether ``board`` shows a tap's result: edited, gone, or followed by a newer board in
    ``group`` (``in_group_only``: that last only when ``board`` is the group's own)."""
    try:
        now = board.refresh()
    except StandInError:
        return True
    if now.edit_count != board.edit_count:
        return True
    if in_group_only and board.chat_id != group.id:
        return False
    newest = live_board(group)
    return newest is not None and newest.message_id != board.message_id


def pick(board: Message) -> str | None:
    """The button a player taps next: Confirm or a whole play, else a move, else a checker."""
    by_action: dict[Action, str] = {}
    for row in board.buttons:
        for b in row:
            if (data := decode(b.callback_data)) is not None:
                by_action.setdefault(data.action, b.text)
    for action in (Action.CONFIRM, Action.PLAY, Action.MOVE, Action.FROM):
        if action in by_action:
            return by_action[action]
    return None


def ends_turn(board: Message, text: str) -> bool:
    """Whether the button ``text`` on ``board`` ends the turn."""
    for row in board.buttons:
        for b in row:
            if b.text == text and (data := decode(b.callback_data)) is not None:
                return data.action in (Action.CONFIRM, Action.PLAY) or "✅" in b.text
    return False


async def wait_until(predicate, timeout: float = 10.0, poll: float = 0.01):  # type: ignore[no-untyped-def]
    deadline = time.perf_counter() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.perf_counter() > deadline:
            return None
        await asyncio.sleep(poll)


async def open_match(standin: StandIn, index: int) -> tuple[Chat, User, User]:
    a = standin.user(f"A{index}", username=f"a{index}")
    b = standin.user(f"B{index}", username=f"b{index}")
    group = standin.group(f"Table {index}", a, b)
    cmd = a.send(group, "/new")
    card = await group.wait_for_bot_message(after=cmd, timeout=60)
    await a.tap(card, "7 points")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), timeout=60)
    await b.tap(card.refresh(), "🎲 Accept")
    await standin.wait_for(lambda: live_board(group), timeout=60)
    return group, a, b


async def player(standin: StandIn, group: Chat, a: User, b: User, pacer: Pacer, stats: Stats,
                 stop: float) -> None:
    while time.perf_counter() < stop:
        board = live_board(group)
        if board is None:
            await asyncio.sleep(0.01)
            continue
        text = pick(board)
        if text is None or "wins the match" in (board.caption or ""):
            return
        mover = a if board.mentions(a) else b
        await pacer.slot()
        before = board
        t0 = time.perf_counter()
        try:
            answer = await mover.tap(board, text)
        except StandInError:
            await asyncio.sleep(0.005)  # the board was replaced meanwhile: look again
            continue
        if answer is not None and answer.show_alert:
            stats.error(f"refused: {answer.text}")
            await asyncio.sleep(0.05)
            continue

        def changed(before: Message = before) -> bool:
            return moved_on(before, group)

        if await wait_until(changed) is None:
            stats.error("timed out waiting for the board")
            continue
        stats.latencies.append(time.perf_counter() - t0)
        stats.taps += 1
        stats.turns += ends_turn(before, text)


async def phase(standin: StandIn, tables: list[tuple[Chat, User, User]], seconds: float,
                rate: float | None) -> tuple[Stats, float]:
    stats = Stats()
    pacer = Pacer(rate)
    start = time.perf_counter()
    stop = start + seconds
    await asyncio.gather(*(player(standin, g, a, b, pacer, stats, stop) for g, a, b in tables))
    return stats, time.perf_counter() - start


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


def peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


async def seed(url: str, count: int) -> None:
    db = Database.from_url(url)
    uc = UseCases(db)
    for i in range(count):
        author, acceptor = 10_000_000 + 2 * i, 10_000_001 + 2 * i
        await uc.upsert_player(author, f"Seed {i}a")
        await uc.upsert_player(acceptor, f"Seed {i}b")
        res = await uc.create_challenge(author, length=5, chat_id=-9_000_000 - i, group=True)
        assert res.challenge is not None
        await uc.accept_challenge(res.challenge.id, acceptor, mix=f"seed-{i}")
        # their boards count as posted (their chats exist only in the database)
        for work in await uc.delivery.claim_deliveries("seed", chat_key=str(-9_000_000 - i)):
            token = await uc.delivery.mark_sending(work.id, claim=work.claim, caption="",
                                                   markup=None)
            assert token is not None
            await uc.delivery.record_sent(work.id, token, claim=work.claim, message_id=1,
                                 version=work.version)
            await uc.delivery.complete_delivery(work.id, claim=work.claim, version=work.version)
    await db.dispose()


def calls_per_tap(calls: list[Call], taps: int) -> str:
    counts = Counter(c.method for c in calls)
    return "  ".join(f"{method} {n / max(taps, 1):.2f}" for method, n in counts.most_common())


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def main(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="portes-bench-"))
    url = f"sqlite:///{work / 'bench.sqlite3'}"
    upgrade(url)
    t = time.perf_counter()
    await seed(url, args.background)
    print(f"seeded {args.background} active matches in {time.perf_counter() - t:.1f} s")
    with StandIn(recompress_photos=False) as standin:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PORTES_"))}
        env.update(TELEGRAM_BOT_TOKEN=standin.token, TELEGRAM_API_URL=standin.base_url,
                   TELEGRAM_FILE_URL=standin.base_file_url, DATABASE_URL=url,
                   PORTES_RATE_OVERALL="0", PORTES_RATE_GROUP="0",
                   PORTES_RATE_CHAT="0", PORTES_LOG_LEVEL="WARNING",
                   PORTES_HTTP_CLIENT=args.http_client)
        log_path = work / "bot.log"
        with log_path.open("w") as log:
            command = [sys.executable, "-m", "bot"]
            if args.profile:
                # as a module from the checkout: run as a script, bench/ would come first on
                # sys.path and its storage.py would stand in for the storage package
                command = [sys.executable, "-m", "bench.profile_bot", args.profile]
            proc = subprocess.Popen(command, cwd=ROOT, env=env,
                                    stdout=log, stderr=subprocess.STDOUT)
        try:
            t = time.perf_counter()
            tables = []
            for start in range(0, args.matches, 8):
                tables += await asyncio.gather(*(open_match(standin, i) for i in
                                                 range(start, min(args.matches, start + 8))))
            print(f"opened {len(tables)} group matches in {time.perf_counter() - t:.1f} s")
            paced, paced_s = await phase(standin, tables, args.seconds, args.rate)
            print(f"paced:     {paced.taps / paced_s:6.1f} taps/s  p50 "
                  f"{pct(paced.latencies, .5):6.1f} ms  p95 {pct(paced.latencies, .95):6.1f} ms"
                  f"  errors {paced.errors}")
            cpu0, own0 = cpu_seconds(proc.pid), time.process_time()
            calls0 = len(standin.calls())
            sustained, sus_s = await phase(standin, tables, args.seconds, None)
            bot_cpu = cpu_seconds(proc.pid) - cpu0
            print(f"  CPU during the sustained phase: bot {bot_cpu:.1f} s, "
                  f"stand-in and players {time.process_time() - own0:.1f} s, "
                  f"in {sus_s:.1f} s")
            print("  Bot API calls per tap:", calls_per_tap(standin.calls()[calls0:],
                                                          sustained.taps))
            print(f"sustained: {sustained.taps / sus_s:6.1f} taps/s  p50 "
                  f"{pct(sustained.latencies, .5):6.1f} ms  p95 "
                  f"{pct(sustained.latencies, .95):6.1f} ms  errors {sustained.errors}")
            rss = peak_rss_mb(proc.pid)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        log_errors = [line for line in log_path.read_text().splitlines() if " ERROR " in line]
        errors = paced.errors + sustained.errors + len(log_errors)
        for note in (paced.notes + sustained.notes + log_errors)[:10]:
            print("  error:", note)
    print(f"turns: taps_per_s={sustained.taps / sus_s:.1f} "
          f"turns_per_s={sustained.turns / sus_s:.2f} p50_ms={pct(paced.latencies, .5):.1f} "
          f"p95_ms={pct(paced.latencies, .95):.1f} errors={errors} rss_mb={rss:.1f} "
          f"cpu_ms_per_tap={1000 * bot_cpu / max(sustained.taps, 1):.1f}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--background", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--http-client", choices=("httpx", "lean"), default="httpx",
                        help="the bot's PORTES_HTTP_CLIENT")
    parser.add_argument("--profile", metavar="FILE",
                        help="run the bot under cProfile, every thread (bench/profile_bot.py)")
    # a SIGTERM (a load loop stopped with kill) ends it like Ctrl-C: the bot it started is
    # stopped on the way out instead of left polling a stand-in that is gone
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    sys.exit(asyncio.run(main(parser.parse_args())))
