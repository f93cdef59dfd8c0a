"""Several bot instances on one PostgreSQL database, behind a round-robin proxy, driven by
simulated players: the machinery of tests/bot/test_instances.py and bench/instances.py.

:class:`Cluster` starts ``n`` real bot processes (``python -m bot``) in webhook mode on one fresh
database, the :class:`~standin.proxy.RoundRobinProxy` in front of them, and a
:class:`~standin.webhook.WebhookPusher` that POSTs what the simulated users do to the
proxy, as Telegram would. The players (:func:`take_turn`; typing their plays:
:mod:`standin.typed_play`) read the boards the bot sent and tap their buttons; each
:class:`Tally` says what its players saw: the taps that ended a turn (the board changed after
them), the taps that got no answer at all (the player taps again, as a person would), and each
tap's latency.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select

from bot.views.callbacks import Action, decode
from rules.match import Match
from standin import Chat, Message, StandIn, StandInError, Tap, User
from standin.crashing import command
from standin.databases import create_database, drop_database
from standin.forked import Process, popen
from standin.players import board_version, live_board, turn_actions
from standin.proxy import RoundRobinProxy, free_port
from standin.webhook import WebhookPusher
from storage.db import make_engine
from storage.models import MatchRow, TurnRow

ROOT = Path(__file__).resolve().parents[1]
SECRET = "several-Instances_1"
LOST_AFTER = 12.0
"""A tap whose board has not changed after this many seconds got lost (tap again)."""
HANG = 120.0
"""The hang guard of each wait for a board to play on: seconds with nothing to tap."""
TRIES = 40
"""Taps (or typed plays) a turn may take, counting those refused or lost: more is a loop."""
MATCH_OVER = "wins the match"


@dataclass
class Tally:
    """What the players of one match saw."""

    match_id: int = 0
    finals: int = 0
    """Taps that ended a turn (a play or a confirmation, and the board changed after it)."""
    taps: int = 0
    typed: int = 0
    """Plays typed in notation (one message each)."""
    retapped: int = 0
    """Taps that changed nothing in ``LOST_AFTER`` s (never handled: tapped again)."""
    latencies: list[float] = field(default_factory=list)
    ended: bool = False
    alerts: dict[str, int] = field(default_factory=dict)
    seats: tuple[int, ...] = (0, 1)
    """The seats of the people playing (the computer sits in seat 1)."""


class Cluster:
    """``n`` bot processes on one fresh PostgreSQL database behind one proxy."""

    def __init__(self, standin: StandIn, admin_url: str, logs: Path, *, n: int = 2,
                 duplicate_every: int = 0, duplicate_actions: tuple[str, ...] = (),
                 each: dict[int, dict[str, str]] | None = None, migrated: bool = True,
                 **env: str) -> None:
        self.standin = standin
        self.migrated = migrated
        """Start on a database at the newest revision (a restart's case); ``False``: on a new
        one, which the instances, all starting together, migrate themselves."""
        self.admin_url = admin_url
        self.logs = logs
        self.n = n
        self.env = env
        self.each = each or {}
        """More environment for one instance (by its index)."""
        self.engine: Any = None
        self.duplicate_every = duplicate_every
        self.duplicate_actions = duplicate_actions
        self.url = ""
        self.ports: list[int] = []
        self.procs: list[Process] = []
        self.proxy: RoundRobinProxy | None = None
        self.pusher: WebhookPusher | None = None

    def env_for(self, port: int) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PORTES_"))}
        env.update(
            TELEGRAM_BOT_TOKEN=self.standin.token, TELEGRAM_API_URL=self.standin.base_url,
            TELEGRAM_FILE_URL=self.standin.base_file_url, DATABASE_URL=self.url,
            PORTES_WEBHOOK_URL="https://portes.example.org/", PORTES_WEBHOOK_LISTEN="127.0.0.1",
            PORTES_WEBHOOK_PORT=str(port), PORTES_WEBHOOK_SECRET=SECRET,
            PORTES_RATE_OVERALL="0", PORTES_RATE_GROUP="0", PORTES_RATE_CHAT="0",
            PORTES_TIMER_POLL="1", PORTES_DELIVERY_LEASE="10", PORTES_COMPUTER_LEASE="6",
            PORTES_COMPUTER_DELAY="0", PORTES_RECONCILE="5", PYTHONUNBUFFERED="1",
        )
        env.update(self.env)
        env.update(self.each.get(self.ports.index(port), {}))
        return env

    async def start(self) -> None:
        """A fresh database (see :attr:`migrated`), the instances, the proxy, the webhook."""
        self.url = create_database(self.admin_url, prefix="portes_instances",
                                   migrated=self.migrated)
        self.ports = [free_port() for _ in range(self.n)]
        for i, port in enumerate(self.ports):
            log = (self.logs / f"bot{i}.log").open("a")
            env = self.env_for(port)
            self.procs.append(popen(command(env), env=env, stdout=log))
        for i, port in enumerate(self.ports):
            await self._listening(i, port)
        self.proxy = RoundRobinProxy(self.ports).start()
        # as many connections as the bot asks Telegram for (setWebhook's max_connections): the
        # webhook answers once an update was handled, so each update holds one meanwhile
        self.pusher = WebhookPusher(self.standin, f"{self.proxy.url}/telegram", SECRET,
                                    connections=40,
                                    duplicate_every=self.duplicate_every,
                                    duplicate_actions=self.duplicate_actions).start()

    async def _listening(self, i: int, port: int) -> None:
        """Until instance ``i`` answers on ``port``: its own answer (its log says it serves
        there), not whoever else might hold the port."""
        deadline = time.monotonic() + HANG
        async with httpx.AsyncClient() as client:
            while time.monotonic() < deadline:
                if self.procs[i].poll() is not None:
                    raise AssertionError(f"instance {i} exited: {self.log(i)[-3000:]}")
                try:
                    await client.get(f"http://127.0.0.1:{port}/telegram", timeout=0.5)
                    if f"on 127.0.0.1:{port}" in self.log(i):
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
        raise AssertionError(f"instance {i} never listened: {self.log(i)[-3000:]}")

    def kill(self, i: int) -> None:
        """SIGKILL: no goodbye, whatever it was doing."""
        self.procs[i].send_signal(signal.SIGKILL)
        self.procs[i].wait(timeout=10)

    def log(self, i: int) -> str:
        path = self.logs / f"bot{i}.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        if self.pusher is not None:
            self.pusher.stop()
        if self.proxy is not None:
            self.proxy.stop()
        if self.engine is not None:
            self.engine.dispose()
            self.engine = None

    def drop(self) -> None:
        if self.url:
            drop_database(self.admin_url, self.url)

    def query(self, statement: Any) -> list[Any]:
        if self.engine is None:
            self.engine = make_engine(self.url)
        with self.engine.connect() as conn:
            return list(conn.execute(statement).all())

    def match(self, match_id: int) -> Seen:
        """What the players' eyes would read off the board: the match as it stands."""
        ((version, status, to_act, state, p0, p1),) = self.query(
            select(MatchRow.version, MatchRow.status, MatchRow.to_act, MatchRow.state,
                   MatchRow.player0_id, MatchRow.player1_id).where(MatchRow.id == match_id))
        return Seen(version, str(status), to_act, Match.from_json(state), (p0, p1))

    def played_turns(self, match_id: int, seats: tuple[int, ...]) -> int:
        """Turns in the move log chosen by the players in ``seats`` (not forced, not passed)."""
        rows = self.query(select(TurnRow.steps, TurnRow.forced, TurnRow.player)
                          .where(TurnRow.match_id == match_id))
        return sum(1 for steps, forced, seat in rows if steps and not forced and seat in seats)

    def computer_turns(self, match_id: int) -> int:
        rows = self.query(select(TurnRow.id).where(TurnRow.match_id == match_id,
                                                   TurnRow.player == 1))
        return len(rows)


@dataclass
class Seen:
    """A match as it stands in the database (the board's picture, for the simulated players)."""

    version: int
    status: str
    to_act: int | None
    state: Match
    players: tuple[int | None, int | None]


def match_id_of(board: Message) -> int:
    for row in board.buttons:
        for b in row:
            if (data := decode(b.callback_data)) is not None:
                return data.match_id
            if b.url and "?start=m" in b.url:  # "▶ Play in the private chat"
                return int(b.url.rsplit("?start=m", 1)[1])
    return 0


def pick(board: Message) -> tuple[str, bool] | None:
    """The button to tap (a whole play or Confirm first: they end the turn), and whether it
    ends the turn."""
    acts = turn_actions(board)
    for action, final in ((Action.CONFIRM, True), (Action.PLAY, True), (Action.MOVE, False),
                          (Action.FROM, False)):
        if acts.get(action):
            return acts[action][0], final
    return None


def changed_since(chat: Chat, before: Message) -> bool:
    try:
        now = before.refresh()
    except StandInError:
        return True
    if now.reply_markup != before.reply_markup or now.edit_count != before.edit_count:
        return True
    board = live_board(chat)
    return board is not None and board.message_id != before.message_id


async def until(predicate: Any, timeout: float, step: float = 0.03) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        await asyncio.sleep(step)


def took_effect(chat: Chat, board: Message, final: bool, version: int) -> bool:
    """A tap on ``board`` took effect: the board changed, and after a tap that ends the turn
    the match moved past the version tapped (a board posted again, as after an instance died,
    shows the same version: the tap was not handled)."""
    if not final:
        return changed_since(chat, board)
    now = live_board(chat)
    return now is not None and (MATCH_OVER in (now.caption or "")
                                or board_version(now) != version)


async def tap_once(chat: Chat, mover: User, board: Message, text: str, final: bool,
                   tally: Tally) -> str:
    """Tap and watch: ``"done"``, ``"alert"`` (refused: not this player's turn) or
    ``"lost"`` (nothing happened: the update went to an instance that died)."""
    began = time.monotonic()
    try:
        tap = mover.tap(board, text)
    except StandInError:  # the keyboard changed while the player looked (a late board)
        return "alert"
    tally.taps += 1
    version = board_version(board)

    def seen(t: Tap = tap) -> bool:
        return bool(took_effect(chat, board, final, version)
                    or ((a := t.answer) is not None and a.show_alert))

    await until(seen, timeout=LOST_AFTER, step=0.03)
    answer = tap.answer
    if answer is not None and answer.show_alert:
        # a callback Telegram delivered twice is answered by whichever copy is handled
        # first: an "earlier turn" alert may come for a tap that was applied; the board
        # decides
        if not await until(lambda: took_effect(chat, board, final, version), timeout=LOST_AFTER):
            tally.alerts[answer.text or ""] = tally.alerts.get(answer.text or "", 0) + 1
            return "alert"
    elif not took_effect(chat, board, final, version):
        tally.retapped += 1
        return "lost"
    tally.latencies.append(time.monotonic() - began)
    return "done"


async def take_turn(chat: Chat, players: list[User], tally: Tally, *,
                    timeout: float = HANG, pace: float = 0.0) -> bool:
    """The player to move taps through one turn on ``chat``'s live board; false when the
    match is over. A player who is not to move is told so (an alert): the other one taps. A
    tap refused or lost is made again, within :data:`TRIES` taps; ``timeout`` is the hang
    guard of each wait for a board. A tap that ends the turn and seemed lost may still show
    late (a slow machine, or an instance that died after playing it): the turn is then over."""
    turn = 0
    lost: tuple[Message, int] | None = None
    """The board and version of a tap that would have ended the turn and seemed lost."""

    def ready() -> Message | bool:
        if lost is not None and took_effect(chat, lost[0], True, lost[1]):
            return True
        b = live_board(chat)
        return b is not None and bool(MATCH_OVER in (b.caption or "") or pick(b)) and b

    for _ in range(TRIES):
        board = await until(ready, timeout=timeout)
        assert board, f"no board to play on in {chat!r} in {timeout} s: {diagnose(chat)}"
        if board is True:  # the lost tap was played after all, its board late
            tally.finals += 1
            return True
        assert isinstance(board, Message)
        if MATCH_OVER in (board.caption or ""):
            tally.ended = True
            return False
        tally.match_id = tally.match_id or match_id_of(board)
        mover = next((u for u in players if board.mentions(u)), players[turn % len(players)])
        choice = pick(board)
        assert choice is not None
        text, final = choice
        await asyncio.sleep(pace)  # a person's time to look before tapping
        outcome = await tap_once(chat, mover, board, text, final, tally)
        if outcome == "alert":
            turn += 1  # not this player's turn (or an old board): look again
            await asyncio.sleep(0.2)
        elif outcome == "done" and final:
            tally.finals += 1
            return True
        elif outcome == "lost" and final:
            lost = (board, board_version(board))
    raise AssertionError(f"a turn in {chat!r} was not over after {TRIES} taps: {tally.alerts}, "
                         f"{diagnose(chat)}")


async def resign(standin: StandIn, chat: Chat, user: User) -> None:
    """``user`` resigns the match with /resign and its card's button; the board shows it."""
    def over() -> bool:
        board = live_board(chat)
        return board is not None and MATCH_OVER in (board.caption or "")

    for _ in range(3):
        sent = user.send(chat, "/resign")
        try:
            card = await chat.wait_for_bot_message(
                after=sent, predicate=lambda m: "🏳 Resign the match" in m.button_texts
                or "no match here" in (m.text or ""), timeout=LOST_AFTER)
        except StandInError:
            continue  # the command went to an instance that was killed
        if "no match here" not in (card.text or ""):
            user.tap(card, "🏳 Resign the match")
        if await until(over, timeout=LOST_AFTER):
            return
        if await until(lambda c=card: changed_since(chat, c), timeout=1.0):
            break  # the card was answered: the match is over, its board will follow
    assert await until(over, timeout=HANG), f"the match's end after /resign: {diagnose(chat)}"


async def open_group_match(standin: StandIn, group: Chat, a: User, b: User, *,
                           started: bool = False) -> None:
    """``/new``, "1 point", Accept: the first board in the group. ``started``: both players
    start the bot first (so they play their turns on private boards, and may type plays)."""
    for user in (a, b) if started else ():
        hello = user.start_bot()
        await user.private.wait_for_bot_message(after=hello, timeout=60)
    cmd = a.send(group, "/new")
    card = await group.wait_for_bot_message(after=cmd, timeout=60)
    await a.tap(card, "1 point").wait(60)
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), timeout=60,
                           what="the challenge")
    await b.tap(card.refresh(), "🎲 Accept").wait(60)
    await standin.wait_for(lambda: live_board(group), timeout=60, what="the first board")


