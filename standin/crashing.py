"""``python -m standin.crashing``: the real bot (``python -m bot``, the same arguments), ended
at once with status 70 when it reaches the step named in ``PORTES_TEST_CRASH_AT`` (one of
:mod:`bot.faults`' steps), the way a killed host would. The bot itself never reads that
variable: this launcher passes it in as its fault injection."""

from __future__ import annotations

import os
import sys

from bot.__main__ import main

CRASH_AT = "PORTES_TEST_CRASH_AT"


class CrashAt:
    """End the process at once at one step: ``notice-sending`` is reached by any notice's
    send, ``notice-sending:review`` by a review's only."""

    def __init__(self, step: str) -> None:
        self.step = step

    def reached(self, step: str) -> None:
        if self.step in (step, step.split(":", 1)[0]):
            os._exit(70)


def command(env: dict[str, str]) -> list[str]:
    """How to start the bot with this environment: through this launcher when it names a step
    to crash at, else the plain ``python -m bot``."""
    return [sys.executable, "-m", "standin.crashing" if env.get(CRASH_AT) else "bot"]


if __name__ == "__main__":
    step = os.environ.get(CRASH_AT)
    sys.exit(main(faults=CrashAt(step) if step else None))
