"""The real process: ``python -m bot`` with settings from the environment, killed and restarted."""

from __future__ import annotations

import os
import signal
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text, update

from standin import Chat, StandIn
from standin.forked import Process, popen
from standin.players import live_board, play_turn, start_group_match
from storage.db import Database, make_engine
from storage.models import HeartbeatRow, MatchRow, TimerRow
from tests.bot.helpers.processes import env_for, migrated, run, start, start_at
from tests.sampling import sample_or_full


def test_help_lists_every_setting() -> None:
    result = run(["--help"], dict(os.environ))
    assert result.returncode == 0
    for name in ("TELEGRAM_BOT_TOKEN", "DATABASE_URL", "TELEGRAM_API_URL", "TELEGRAM_FILE_URL",
                 "PORTES_WEBHOOK_URL", "PORTES_WEBHOOK_SECRET", "PORTES_RATE_OVERALL",
                 "PORTES_RATE_CHAT", "PORTES_MOVE_TIMEOUT", "PORTES_REMINDERS",
                 "PORTES_DICE_HELP_URL"):
        assert name in result.stdout
    assert "Migrations" in result.stdout or "migrations" in result.stdout


def test_a_missing_token_is_explained() -> None:
    env = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    result = run([], env)
    assert result.returncode == 2
    assert "TELEGRAM_BOT_TOKEN is not set" in result.stderr and "BotFather" in result.stderr


def test_a_rejected_token_is_explained(standin: StandIn, tmp_path: Path) -> None:
    migrated(tmp_path)
    result = run([], env_for(standin, tmp_path, TELEGRAM_BOT_TOKEN="123:WRONG"))
    assert result.returncode == 2
    assert "rejected TELEGRAM_BOT_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_applies_migrations_and_says_ok(standin: StandIn, tmp_path: Path) -> None:
    result = run(["--check"], env_for(standin, tmp_path))
    assert result.returncode == 0, result.stderr
    assert "@portes_test_bot" in result.stdout
    assert (tmp_path / "bot.sqlite3").exists()


@pytest.mark.long
async def test_killed_mid_match_and_restarted(
    standin: StandIn, tmp_path: Path, bot_process: list[Process]
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


def rows(url: str, sql: str, **params: object) -> list[Any]:
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            result = conn.execute(text(sql), params)
            return list(result) if result.returns_rows else []
    finally:
        engine.dispose()


@pytest.mark.long
async def test_downtime_does_not_count_against_the_player(
    standin: StandIn, tmp_path: Path, bot_process: list[Process]
) -> None:
    # Given a group match where the player to move has been waited for a minute
    url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    proc = start(standin, tmp_path)
    bot_process.append(proc)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, "3 points")
    mover = alice if board.mentions(alice) else bob
    await standin.wait_for(lambda: rows(url, "SELECT 1 FROM board_messages WHERE message_id = "
                                             ":m", m=board.message_id), what="the board saved")
    # When the bot is killed and nothing runs for 8 days (simulated by moving every stored time
    # 8 days back: the reminders, the 7-day timeout and the last heartbeat all fall due)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    db = Database.from_url(url)
    with db.sessions.begin() as session:
        for model, column in ((TimerRow, TimerRow.due_at), (MatchRow, MatchRow.turn_deadline),
                              (HeartbeatRow, HeartbeatRow.beat_at)):
            key = model.__mapper__.primary_key[0]
            for pk, at in session.execute(select(key, column)).all():
                session.execute(update(model), [{key.key: pk, column.key: at - timedelta(days=8)}])
    db.engine.dispose()
    beats = rows(url, "SELECT count(*) FROM heartbeats")[0][0]
    proc = start(standin, tmp_path)
    bot_process.append(proc)
    # Then, once the new process has run two timer ticks, nothing fired and the deadlines moved
    await standin.wait_for(
        lambda: rows(url, "SELECT count(*) FROM heartbeats")[0][0] > beats, what="a new instance",
        timeout=60)  # a cold start (migrations in a child process) on a loaded machine
    first = rows(url, "SELECT beat_at FROM heartbeats WHERE instance = '*'")[0][0]
    await standin.wait_for(
        lambda: rows(url, "SELECT beat_at FROM heartbeats WHERE instance = '*'")[0][0] > first,
        what="a timer tick")
    second = rows(url, "SELECT beat_at FROM heartbeats WHERE instance = '*'")[0][0]
    await standin.wait_for(
        lambda: rows(url, "SELECT beat_at FROM heartbeats WHERE instance = '*'")[0][0] > second,
        what="another timer tick")
    assert rows(url, "SELECT count(*) FROM timers WHERE fired_at IS NOT NULL "
                     "AND kind != 'challenge_expiry'")[0][0] == 0
    assert rows(url, "SELECT status FROM matches")[0][0] == "active"
    assert not any("⏰" in m.content for m in group.bot_messages())
    # And the player to move still plays
    await play_turn(standin, mover, group)
    log = (tmp_path / "bot.log").read_text()
    assert "the bot was down for 8 days" in log
    assert "Traceback" not in log, log[-3000:]


