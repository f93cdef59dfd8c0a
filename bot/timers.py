"""Reminders, timeouts and challenge expiries: storage timers, fired from the job queue.

Each instance calls :meth:`UseCases.fire_due_timers` every ``PORTES_TIMER_POLL`` seconds; the
database makes sure each timer fires exactly once, so timers survive restarts and several
instances. Each tick also writes the instance's heartbeat; at start :func:`resume_after_downtime`
pushes every pending deadline past the time when no instance ran, so downtime never counts
against a player.
"""

from __future__ import annotations

import logging
import os
import socket
from datetime import timedelta

from telegram.ext import ContextTypes

from bot.delivery.publish import Publisher
from bot.handlers.competitions import competition_tick
from bot.state import Portes, is_group_match, portes
from storage.results import TimerFired, TimerKind

log = logging.getLogger("bot.timers")

DOWNTIME_POLLS = 3
"""No heartbeat for this many timer polls means no instance was running."""


def instance_name(p: Portes) -> str:
    """This instance's name in the heartbeats and on the timers it fires."""
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{id(p) % 10_000}"


async def resume_after_downtime(p: Portes) -> timedelta | None:
    """At start, before any timer fires: push the pending deadlines by the time no instance
    ran (see :meth:`UseCases.resume`); returns that downtime, if any."""
    poll = p.settings.timeouts.timer_poll
    down = await p.uc.resume(instance_name(p), longer_than=timedelta(seconds=DOWNTIME_POLLS * poll))
    if down is not None:
        log.warning("the bot was down for %s: reminders, timeouts and challenge expiries are "
                    "pushed back by that much", down)
    return down


async def timer_tick(context: ContextTypes.DEFAULT_TYPE) -> None:
    """The job queue's tick: beat, fire the due timers this instance claimed, and show each."""
    p = portes(context)
    try:
        await p.uc.beat(instance_name(p))
        fired = await p.uc.fire_due_timers(worker=instance_name(p))
    except Exception:
        log.exception("firing timers failed")
        return
    pub = Publisher(p, context.bot)
    for timer in fired:
        try:
            await handle_timer(p, pub, timer)
        except Exception:
            log.exception("timer %s (%s) could not be shown", timer.timer_id, timer.kind)
    try:  # after the timeouts: a match lost on time is recorded in the same tick
        await competition_tick(p, context.bot)
    except Exception:
        log.exception("the competitions' tick failed")


async def handle_timer(p: Portes, pub: Publisher, timer: TimerFired) -> None:
    """Show one fired timer: an expired challenge card, a timed-out match, a reminder."""
    mv = timer.match
    if timer.kind == TimerKind.CHALLENGE_EXPIRY:
        if timer.challenge is None:
            return
        # its card is edited by the delivery worker, from the outbox row the expiry wrote;
        # a card not known yet gets its row when it is (bot.state.Portes.card_shown)
        p.faults.reached("committed")
        if p.delivery is not None:
            p.delivery.kick(*timer.chat_keys)
        return
    if mv is None:
        return
    if timer.kind == TimerKind.TIMEOUT:
        async with p.locks.hold(mv.id):
            await pub.show(mv, timer.events)  # the timeout's notices go with the boards
        return
    # a reminder is the board itself, posted again where the player plays (a new message
    # notifies) with the reminder heading its caption: their private board, or the group's
    # for a player who never started the bot (which mentions them); the old board is retired
    seat = timer.seat if timer.seat is not None else mv.to_act
    if seat is None:
        return
    player = mv.seats[seat].player
    if player is None:
        return
    waiting = timer.after or timedelta(0)
    note = {"k": "remind", "seat": seat, "waited_s": round(waiting.total_seconds()),
            "left_s": None if timer.left is None else int(timer.left.total_seconds()),
            "last": timer.last}
    in_group = is_group_match(mv) and mv.place.chat_id is not None and not player.can_message
    async with p.locks.hold(mv.id):
        p.remember(mv)  # the players as they are now (started the bot, turned notices off)
        await pub.bring_back(mv, None if in_group else seat, shared=in_group, notes=[note])
