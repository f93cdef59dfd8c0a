"""Vacations (``/vacation``): the player's clocks in their ordinary matches stand still for a
few days, their opponents are told (an outbox notice per match), and a competition may refuse.

Pausing: when the vacation starts, every unfired reminder and timeout of the player's seat in
their active matches moves later by the vacation's length (and the turn deadline with it);
a timer of theirs that comes due while the vacation lasts (their turn came meanwhile) is not
fired but moved later by the part of the vacation after it was set
(:func:`postponed`, called by the timer use case). The opponents' clocks run on.

The hook for competitions: :func:`register_vacation_guard` adds a function ``(session,
player id, now) -> refusal code or None``; a cup refuses during its round's deadline with
it. Every guard registered is asked before a vacation starts.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from storage.matchmaking.policy import PlayPolicy
from storage.matchmaking.results import VacationResult
from storage.models import MatchRow, Player, TimerRow
from storage.play_notices import VACATION, tagged_notices
from storage.play_tables import VacationRow
from storage.results import MatchStatus, Outcome, TimerKind
from storage.usecases.kernel import Feature, Kernel, off_loop
from storage.usecases.rows import MatchData

VacationGuard = Callable[[Session, int, datetime], str | None]
"""A competition's say: a refusal code (e.g. ``"cup_round"``) when the player may not take a
vacation now, else ``None``."""
VACATION_GUARDS: list[VacationGuard] = []


def register_vacation_guard(guard: VacationGuard) -> VacationGuard:
    """Ask ``guard`` before every vacation (usable as a decorator); registered once."""
    if guard not in VACATION_GUARDS:
        VACATION_GUARDS.append(guard)
    return guard


def vacation_refusal(session: Session, player_id: int, now: datetime) -> str | None:
    """The first guard's refusal, or ``None`` when none refuses."""
    for guard in VACATION_GUARDS:
        code = guard(session, player_id, now)
        if code:
            return code
    return None


def current_vacation(session: Session, player_id: int, now: datetime) -> VacationRow | None:
    return session.scalar(select(VacationRow).where(
        VacationRow.player_id == player_id, VacationRow.starts_at <= now,
        VacationRow.ends_at > now).order_by(VacationRow.ends_at.desc()).limit(1))


def days_used(session: Session, player_id: int, now: datetime) -> int:
    start = datetime(now.year, 1, 1, tzinfo=UTC)
    return int(session.scalar(select(func.coalesce(func.sum(VacationRow.days), 0)).where(
        VacationRow.player_id == player_id, VacationRow.starts_at >= start)) or 0)


def postponed(session: Session, timer: TimerRow, row: MatchData | MatchRow,
              now: datetime) -> bool:
    """A reminder or timeout of a player on vacation, claimed by the timer use case: set due
    again after the vacation (by the part of it after the timer was set) instead of firing,
    the turn deadline with it. ``False``: the player is not on vacation, fire it."""
    if timer.seat is None or TimerKind(timer.kind) == TimerKind.CHALLENGE_EXPIRY:
        return False
    player = row.player0_id if timer.seat == 0 else row.player1_id
    if player is None:
        return False
    away = current_vacation(session, player, now)
    if away is None:
        return False
    later = away.ends_at - max(away.starts_at, timer.created_at)
    timer.due_at = timer.due_at + later
    timer.fired_at = None
    timer.fired_by = None
    if TimerKind(timer.kind) == TimerKind.TIMEOUT and row.to_act == timer.seat:
        session.execute(update(MatchRow).where(MatchRow.id == row.id)
                        .values(turn_deadline=timer.due_at)
                        .execution_options(synchronize_session=False))
    return True


def _pause(session: Session, kernel: Kernel, player_id: int, vacation: VacationRow,
           ) -> tuple[list[int], list[str]]:
    """Move the player's pending timers and deadlines later; tell each human opponent."""
    length = vacation.ends_at - vacation.starts_at
    matches = list(session.scalars(select(MatchRow).where(
        MatchRow.status == MatchStatus.ACTIVE.value,
        or_(MatchRow.player0_id == player_id, MatchRow.player1_id == player_id))))
    keys: list[str] = []
    for m in matches:
        seat = 0 if m.player0_id == player_id else 1
        for timer in session.scalars(select(TimerRow).where(
                TimerRow.match_id == m.id, TimerRow.seat == seat, TimerRow.fired_at.is_(None))):
            timer.due_at = timer.due_at + length
        if m.to_act == seat and m.turn_deadline is not None:
            m.turn_deadline = m.turn_deadline + length
        other = m.player1_id if seat == 0 else m.player0_id
        if other is None:
            continue
        reader = session.get(Player, other)
        args = {"by": player_id, "until": vacation.ends_at.isoformat()}
        if reader is not None and reader.can_message:
            keys += tagged_notices(session, kernel, m.id,
                                   [(other, VACATION, str(vacation.id), 1 - seat, args)])
        elif m.in_group and m.chat_id is not None:
            keys += tagged_notices(session, kernel, m.id,
                                   [(m.chat_id, VACATION, str(vacation.id), None, args)])
    return [m.id for m in matches], keys


class VacationCases(Feature):
    """Taking a vacation, and how many days are left."""

    play_policy: PlayPolicy = PlayPolicy()

    @off_loop
    def vacation_status(self, player_id: int) -> VacationResult:
        """Whether the player is on vacation (until when) and this year's days left."""
        now = self.kernel.clock()
        with self.kernel.sessions() as session:
            away = current_vacation(session, player_id, now)
            left = self.play_policy.vacation_days - days_used(session, player_id, now)
        return VacationResult(Outcome.OK, ends_at=away.ends_at if away else None,
                              days_left=max(0, left))

    @off_loop
    def take_vacation(self, player_id: int, days: int) -> VacationResult:
        """Start a vacation of ``days`` days now. Refusals: ``invalid_action`` (days out of
        1..``PlayPolicy.vacation_longest``), ``on_vacation`` (one runs), ``no_vacation_days``
        (this year's allowance would be passed), or a competition guard's code."""
        policy, k = self.play_policy, self.kernel
        if not 1 <= days <= policy.vacation_longest:
            return VacationResult(Outcome.REFUSED, "invalid_action",
                                  f"A vacation lasts 1 to {policy.vacation_longest} days.")
        now = k.clock()
        with k.db.write_lock(), k.sessions.begin() as session:
            k.ensure_player(session, player_id)
            session.execute(select(Player.id).where(Player.id == player_id)
                            .with_for_update(key_share=True))
            left = policy.vacation_days - days_used(session, player_id, now)
            refused = ("on_vacation" if current_vacation(session, player_id, now) else
                       "no_vacation_days" if days > left else
                       vacation_refusal(session, player_id, now))
            if refused:
                return VacationResult(Outcome.REFUSED, refused, refused,
                                      days_left=max(0, left))
            vacation = VacationRow(player_id=player_id, starts_at=now,
                                   ends_at=now + timedelta(days=days), days=days)
            session.add(vacation)
            session.flush()
            matches, keys = self._paused(session, player_id, vacation)
            return VacationResult(Outcome.OK, ends_at=vacation.ends_at, days_left=left - days,
                                  matches=tuple(matches), chat_keys=tuple(keys))

    def _paused(self, session: Session, player_id: int,
                vacation: VacationRow) -> tuple[list[int], list[str]]:
        return _pause(session, self.kernel, player_id, vacation)