async def open_computer_match(standin: StandIn, user: User) -> None:
    """/new in the private chat, against the computer (easy), one point, Start."""
    hello = user.start_bot()
    await user.private.wait_for_bot_message(after=hello, timeout=60)
    cmd = user.send(user.private, "/new")
    card = await user.private.wait_for_bot_message(after=cmd, timeout=60)
    await user.tap(card, "🤖 Against the computer").wait(60)
    await standin.wait_for(lambda: "Easy" in " ".join(card.refresh().button_texts), timeout=60)
    await user.tap(card.refresh(), "Easy").wait(60)
    await standin.wait_for(lambda: "✔ Easy" in card.refresh().button_texts, timeout=60)
    await user.tap(card.refresh(), "1 point").wait(60)
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), timeout=60)
    await user.tap(card.refresh(), "▶ Start").wait(60)


def diagnose(chat: Chat) -> str:
    """What a chat shows and the bot's last calls there (for a failure's message)."""
    board = live_board(chat)
    calls = [(c.method, c.ok, round(c.time, 2), c.params.get("message_id"),
              str(c.params.get("reply_markup"))[:60]) for c in chat.standin.calls(chat_id=chat.id)]
    return (f"{board and (board.message_id, board.caption, board.buttons)}, "
            f"the last calls: {calls[-20:]}")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

