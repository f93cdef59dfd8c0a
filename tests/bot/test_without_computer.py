"""The bot without the ``computer`` extra (gnubg-nn not installed, as on Linux aarch64 or
Python 3.14): it runs, offers the easy level alone, plays it, and says that hints and reviews
need the engine. The real ``python -m bot`` runs with an import hook (a ``sitecustomize`` on
``PYTHONPATH``, so the engine's worker process has it too) that makes ``gnubg_nn``
unimportable."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from standin import StandIn
from standin.players import board_version, live_board, next_private_turn, play_turn
from tests.bot.helpers.processes import ROOT, env_for, migrated

HOOK = """import sys
sys.modules["gnubg_nn"] = None  # import gnubg_nn -> ImportError, find_spec -> None
"""


@pytest.fixture
def bot_without_engine(standin: StandIn, tmp_path: Path) -> Iterator[Path]:
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(HOOK)
    env = env_for(standin, tmp_path, PYTHONPATH=str(hook), PORTES_COMPUTER_DELAY="0")
    log_path = tmp_path / "bot.log"
    migrated(tmp_path)
    with log_path.open("a") as log:
        proc = subprocess.Popen([sys.executable, "-m", "bot"], env=env, cwd=ROOT, stdout=log,
                                stderr=subprocess.STDOUT, text=True)
    yield log_path
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def test_the_hook_hides_the_engine(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(HOOK)
    code = ("import computer.engine as e, computer, bot.app\n"
            "print(e.available(), computer.playable_levels())\n"
            "try:\n    e.nets()\nexcept e.EngineMissing as x:\n    print('missing:', x)\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, env={"PYTHONPATH": str(tmp_path),
                                                        "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert "False ('easy',)" in result.stdout
    assert "portes[computer]" in result.stdout


async def test_the_bot_runs_and_plays_easy_without_the_engine(
        standin: StandIn, bot_without_engine: Path) -> None:
    alice = standin.user("Alice", username="alice")
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello, timeout=30)
    cmd = alice.send(alice.private, "/new")
    card = await alice.private.wait_for_answer(cmd)
    await alice.tap(card, "🤖 Against the computer")
    await standin.wait_for(lambda: "✔ Easy" in card.refresh().button_texts,
                           what="the computer card, easy ticked")
    texts = card.refresh().button_texts
    assert not any("Medium" in b or "Strong" in b for b in texts), texts
    await alice.tap(card.refresh(), "1 point")
    await standin.wait_for(lambda: "▶ Start" in card.refresh().button_texts,
                           what="the Start button")
    assert "easy" in (card.refresh().text or "")
    await alice.tap(card.refresh(), "▶ Start")

    # the Hint button says what is missing
    _, board = await next_private_turn(standin, [alice], 0)
    answer = await alice.tap(board, "💡 Hint")
    assert answer is not None and answer.show_alert
    assert "gnubg-nn" in (answer.text or "") and "not installed" in (answer.text or "")
    # the computer plays (the easy level needs no engine)
    version = board_version(board)
    await play_turn(standin, alice, alice.private, wait=False)
    _, board = await next_private_turn(standin, [alice], version)
    assert "Computer" in (board.caption or "")

    # resign the match: no review comes by itself, and the Review button says why
    cmd = alice.send(alice.private, "/resign")
    menu = await alice.private.wait_for_bot_message(after=cmd)
    await alice.tap(menu, "🏳 Resign the match")
    final = await standin.wait_for(
        lambda: (b := live_board(alice.private)) and "📊 Review" in b.button_texts and b,
        what="the end-of-match board")
    await alice.tap(final, "📊 Review")
    await standin.wait_for(lambda: any(
        "Reviews need the computer's engine (gnubg-nn)" in m.content
        for m in alice.private.bot_messages()), what="the review's refusal")
    assert not any("Review of match" in m.content for m in alice.private.bot_messages())
    text = bot_without_engine.read_text()
    assert "Traceback" not in text and "ERROR" not in text, text[-3000:]
