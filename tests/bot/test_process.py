"""The real process: ``python -m bot`` with settings from the environment, killed and restarted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bot.players import live_board, play_turn
from tests.standin import StandIn

ROOT = Path(__file__).resolve().parents[2]


def env_for(standin: StandIn, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PORTES_"))}
    env.update(
        TELEGRAM_BOT_TOKEN=standin.token,
        TELEGRAM_API_URL=standin.base_url,
        TELEGRAM_FILE_URL=standin.base_file_url,
        DATABASE_URL=f"sqlite:///{tmp_path / 'bot.sqlite3'}",
        PORTES_RATE_OVERALL="0",
        PORTES_RATE_GROUP="0",
        PORTES_TIMER_POLL="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def run(
    args: list[str], env: dict[str, str], timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_help_lists_every_setting() -> None:
    result = run(["--help"], dict(os.environ))
    assert result.returncode == 0
    for name in ("TELEGRAM_BOT_TOKEN", "DATABASE_URL", "TELEGRAM_API_URL", "TELEGRAM_FILE_URL",
                 "PORTES_WEBHOOK_URL", "PORTES_WEBHOOK_SECRET", "PORTES_RATE_OVERALL",
                 "PORTES_MOVE_TIMEOUT", "PORTES_REMINDERS"):
        assert name in result.stdout
    assert "Migrations" in result.stdout or "migrations" in result.stdout


def test_a_missing_token_is_explained() -> None:
    env = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    result = run([], env)
    assert result.returncode == 2
    assert "TELEGRAM_BOT_TOKEN is not set" in result.stderr and "BotFather" in result.stderr


def test_a_rejected_token_is_explained(standin: StandIn, tmp_path: Path) -> None:
    result = run([], env_for(standin, tmp_path, TELEGRAM_BOT_TOKEN="123:WRONG"))
    assert result.returncode == 2
    assert "rejected TELEGRAM_BOT_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_applies_migrations_and_says_ok(standin: StandIn, tmp_path: Path) -> None:
    result = run(["--check"], env_for(standin, tmp_path))
    assert result.returncode == 0, result.stderr
    assert "@portes_test_bot" in result.stdout
    assert (tmp_path / "bot.sqlite3").exists()


@pytest.fixture
def bot_process(standin: StandIn, tmp_path: Path) -> Iterator[list[subprocess.Popen[str]]]:
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def start(standin: StandIn, tmp_path: Path) -> subprocess.Popen[str]:
    log = (tmp_path / "bot.log").open("a")
    return subprocess.Popen([sys.executable, "-m", "bot"], env=env_for(standin, tmp_path),
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, text=True)


async def test_killed_mid_match_and_restarted(
    standin: StandIn, tmp_path: Path, bot_process: list[subprocess.Popen[str]]
) -> None:
    proc = start(standin, tmp_path)
    bot_process.append(proc)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    cmd = alice.send(group, "/new")
    card = await group.wait_for_bot_message(after=cmd, timeout=30)
    await alice.tap(card, "3 points")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    await bob.tap(card.refresh(), "🎲 Accept")
    board = await standin.wait_for(lambda: live_board(group), what="the first board")
    for _ in range(3):
        board = await standin.wait_for(lambda: live_board(group), what="a board")
        await play_turn(standin, alice if board.mentions(alice) else bob, group)
    board = await standin.wait_for(lambda: live_board(group), what="a board")
    caption = board.caption
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    # the board's buttons still work with a new process on the same database
    proc = start(standin, tmp_path)
    bot_process.append(proc)
    for _ in range(3):
        board = await standin.wait_for(lambda: live_board(group), what="a board")
        await play_turn(standin, alice if board.mentions(alice) else bob, group)
    board = await standin.wait_for(lambda: live_board(group), what="a board")
    assert board.caption != caption
    log = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in log, log[-3000:]


CRASH_POINTS = ("committed", "claimed", "sending", "sent", "recorded", "retired", "shown",
                "notified")
"""Every step of a turn's delivery between the commit and its last Telegram call
(``bot.publish.crash_point``)."""


def start_at(standin: StandIn, tmp_path: Path, crash_at: str | None) -> subprocess.Popen[str]:
    log = (tmp_path / "bot.log").open("a")
    # the default lease: the restarted process releases the dead one's claims at start
    extra = {}
    if crash_at:
        extra["PORTES_TEST_CRASH_AT"] = crash_at
    return subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, text=True,
                            env=env_for(standin, tmp_path, **extra),
                            stdout=log, stderr=subprocess.STDOUT)


async def test_killed_at_each_step_of_a_turn_the_board_converges(
    standin: StandIn, tmp_path: Path, bot_process: list[subprocess.Popen[str]]
) -> None:
    from tests.bot.players import board_version
    from tests.bot.test_delivery import boards, up_to_the_last_tap

    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    proc = start_at(standin, tmp_path, None)
    bot_process.append(proc)
    cmd = alice.send(group, "/new")
    card = await group.wait_for_bot_message(after=cmd, timeout=30)
    await alice.tap(card, "7 points")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    await bob.tap(card.refresh(), "🎲 Accept")
    for point in CRASH_POINTS:
        board = await standin.wait_for(lambda: live_board(group), what="a board")
        mover = alice if board.mentions(alice) else bob
        board, final = await up_to_the_last_tap(standin, mover, group)
        await standin.idle()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        # the step: this process ends itself there, the way a killed host would
        proc = start_at(standin, tmp_path, point)
        bot_process.append(proc)
        mover.tap(board, final)
        assert proc.wait(timeout=60) == 70, point
        # restarted: one live board for the next player, with buttons that work
        proc = start_at(standin, tmp_path, None)
        bot_process.append(proc)

        def healed(old: int = board.message_id) -> bool:
            live = boards(group)
            return len(live) == 1 and live[0].message_id != old and board_version(live[0]) > 0

        await standin.wait_for(healed, timeout=30, what=f"the board healed after {point}")
        await standin.idle()
        assert len(boards(group)) == 1, (point, [b.message_id for b in boards(group)])
    board = await standin.wait_for(lambda: live_board(group), what="a board")
    await play_turn(standin, alice if board.mentions(alice) else bob, group)
    log = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in log, log[-3000:]