def test_the_token_never_reaches_the_log(tmp_path: Path) -> None:
    token = "987654321:AAHsecret_Part-of7the8token"
    with StandIn(token=token) as server:
        env = env_for(server, tmp_path, PORTES_LOG_LEVEL="DEBUG")
        migrated(tmp_path)
        log = (tmp_path / "bot.log").open("a")
        proc = popen([sys.executable, "-m", "bot"], env=env, stdout=log)
        try:
            alice = server.user("Alice")
            hello = alice.start_bot()
            alice.private.wait_for_bot_message(after=hello, timeout=60).wait_sync()
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    text = (tmp_path / "bot.log").read_text()
    assert "DEBUG" in text and "getUpdates" in text  # the debug lines were written
    assert token not in text and "AAHsecret_Part-of7the8token" not in text, [
        line for line in text.splitlines() if "AAHsecret" in line]
    assert "<hidden>" in text


@pytest.mark.long
async def test_stopped_right_at_a_matchs_end_the_review_still_goes_out(
    standin: StandIn, tmp_path: Path, bot_process: list[Process]
) -> None:
    """The review is background work started when the match ends: a stop (SIGTERM) right
    then waits for it instead of dropping it."""
    proc = start(standin, tmp_path)
    bot_process.append(proc)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    for user in (alice, bob):
        hello = user.start_bot()
        await user.private.wait_for_bot_message(after=hello, timeout=30)
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group, "3 points")
    for _ in range(6):
        board = await standin.wait_for(lambda: live_board(group), what="a board")
        await play_turn(standin, alice if board.mentions(alice) else bob, group)
    cmd = alice.send(group, "/resign")
    menu = await group.wait_for_bot_message(after=cmd)
    await alice.tap(menu, "🏳 Resign the match")
    await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "wins the match" in b.caption,
        what="the end")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0
    for user in (alice, bob):
        assert any("Review of match #1" in m.content for m in user.private.bot_messages()), (
            [m.content for m in user.private.bot_messages()])
    log = (tmp_path / "bot.log").read_text()
    assert "Task was destroyed" not in log and "Traceback" not in log, log[-3000:]


CRASH_POINTS = ("committed", "claimed", "sending", "sent", "recorded", "retired", "shown")
"""Every step of a turn's delivery between the commit and its last Telegram call
(:mod:`bot.faults`; the bot is started through :mod:`standin.crashing`)."""
CRASH_SAMPLE = ("sent",)
"""The default run's step (each costs three starts of the bot); ``-m full`` runs them all: a
send Telegram made whose outcome the dead process never recorded (the hardest: the board is
in the chat, the outbox does not know it)."""


@pytest.mark.long
@pytest.mark.parametrize("points", sample_or_full(CRASH_SAMPLE, CRASH_POINTS))
async def test_killed_at_each_step_of_a_turn_the_board_converges(
    standin: StandIn, tmp_path: Path, bot_process: list[Process],
    points: tuple[str, ...]
) -> None:
    from standin.players import board_version
    from tests.bot.helpers.delivery import boards, up_to_the_last_tap

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
    for point in points:
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


REVEAL_POINTS = ("committed", "claimed", "notice-sending", "notice-sent", "notice-recorded")
"""Every step between a match's end and its seed revealed in the group: the commit, the claim
(of its last board, the reveal waiting behind it), and the reveal's send
(the steps of :mod:`bot.faults`)."""
REVEAL_SAMPLE = ("notice-sent",)
"""The default run's step (the reveal in the chat, its send never recorded); ``-m full`` runs
them all."""


@pytest.mark.long
@pytest.mark.parametrize("points", sample_or_full(REVEAL_SAMPLE, REVEAL_POINTS))
async def test_killed_at_each_step_of_a_matchs_end_the_seed_is_revealed_once(
    standin: StandIn, tmp_path: Path, bot_process: list[Process],
    points: tuple[str, ...]
) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    proc = start_at(standin, tmp_path, None)
    bot_process.append(proc)

    def reveals() -> int:
        return sum(1 for m in group.bot_messages() if "The dice seed was" in m.content)

    for done, point in enumerate(points):
        cmd = alice.send(group, "/new")
        card = await group.wait_for_answer(cmd, timeout=30)
        await alice.tap(card, "1 point")
        await standin.wait_for(lambda c=card: "SHA-256" in (c.refresh().text or ""))
        await bob.tap(card.refresh(), "🎲 Accept")
        await standin.wait_for(lambda: live_board(group), what="the first board")
        cmd = alice.send(group, "/resign")
        menu = await group.wait_for_answer(cmd, timeout=30)
        await standin.idle()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        # the step: this process ends itself there, the way a killed host would
        proc = start_at(standin, tmp_path, point)
        bot_process.append(proc)
        alice.tap(menu, "🏳 Resign the match")
        assert proc.wait(timeout=60) == 70, point
        proc = start_at(standin, tmp_path, None)
        bot_process.append(proc)
        await standin.wait_for(lambda n=done + 1: reveals() >= n, timeout=30,
                               what=f"the seed revealed after {point}")
        await standin.idle(quiet=1.0, timeout=30)
        assert reveals() == done + 1, point
    log = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in log, log[-3000:]


