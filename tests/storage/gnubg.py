"""GNU Backgammon as the tests' reader of .mat files: import one with ``gnubg -t`` and read back
its own export or its score (skipped without gnubg outside CI)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest


def gnubg_path() -> str | None:
    """gnubg's path, if it is installed."""
    return shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")


def gnubg_or_skip() -> str:
    """gnubg's path; skipped without it outside CI (in CI, .ci/run installs it: must run)."""
    path = gnubg_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but gnubg is not installed (.ci/run installs it)")
        pytest.skip("gnubg SKIPPED: GNU Backgammon is not installed (apt-get install gnubg)")
    return path


def gnubg_reexport(text: str, tmp_path: Path) -> str:
    """Import ``text`` as a .mat in gnubg and return gnubg's own .mat export of what it read."""
    source, again = tmp_path / "in.mat", tmp_path / "out.mat"
    source.write_text(text, encoding="utf-8")
    script = tmp_path / "script"
    script.write_text(f'import mat "{source}"\nexport match mat "{again}"\n')
    done = subprocess.run([gnubg_or_skip(), "-t", "-q", "-r", "-c", str(script)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert again.exists(), done.stdout + done.stderr
    return again.read_text(encoding="utf-8", errors="replace")


def gnubg_score(text: str, tmp_path: Path) -> str:
    """Import ``text`` as a .mat in gnubg: its ``show score`` line ("The score (after 1 game)
    is: Alice 0, Bob 3 (match to 3 points)")."""
    source, script = tmp_path / "score.mat", tmp_path / "score-script"
    source.write_text(text, encoding="utf-8")
    script.write_text(f'import mat "{source}"\nshow score\n')
    done = subprocess.run([gnubg_or_skip(), "-t", "-q", "-r", "-c", str(script)],
                          capture_output=True, text=True, timeout=300, check=False)
    found = re.search(r"The score \(after .*", done.stdout)
    assert found, done.stdout + done.stderr
    return found.group(0).strip()
