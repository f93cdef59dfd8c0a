"""Fault injection: the named steps of a delivery, a typed play and a command where a test may
end the process the way a killed host would, to check that what the chats show converges.

Production runs :class:`NoFaults` (nothing happens). Only a test harness passes another
(``standin/crashing.py`` launches the real bot with one); nothing here reads the environment.
The steps: ``committed`` (an action committed, nothing delivered: a move, a timeout, an
expired challenge, the bot removed from a group), ``claimed``, ``sending``,
``sent``, ``recorded``, ``retired``, ``shown`` (the delivery worker's, see
:mod:`bot.delivery.worker`), ``notice-sending:<kind>``, ``notice-sent:<kind>``,
``notice-recorded:<kind>`` (a notice's send, its kind named: ``reveal``, ``timeout``,
``review``, ``expired``, ``moved``...; see :mod:`bot.delivery.notices`), ``typed`` (a
typed play committed, its answer not sent) and ``command`` (a command's update claimed,
the command not run).
"""

from __future__ import annotations

from typing import Protocol


class Faults(Protocol):
    def reached(self, step: str) -> None:
        """The process reached ``step`` (one of the module's names)."""


class NoFaults:
    """Production's: no step does anything."""

    def reached(self, step: str) -> None:
        return None
