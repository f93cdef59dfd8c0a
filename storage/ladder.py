"""A ladder per group, opt-in: players join and leave; once a day (UTC) the players on the
same rung, or the nearest rungs, are paired at random and a challenge (a group match,
addressed to the second player, who starts it) is made for each pair; a win moves the winner
one rung up and the loser one down (never below rung 1). At most one ladder match at a time
per player: whoever still has one open (a challenge not started, or a match not over) sits the
day out. A ladder match that ends is settled the next time the ladder is read or paired.

Whoever opens a group's ladder chooses what its matches play (any match kind of the
registry, :mod:`rules.game`, the Tavli rotation included) and their length (revision 0024,
``ladders``). The day's run is claimed once across instances by its ``ladder_days`` row (the
primary key). The group's ladder card is one message edited in place: after each day's
pairings, and after each ladder match settled, an outbox notice (``note:<group>:ladder:<tag>``,
the day or ``m<match>``) about the day's first match or the settled one redraws it within the
group's budget (the worker posts it when the group has none yet). A run whose instance dies
between the claim and the challenges leaves that day unpaired.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime

from sqlalchemy import case, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rules.game import DEFAULT_KIND, KINDS
from storage.matchmaking.results import LadderDay, LadderEntry, LadderSettings, PlayResult
from storage.models import MatchRow, Player
from storage.play_notices import LADDER, tagged_notices
from storage.play_tables import LadderDayRow, LadderMatchRow, LadderPlayerRow, LadderRow
from storage.results import ENDED_STATUSES, MatchStatus, Outcome
from storage.usecases.challenges import ChallengeCases
from storage.usecases.kernel import Kernel, off_loop

log = logging.getLogger("storage.ladder")
LENGTHS = (1, 3, 5, 7)
OPEN = (MatchStatus.CHALLENGE.value, MatchStatus.ACTIVE.value)


def day_of(now: datetime) -> str:
    return now.date().isoformat()


def pair_rungs(players: list[tuple[int, int]], rng: random.Random) -> list[tuple[int, int]]:
    """Pairs of ``(player, rung)``: shuffled within each rung, then taken in rung order, so
    each pair is on one rung or the nearest ones; an odd player out sits out (the lowest)."""
    by_rung: dict[int, list[int]] = {}
    for pid, rung in players:
        by_rung.setdefault(rung, []).append(pid)
    order: list[int] = []
    for rung in sorted(by_rung, reverse=True):
        group = sorted(by_rung[rung])
        rng.shuffle(group)
        order += group
    return [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]


def settle(session: Session, kernel: Kernel, chat_id: int,
           keys: list[str] | None = None) -> list[tuple[int, int]]:
    """The ladder matches of the group that ended since: rungs moved, and the group's card
    redrawn (a notice on each settled match; its chat added to ``keys``). (winner, loser)
    each. Each is claimed by a conditional update and the rungs move in SQL, so instances
    settling at once settle each match once and lose no step."""
    done: list[tuple[int, int]] = []
    rows = session.execute(
        select(LadderMatchRow.id, LadderMatchRow.match_id, LadderMatchRow.day,
               LadderMatchRow.player0_id, LadderMatchRow.player1_id, MatchRow.status,
               MatchRow.winner)
        .join(MatchRow, MatchRow.id == LadderMatchRow.match_id)
        .where(LadderMatchRow.chat_id == chat_id, LadderMatchRow.settled.is_(False),
               MatchRow.status.not_in(OPEN))).all()
    for lm_id, match_id, day, p0, p1, status, winner in rows:
        decided = MatchStatus(status) in ENDED_STATUSES and winner is not None
        won, lost = (p0, p1) if winner == 0 else (p1, p0)
        claimed = session.execute(
            update(LadderMatchRow)
            .where(LadderMatchRow.id == lm_id, LadderMatchRow.settled.is_(False))
            .values(settled=True, winner_id=won if decided else None)
            .execution_options(synchronize_session=False))
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            continue  # settled by another instance meanwhile
        found = tagged_notices(session, kernel, match_id,
                               [(chat_id, LADDER, f"m{match_id}", None, {"day": day})])
        if keys is not None:
            keys += found
        if not decided:
            continue  # never started (expired, cancelled): nobody moves
        for pid, step in ((won, 1), (lost, -1)):
            rung = LadderPlayerRow.rung + step
            session.execute(
                update(LadderPlayerRow)
                .where(LadderPlayerRow.chat_id == chat_id, LadderPlayerRow.player_id == pid)
                .values(rung=case((rung < 1, 1), else_=rung),
                        wins=LadderPlayerRow.wins + int(step > 0),
                        losses=LadderPlayerRow.losses + int(step < 0))
                .execution_options(synchronize_session=False))
        done.append((won, lost))
    return done


class LadderCases(ChallengeCases):
    """Joining and leaving a group's ladder, reading it, and the daily pairing."""

    @off_loop
    def open_ladder(self, chat_id: int, player_id: int, game_type: str,
                    length: int) -> PlayResult:
        """Open the group's ladder: its matches play ``game_type`` (a match kind of the
        registry) to ``length``; the opener is its first player. Refusals: ``bad_setting``
        (a kind or length not on offer), ``ladder_exists``."""
        kind = KINDS.get(game_type)
        if kind is None or length not in kind.lengths or length not in LENGTHS:
            return PlayResult(Outcome.REFUSED, "bad_setting", "That setting is not possible.")
        k = self.kernel
        now = k.clock()
        try:
            with k.db.write_lock(), k.sessions.begin() as session:
                if session.get(LadderRow, chat_id) is not None:
                    return PlayResult(Outcome.REFUSED, "ladder_exists",
                                      "This group has a ladder already.")
                k.ensure_player(session, player_id)
                session.add(LadderRow(chat_id=chat_id, game_type=game_type, length=length,
                                      opened_by=player_id, opened_at=now))
                session.flush()
                if session.get(LadderPlayerRow, (chat_id, player_id)) is None:
                    session.add(LadderPlayerRow(chat_id=chat_id, player_id=player_id, rung=1,
                                                active=True, wins=0, losses=0, joined_at=now))
        except IntegrityError:  # another instance opened it at the same moment
            return PlayResult(Outcome.REFUSED, "ladder_exists", "This group has a ladder already.")
        return PlayResult(Outcome.OK)

    @off_loop
    def ladder_settings(self, chat_id: int) -> LadderSettings | None:
        """The group's ladder as it was opened, or ``None`` (none opened)."""
        with self.kernel.sessions() as session:
            row = session.get(LadderRow, chat_id)
            if row is None:
                return None
            last = session.scalar(select(LadderMatchRow.day)
                                  .where(LadderMatchRow.chat_id == chat_id)
                                  .order_by(LadderMatchRow.day.desc()).limit(1))
            return LadderSettings(chat_id, row.game_type, row.length, row.opened_by,
                                  row.card_message_id, last)

    @off_loop
    def set_ladder_card(self, chat_id: int, message_id: int) -> None:
        """The group's ladder card is this message from now on (edited in place)."""
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            row = session.get(LadderRow, chat_id)
            if row is not None:
                row.card_message_id = message_id

    @off_loop
    def join_ladder(self, chat_id: int, player_id: int) -> PlayResult:
        """Refusals: ``no_ladder`` (none opened here), ``already_on_ladder``."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            if session.get(LadderRow, chat_id) is None:
                return PlayResult(Outcome.REFUSED, "no_ladder", "This group has no ladder.")
            k.ensure_player(session, player_id)
            entry = session.get(LadderPlayerRow, (chat_id, player_id))
            if entry is not None and entry.active:
                return PlayResult(Outcome.REFUSED, "already_on_ladder",
                                  "You are on this group's ladder already.")
            if entry is None:
                session.add(LadderPlayerRow(chat_id=chat_id, player_id=player_id, rung=1,
                                            active=True, wins=0, losses=0,
                                            joined_at=k.clock()))
            else:
                entry.active = True
        return PlayResult(Outcome.OK)

    @off_loop
    def leave_ladder(self, chat_id: int, player_id: int) -> PlayResult:
        """Refusal: ``not_on_ladder``. A ladder match already made is still played."""
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            entry = session.get(LadderPlayerRow, (chat_id, player_id))
            if entry is None or not entry.active:
                return PlayResult(Outcome.REFUSED, "not_on_ladder",
                                  "You are not on this group's ladder.")
            entry.active = False
        return PlayResult(Outcome.OK)

    @off_loop
    def ladder(self, chat_id: int) -> list[LadderEntry]:
        """The group's ladder (ended matches settled first), top rung first."""
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            settle(session, self.kernel, chat_id)
            rows = session.execute(
                select(LadderPlayerRow, Player.display_name)
                .join(Player, Player.id == LadderPlayerRow.player_id)
                .where(LadderPlayerRow.chat_id == chat_id, LadderPlayerRow.active.is_(True))
                .order_by(LadderPlayerRow.rung.desc(), LadderPlayerRow.wins.desc(),
                          LadderPlayerRow.joined_at, LadderPlayerRow.player_id))
            return [LadderEntry(e.player_id, name, e.rung, e.wins, e.losses)
                    for e, name in rows]

    @off_loop
    def ladder_pairs(self, chat_id: int, day: str) -> list[tuple[int, int, int, str]]:
        """The day's ladder matches: ``(challenge id, player 0, player 1, match status)``."""
        with self.kernel.sessions() as session:
            rows = session.execute(
                select(LadderMatchRow.challenge_id, LadderMatchRow.player0_id,
                       LadderMatchRow.player1_id, MatchRow.status)
                .join(MatchRow, MatchRow.id == LadderMatchRow.match_id)
                .where(LadderMatchRow.chat_id == chat_id, LadderMatchRow.day == day)
                .order_by(LadderMatchRow.id))
            return [(int(c), int(a), int(b), str(s)) for c, a, b, s in rows]

    @off_loop
    def _claim_day(self, chat_id: int, seed: int | None,
                   ) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]]] | None:
        k = self.kernel
        now = k.clock()
        day = day_of(now)
        try:
            with k.db.write_lock(), k.sessions.begin() as session:
                if session.get(LadderDayRow, (chat_id, day)) is not None:
                    return None
                session.add(LadderDayRow(chat_id=chat_id, day=day, run_at=now))
                session.flush()  # the claim: a second instance fails here
                settled = settle(session, k, chat_id)
                busy = set(session.scalars(
                    select(LadderMatchRow.player0_id)
                    .join(MatchRow, MatchRow.id == LadderMatchRow.match_id)
                    .where(LadderMatchRow.chat_id == chat_id, MatchRow.status.in_(OPEN)))) | set(
                    session.scalars(
                        select(LadderMatchRow.player1_id)
                        .join(MatchRow, MatchRow.id == LadderMatchRow.match_id)
                        .where(LadderMatchRow.chat_id == chat_id, MatchRow.status.in_(OPEN))))
                players = [(e.player_id, e.rung) for e in session.scalars(
                    select(LadderPlayerRow).where(LadderPlayerRow.chat_id == chat_id,
                                                  LadderPlayerRow.active.is_(True)))
                    if e.player_id not in busy]
        except IntegrityError:
            return None  # another instance claimed the day
        rng = random.Random(seed if seed is not None else f"{chat_id}:{day}")
        return day, pair_rungs(players, rng), settled

    async def run_ladder_day(self, chat_id: int, *, seed: int | None = None) -> LadderDay | None:
        """Pair the group's ladder for today, once (``None``: done already today). Each pair
        gets a group challenge addressed to its second player; the ladder card is written to
        the group's outbox."""
        claimed = await self._claim_day(chat_id, seed)
        if claimed is None:
            return None
        day, pairs, settled = claimed
        made = []
        settings = await self.ladder_settings(chat_id)
        game, length = (settings.game_type, settings.length) if settings else (DEFAULT_KIND, 3)
        for a, b in pairs:
            res = await self.create_challenge(a, length=length, chat_id=chat_id, group=True,
                                              target_id=b, game_type=game,
                                              winner_starts=KINDS[game].cafe_default)
            if res.ok and res.challenge is not None:
                made.append(res.challenge)
            else:
                log.warning("ladder %s %s: no challenge for %s-%s (%s)", chat_id, day, a, b,
                            res.code)
        keys = await self._record_day(chat_id, day, [(c.id, c.match_id, c.author.id,
                                                      c.target.id if c.target else 0)
                                                     for c in made])
        return LadderDay(chat_id, day, tuple(made), tuple(settled), tuple(keys))

    @off_loop
    def _record_day(self, chat_id: int, day: str,
                    made: list[tuple[int, int, int, int]]) -> list[str]:
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            for cid, mid, a, b in made:
                session.add(LadderMatchRow(chat_id=chat_id, day=day, match_id=mid,
                                           challenge_id=cid, player0_id=a, player1_id=b,
                                           settled=False))
            session.flush()
            if not made:
                return []
            return tagged_notices(session, k, made[0][1],
                                  [(chat_id, LADDER, day, None, {"day": day})])

    @off_loop
    def ladder_groups(self) -> list[int]:
        """The groups with someone on their ladder."""
        with self.kernel.sessions() as session:
            return sorted(int(c) for c in session.scalars(
                select(LadderPlayerRow.chat_id).where(LadderPlayerRow.active.is_(True))
                .distinct()))

    @off_loop
    def settle_ladders(self) -> list[str]:
        """Every ladder match that ended since: settled, its group's card redrawn (the
        chats to kick). One read when there is none."""
        k = self.kernel
        with k.sessions() as session:
            chats = sorted({int(c) for c in session.scalars(
                select(LadderMatchRow.chat_id)
                .join(MatchRow, MatchRow.id == LadderMatchRow.match_id)
                .where(LadderMatchRow.settled.is_(False), MatchRow.status.not_in(OPEN)))})
        keys: list[str] = []
        for chat_id in chats:
            with k.db.write_lock(), k.sessions.begin() as session:
                settle(session, k, chat_id, keys)
        return sorted(set(keys))

    async def run_ladders(self) -> list[LadderDay]:
        """The job (every timer poll): the ladder matches ended since settled (their cards
        redrawn: a first entry of day ``""`` carries only those chats to kick), then every
        ladder not yet paired today."""
        found = []
        settled = await self.settle_ladders()
        if settled:
            found.append(LadderDay(0, "", chat_keys=tuple(settled)))
        for chat_id in await self.ladder_groups():
            try:
                day = await self.run_ladder_day(chat_id)
            except Exception:
                log.exception("ladder of %s failed", chat_id)
                continue
            if day is not None:
                found.append(day)
        return found
