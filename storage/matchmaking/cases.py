"""Find me an opponent: waiting requests, pairing them (on arrival and by a periodic job, as
the rating window widens, :mod:`storage.matchmaking.policy`), cancelling, the block list.

A pairing is claimed in one short transaction (:mod:`storage.matchmaking.pairing`), then its
match is made by the ordinary use case (:meth:`ChallengeCases.create_challenge`, a challenge
addressed to the partner, so it is rated and played like any private match), then the pairing
records its challenge and both players' notices are written to the outbox in one more
transaction. The partner who asked last (``acceptor``) starts the match with the challenge's
Start button: their tap brings the value mixed into the dice after the commitment, as for
every challenge. A pairing whose challenge was never made (the instance died between the two
steps) waits again after ``PlayPolicy.stuck_after``.
"""

from __future__ import annotations

import logging

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from rules.common.errors import InvalidAction
from rules.game import find_kind
from storage.delivery.notices import notice_rows
from storage.matchmaking import pairing as pg
from storage.matchmaking.policy import PlayPolicy
from storage.matchmaking.results import Pairing, PlayResult, WaitingView
from storage.models import Player, RatingRow
from storage.play_tables import MatchRequestRow, PlayerBlockRow
from storage.ratings import START_RATING
from storage.results import Outcome
from storage.usecases.challenges import ChallengeCases
from storage.usecases.kernel import off_loop

log = logging.getLogger("storage.matchmaking")
PAIRED_NOTICE = "paired"
MAX_MOVE_SECONDS = 30 * 24 * 3600


def refusal(code: str, message: str) -> PlayResult:
    return PlayResult(Outcome.REFUSED, code=code, message=message)


def default_length(game_type: str) -> int:
    """The length of a match when both asked for any: 3 where the game offers it, else its
    shortest."""
    lengths = find_kind(game_type).lengths
    return 3 if 3 in lengths else min(lengths)


def global_rating(session: Session, player_id: int, game_type: str) -> float:
    return session.scalar(select(RatingRow.rating).where(
        RatingRow.player_id == player_id, RatingRow.game == game_type,
        RatingRow.scope == 0)) or START_RATING


