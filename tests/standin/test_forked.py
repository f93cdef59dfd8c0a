"""The bot processes the tests fork from a zygote behave as processes of their own: their
environment, working directory and output, their exit status, a signal sent to them, and a
``random`` of their own."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from standin.forked import Forked, popen

SCRIPT = '''\
import os, random, sys, time
print(os.environ["WHO"], os.getcwd(), random.random(), flush=True)
print("to stderr", file=sys.stderr)
if os.environ.get("SLEEP"):
    time.sleep(60)
sys.exit(int(os.environ.get("CODE", "0")))
'''


@pytest.fixture
def module(tmp_path: Path) -> str:
    """A module in the working directory, found there as ``python -m`` finds it."""
    (tmp_path / "zygote_probe.py").write_text(SCRIPT)
    return "zygote_probe"


def start(tmp_path: Path, name: str, **env: str) -> tuple[Forked, Path]:
    log = tmp_path / f"{name}.log"
    with log.open("a") as out:
        proc = popen([sys.executable, "-m", "zygote_probe"], env={**os.environ, "WHO": name,
                     **env}, cwd=tmp_path, stdout=out)
    assert isinstance(proc, Forked)
    return proc, log


def test_a_forked_child_has_its_own_environment_output_and_status(
        tmp_path: Path, module: str) -> None:
    first, first_log = start(tmp_path, "first", CODE="3")
    second, second_log = start(tmp_path, "second")
    assert first.wait(timeout=30) == 3 and second.wait(timeout=30) == 0
    assert first.pid != second.pid
    one = first_log.read_text().split("\n")
    two = second_log.read_text().split("\n")
    assert one[0].split()[:2] == ["first", str(tmp_path)]
    assert two[0].split()[:2] == ["second", str(tmp_path)]
    assert "to stderr" in one
    assert one[0].split()[2] != two[0].split()[2]  # each child's random, seeded at its fork


def test_a_forked_child_is_killed_by_a_signal_sent_to_it(tmp_path: Path, module: str) -> None:
    proc, _ = start(tmp_path, "sleeper", SLEEP="1")
    assert proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL
    proc, _ = start(tmp_path, "sleeper", SLEEP="1")
    proc.terminate()
    assert proc.wait(timeout=30) == -signal.SIGTERM
