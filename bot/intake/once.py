"""Each command handled once, however often Telegram delivers its update and whichever
instance gets it (:mod:`storage.usecases.updates`).

A tap carries its match version and a typed play its message id, so their copies are refused
where they are decided; a command (``/new``, ``/help``, ``/top``) carries nothing of the kind,
and a copy of ``/new`` used to post a second card. :func:`once` wraps every command handler:
it claims the update id in the database, runs the command while renewing the claim, and marks
the update handled once the command has answered. A copy of an update that is handled changes
nothing; one that comes while another instance holds the claim waits for it to be handled, or
takes it over when its holder died (a process of this host that is gone, at once; on another
host, once the lease ran out).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import secrets
import socket
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.ext import Application, ContextTypes

from bot.delivery.publish import crash_point
from bot.state import Portes, portes
from storage.usecases.updates import Claim

log = logging.getLogger("bot.intake.once")

LEASE = 15.0
"""Seconds a claim on a command holds unless renewed (it is, every third of it, while the
command runs)."""
WAIT_STEP = 0.25
"""How often a copy waiting for another holder asks again."""
WAIT_MOST = 4 * LEASE
"""How long a copy waits for a live holder (renewing its claim) before leaving it the command."""
PRUNE_EVERY = 3600.0

Command = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


@functools.cache
def _worker(pid: int) -> str:
    return f"{socket.gethostname()[:40]}:{pid}:{secrets.token_hex(3)}"


def worker() -> str:
    """This process's name in the claims: host, process id, and a token telling it from an
    earlier process of the same id (a container restarted)."""
    return _worker(os.getpid())


def gone(holder: str) -> bool:
    """Whether ``holder`` was a process of this host that no longer runs."""
    host, _, rest = holder.partition(":")
    pid, _, _token = rest.partition(":")
    if host != socket.gethostname()[:40] or not pid.isdigit() or holder == worker():
        return False
    if int(pid) == os.getpid():
        return True  # an earlier process with our id
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


async def claimed(p: Portes, update_id: int) -> bool:
    """Whether this process is to handle ``update_id`` (it holds the claim): false when the
    update was handled already, or a live holder kept it past :data:`WAIT_MOST`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_MOST
    me = worker()
    while True:
        state, holder = await p.uc.claim_update(update_id, me, LEASE)
        if state == Claim.BUSY and gone(holder):
            log.info("update %s: its holder %s is gone; taking it over", update_id, holder)
            state, holder = await p.uc.claim_update(update_id, me, LEASE, taking_from=holder)
        if state != Claim.BUSY:
            return state == Claim.MINE
        if loop.time() >= deadline:
            log.warning("update %s: still held by %s; left to it", update_id, holder)
            return False
        await asyncio.sleep(WAIT_STEP)


async def _renew(p: Portes, update_id: int) -> None:
    while True:
        await asyncio.sleep(LEASE / 3)
        try:
            if not await p.uc.renew_update_claim(update_id, worker(), LEASE):
                log.warning("update %s: the claim was taken over while it ran", update_id)
                return
        except Exception as exc:
            log.warning("update %s: could not renew the claim: %s", update_id, exc)


def once(callback: Command) -> Command:
    """``callback`` (a command handler) run at most once per update id, see the module."""

    @functools.wraps(callback)
    async def run(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        p = portes(context)
        try:
            mine = await claimed(p, update.update_id)
        except Exception as exc:  # the database is out of reach: answer, maybe twice
            log.warning("update %s: could not claim it, handled all the same: %s",
                        update.update_id, exc)
            mine = True
        if not mine:
            log.info("update %s: handled already; not again", update.update_id)
            return
        crash_point("command")  # tests: killed holding the claim, before the command ran
        renewing = asyncio.ensure_future(_renew(p, update.update_id))
        try:
            await callback(update, context)
        finally:  # a command that failed counts as handled too: the error handler has it
            renewing.cancel()
            try:
                await p.uc.mark_update_handled(update.update_id)
            except Exception as exc:
                log.warning("update %s: could not mark it handled (a copy would be handled "
                            "again): %s", update.update_id, exc)

    return run


def start_pruning(app: Application, p: Portes) -> None:  # type: ignore[type-arg]
    """Every hour, forget the updates handled long enough ago (Telegram no longer sends
    them again)."""

    async def prune(_context: Any) -> None:
        try:
            await p.uc.prune_handled_updates()
        except Exception:
            log.exception("pruning the handled updates failed")

    if app.job_queue is not None:
        app.job_queue.run_repeating(prune, interval=PRUNE_EVERY, first=60.0,
                                    name="handled updates")