class MatchmakingCases(ChallengeCases):
    """Waiting for an opponent, pairing, cancelling, blocking."""

    play_policy: PlayPolicy = PlayPolicy()

    def _validate(self, game_type: str, length: int | None, move_seconds: int,
                  ) -> PlayResult | None:
        try:
            kind = find_kind(game_type)
        except InvalidAction:
            return refusal("invalid_action", "Unknown game.")
        if length is not None and length not in kind.lengths:
            return refusal("invalid_action", "That length is not offered in this game.")
        if not 0 < move_seconds <= MAX_MOVE_SECONDS:
            return refusal("invalid_action", "That time per move is out of range.")
        return None

    @off_loop
    def _enqueue(self, player_id: int, game_type: str, length: int | None, move_seconds: int,
                 winner_starts: bool, *, pair: bool = False,
                 ) -> tuple[PlayResult, tuple[MatchRequestRow, MatchRequestRow] | None]:
        """The request written (and with ``pair``, a partner claimed in the same
        transaction)."""
        bad = self._validate(game_type, length, move_seconds)
        if bad is not None:
            return bad, None
        k, policy = self.kernel, self.play_policy
        now = k.clock()
        with k.db.write_lock(), k.sessions.begin() as session:
            k.ensure_player(session, player_id)
            session.execute(select(Player.id).where(Player.id == player_id)
                            .with_for_update(key_share=True))  # one /play at a time each
            mine = list(session.scalars(select(MatchRequestRow).where(
                MatchRequestRow.player_id == player_id, MatchRequestRow.status == pg.WAITING)))
            if any(r.game_type == game_type and r.length == length
                   and r.move_seconds == move_seconds for r in mine):
                return refusal("already_waiting", "You are already waiting for this game."), None
            if len(mine) >= policy.cap:
                return refusal("too_many_requests",
                               f"You already wait for {policy.cap} games."), None
            row = MatchRequestRow(player_id=player_id, status=pg.WAITING, game_type=game_type,
                                  length=length, move_seconds=move_seconds,
                                  winner_starts=winner_starts, created_at=now,
                                  rating=global_rating(session, player_id, game_type))
            session.add(row)
            session.flush()
            if pair:
                claimed = self._claim_in(session, row, k.db.engine.dialect.name == "postgresql")
                if claimed is not None:
                    return PlayResult(Outcome.OK), claimed
            return PlayResult(Outcome.OK, waiting=self._view(session, row)), None

    async def request_opponent(self, player_id: int, *, game_type: str, length: int | None,
                               move_seconds: int, winner_starts: bool = False) -> PlayResult:
        """Wait for an opponent in ``game_type`` (``length`` ``None``: any), with that time
        per move; paired at once when someone suitable waits (``result.pairing``), else
        ``result.waiting`` says how many others wait. Refusals: ``invalid_action`` (unknown
        game, a length the game does not offer, a time out of range), ``already_waiting``
        (the same request again), ``too_many_requests`` (``PlayPolicy.cap`` waiting)."""
        result, claimed = await self._enqueue(player_id, game_type, length, move_seconds,
                                              winner_starts, pair=True)
        if claimed is not None:
            pairing = await self._start(*claimed)
            if pairing is not None:
                return PlayResult(Outcome.OK, pairing=pairing)
            fresh = await self.waiting_for(player_id)
            return PlayResult(Outcome.OK, waiting=fresh[-1]) if fresh else result
        return result

    def _view(self, session: Session, row: MatchRequestRow) -> WaitingView:
        others = session.scalar(select(func.count()).select_from(MatchRequestRow).where(
            MatchRequestRow.status == pg.WAITING, MatchRequestRow.game_type == row.game_type,
            MatchRequestRow.move_seconds == row.move_seconds,
            MatchRequestRow.player_id != row.player_id)) or 0
        return WaitingView(row.id, row.game_type, row.length, row.move_seconds, row.rating,
                           row.created_at, others)

    @off_loop
    def waiting_for(self, player_id: int) -> list[WaitingView]:
        """A player's waiting requests, oldest first, each with how many others wait."""
        with self.kernel.sessions() as session:
            rows = session.scalars(select(MatchRequestRow).where(
                MatchRequestRow.player_id == player_id, MatchRequestRow.status == pg.WAITING)
                .order_by(MatchRequestRow.created_at, MatchRequestRow.id))
            return [self._view(session, r) for r in rows]

    @off_loop
    def cancel_requests(self, player_id: int, request_id: int | None = None) -> int:
        """Stop waiting (one request, or all of the player's); how many were cancelled (0:
        none was waiting, e.g. a second tap or one paired meanwhile)."""
        stmt = (update(MatchRequestRow)
                .where(MatchRequestRow.player_id == player_id,
                       MatchRequestRow.status == pg.WAITING)
                .values(status=pg.CANCELLED).execution_options(synchronize_session=False))
        if request_id is not None:
            stmt = stmt.where(MatchRequestRow.id == request_id)
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            return int(session.execute(stmt).rowcount)  # type: ignore[attr-defined]

    @off_loop
    def _claim_pair(self, request_id: int) -> tuple[MatchRequestRow, MatchRequestRow] | None:
        k = self.kernel
        skip = k.db.engine.dialect.name == "postgresql"
        with k.db.write_lock(), k.sessions.begin() as session:
            own = select(MatchRequestRow).where(MatchRequestRow.id == request_id,
                                                MatchRequestRow.status == pg.WAITING)
            req = session.scalar(own.with_for_update(skip_locked=True) if skip else own)
            if req is None:
                return None
            return self._claim_in(session, req, skip)

    def _claim_in(self, session: Session, req: MatchRequestRow, skip: bool,
                  ) -> tuple[MatchRequestRow, MatchRequestRow] | None:
        """Find ``req`` a partner and claim the pair in this transaction (committed by the
        caller): (older, newer); ``None``: nobody fits, or the partner was just taken."""
        now = self.kernel.clock()
        partner = pg.find_partner(session, req, now, self.play_policy, skip_locked=skip)
        if partner is None or not pg.lock_players(
                session, (req.player_id, partner.player_id), skip):
            return None
        if not pg.claim(session, req, partner, now):
            return None  # the partner was taken meanwhile: nothing written
        older, newer = sorted((req, partner), key=lambda r: (r.created_at, r.id))
        session.flush()
        session.expunge_all()
        return older, newer

    async def pair_request(self, request_id: int) -> Pairing | None:
        """Pair one waiting request if a partner fits now, and make their challenge."""
        claimed = await self._claim_pair(request_id)
        return None if claimed is None else await self._start(*claimed)

    async def _start(self, older: MatchRequestRow, newer: MatchRequestRow) -> Pairing | None:
        """The claimed pair's challenge made (the ordinary use case), recorded and told."""
        length = older.length or newer.length or default_length(older.game_type)
        made = await self.create_challenge(
            older.player_id, length=length, target_id=newer.player_id,
            move_seconds=older.move_seconds, game_type=older.game_type,
            winner_starts=older.winner_starts)
        if not made.ok or made.challenge is None:
            log.warning("pairing %s/%s: no challenge (%s)", older.id, newer.id, made.code)
            await self._unpair(older.id, newer.id)
            return None
        if not await self._record_pairing(older, newer, made.challenge.id, made.challenge.match_id):
            await self.cancel_challenge(made.challenge.id, older.player_id)
            return None
        return Pairing(older.player_id, newer.player_id, older.rating, newer.rating,
                       made.challenge)

    @off_loop
    def _unpair(self, *ids: int) -> None:
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            session.execute(update(MatchRequestRow).where(
                MatchRequestRow.id.in_(ids), MatchRequestRow.status == pg.PAIRED)
                .values(status=pg.WAITING, paired_at=None, partner_id=None)
                .execution_options(synchronize_session=False))

    @off_loop
    def _record_pairing(self, older: MatchRequestRow, newer: MatchRequestRow, challenge_id: int,
                match_id: int) -> bool:
        """The pairing's challenge recorded, and both players told (outbox notices), once."""
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            done = session.execute(update(MatchRequestRow).where(
                MatchRequestRow.id.in_((older.id, newer.id)),
                MatchRequestRow.status == pg.PAIRED, MatchRequestRow.challenge_id.is_(None))
                .values(status=pg.STARTED, challenge_id=challenge_id)
                .execution_options(synchronize_session=False))
            if done.rowcount != 2:  # type: ignore[attr-defined]
                session.rollback()
                return False
            args = {"challenge": challenge_id, "ratings": [older.rating, newer.rating]}
            notice_rows(session, k, match_id, [
                (older.player_id, PAIRED_NOTICE, 0, {**args, "role": "wait"}),
                (newer.player_id, PAIRED_NOTICE, 1, {**args, "role": "start"}),
            ])
        return True

    @off_loop
    def _due_requests(self, limit: int) -> list[int]:
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            session.execute(pg.stuck(k.clock(), self.play_policy))
            return list(session.scalars(select(MatchRequestRow.id).where(
                MatchRequestRow.status == pg.WAITING)
                .order_by(MatchRequestRow.created_at, MatchRequestRow.id).limit(limit)))

    async def pair_waiting(self, *, limit: int = 200) -> list[Pairing]:
        """The periodic job: the oldest waiting requests (their windows widest) paired where a
        partner fits now; stuck pairings put back to wait first."""
        made = []
        for request_id in await self._due_requests(limit):
            try:
                found = await self.pair_request(request_id)
            except Exception:  # one bad request must not stop the others
                log.exception("pairing request %s failed", request_id)
                continue
            if found is not None:
                made.append(found)
        return made

    @off_loop
    def block_player(self, player_id: int, blocked_id: int) -> bool:
        """Never pair ``player_id`` with ``blocked_id`` again; ``False``: oneself, or
        already blocked."""
        if player_id == blocked_id:
            return False
        k = self.kernel
        with k.db.write_lock(), k.sessions.begin() as session:
            k.ensure_player(session, player_id)
            if session.get(PlayerBlockRow, (player_id, blocked_id)) is not None:
                return False
            session.add(PlayerBlockRow(player_id=player_id, blocked_id=blocked_id,
                                       created_at=k.clock()))
        return True

    @off_loop
    def unblock_player(self, player_id: int, blocked_id: int) -> bool:
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            gone = session.execute(delete(PlayerBlockRow).where(
                PlayerBlockRow.player_id == player_id, PlayerBlockRow.blocked_id == blocked_id))
            return bool(gone.rowcount)  # type: ignore[attr-defined]

    @off_loop
    def blocked_players(self, player_id: int) -> list[tuple[int, str]]:
        """Whom the player blocked: ids and names, newest first."""
        with self.kernel.sessions() as session:
            rows = session.execute(
                select(PlayerBlockRow.blocked_id, Player.display_name)
                .outerjoin(Player, Player.id == PlayerBlockRow.blocked_id)
                .where(PlayerBlockRow.player_id == player_id)
                .order_by(PlayerBlockRow.created_at.desc()))
            return [(int(b), name or "?") for b, name in rows]