NOTICE_POINTS = ("committed", "notice-sending", "notice-sent")
"""The steps between a notice's commit and its send (its kind named, see :mod:`bot.faults`)."""
NOTICE_SAMPLE = {"timeout": ("committed",), "expired": ("notice-sending",),
                 "review": ("notice-sent",), "moved": ("notice-sending",)}
"""The default run's step for each kind (every step is some kind's); ``-m full`` runs each
kind at every step."""
NOTICE_RUNS = [pytest.param(kind, steps, id=f"{kind}-{param.id}", marks=param.marks)
               for kind, sample in NOTICE_SAMPLE.items()
               for param in sample_or_full(sample, NOTICE_POINTS) for steps in param.values]
NOTICE_MARKS = {"timeout": "did not move in time", "review": "Review of match #",
                "moved": "was removed from the group of match #"}


def told(chat: Chat, kind: str) -> int:
    """The notices of ``kind`` the bot's messages in ``chat`` tell."""
    return sum(1 for m in chat.bot_messages()
               if m.photo_bytes is None and NOTICE_MARKS[kind] in m.content)


def due_now(url: str, kind: str) -> None:
    """The bot is down: its timers of ``kind`` fall due (their time moved 8 days back; the
    heartbeats stay, so the restarted bot counts no downtime)."""
    db = Database.from_url(url)
    with db.sessions.begin() as session:
        for timer in session.scalars(select(TimerRow).where(TimerRow.kind == kind,
                                                            TimerRow.fired_at.is_(None))):
            timer.due_at -= timedelta(days=8)
    db.engine.dispose()


@pytest.mark.long
@pytest.mark.parametrize(("kind", "points"), NOTICE_RUNS)
async def test_killed_between_a_notices_commit_and_its_send_it_arrives_once(
    standin: StandIn, tmp_path: Path, bot_process: list[Process], kind: str,
    points: tuple[str, ...]
) -> None:
    """Each notice kind, at each step from the commit of what causes it to its send: the
    process ends itself there, and the restarted one sends it, once."""
    from standin.players import start_the_bot

    url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    proc = start_at(standin, tmp_path, None)
    bot_process.append(proc)
    # a cold start (migrations in a child process) on a loaded machine
    await start_the_bot(alice, bob, timeout=60)
    chats = [u.private for u in (alice, bob)]
    for n, point in enumerate(points, start=1):
        step = point if point == "committed" else f"{point}:{kind}"
        # a new group each time: the last match's final board (Rematch, Review) stays there
        group = standin.group(f"Kafeneio {n}", alice, bob)
        cmd = alice.send(group, "/new")
        card = await group.wait_for_answer(cmd, timeout=30)
        await alice.tap(card, "3 points")
        await standin.wait_for(lambda c=card: "SHA-256" in (c.refresh().text or ""))
        if kind != "expired":
            await bob.tap(card.refresh(), "🎲 Accept")
            board = await standin.wait_for(lambda g=group: live_board(g), what="the board")
        if kind == "review":  # GNU Backgammon reviews a match with a turn played
            await play_turn(standin, alice if board.mentions(alice) else bob, group)
            cmd = alice.send(group, "/resign")
            menu = await group.wait_for_answer(cmd, timeout=30)
        await standin.idle()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        if kind in ("timeout", "expired"):
            due_now(url, "timeout" if kind == "timeout" else "challenge_expiry")
        # the step: this process ends itself there, the way a killed host would
        proc = start_at(standin, tmp_path, step)
        bot_process.append(proc)
        if kind == "review":
            alice.tap(menu, "🏳 Resign the match")
        elif kind == "moved":
            alice.remove_bot(group)
        assert proc.wait(timeout=60) == 70, step
        proc = start_at(standin, tmp_path, None)
        bot_process.append(proc)
        if kind == "expired":
            await standin.wait_for(lambda c=card: c.refresh().text == "This challenge has "
                                   "expired.", timeout=30, what=f"the card expired after {step}")
            await standin.idle(quiet=1.0, timeout=30)
            assert [m.message_id for m in group.bot_messages()] == [card.message_id], step
            continue
        await standin.wait_for(lambda n=n: all(told(c, kind) >= n for c in chats), timeout=90,
                               what=f"the {kind} after {step}")
        await standin.idle(quiet=1.0, timeout=30)
        assert [told(c, kind) for c in chats] == [n, n], step
    log = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in log, log[-3000:]
