"""Challenges: opening one (and its match, committed to a dice seed), its card, accepting it
(the match starts), withdrawing it; :func:`close_challenge` also serves the expiry timer."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rules.common.errors import CorruptState, InvalidAction, PortesError
from rules.common.fairdice import FairDice, commitment
from rules.game import DEFAULT_KIND
from rules.match import Event, Match
from storage.delivery.notices import expiry_notice
from storage.models import (
    ChallengeRow,
    ChatSettingRow,
    CompetitionGameRow,
    MatchRow,
    Player,
    TimerRow,
)
from storage.results import (
    ActionResult,
    ChallengeResult,
    ChallengeStatus,
    ChallengeView,
    MatchStatus,
    Outcome,
    TimerKind,
)
from storage.usecases.caps import open_challenges, over_cap
from storage.usecases.challenge_views import challenge_view, read_challenge_view
from storage.usecases.competition_cards import first_match_notices
from storage.usecases.kernel import Feature, Kernel, off_loop
from storage.usecases.rematches import rematch_refusal
from storage.usecases.rows import (
    Plan,
    refused,
    storable_id,
    stored_state,
)

MAX_MIX_LENGTH = 256
TOKEN_BYTES = 9  # 12 URL-safe characters
CLOSED_MESSAGE = "This challenge is no longer open."


def close_challenge(
    kernel: Kernel, session: Session, ch: ChallengeRow, status: ChallengeStatus
) -> ChallengeView | None:
    """Mark an open challenge and its match cancelled / expired (compare-and-swap); ``None``
    when it was no longer open."""
    now = kernel.clock()
    claimed = session.execute(
        update(ChallengeRow)
        .where(ChallengeRow.id == ch.id, ChallengeRow.status == ChallengeStatus.OPEN)
        .values(status=status.value)
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        return None
    match_status = (
        MatchStatus.CANCELLED if status == ChallengeStatus.CANCELLED else MatchStatus.EXPIRED
    )
    session.execute(
        update(MatchRow)
        .where(MatchRow.id == ch.match_id, MatchRow.status == MatchStatus.CHALLENGE)
        .values(
            status=match_status.value,
            version=MatchRow.version + 1,
            end_reason=match_status.value,
            finished_at=now,
            updated_at=now,
        )
        .execution_options(synchronize_session=False)
    )
    session.execute(
        delete(TimerRow).where(TimerRow.match_id == ch.match_id, TimerRow.fired_at.is_(None))
    )
    row = session.get(MatchRow, ch.match_id, populate_existing=True)
    assert row is not None
    # read again after the compare-and-swap: the card may have been stored meanwhile by a
    # transaction committed before it (PostgreSQL), and an expiry edits the card it finds
    session.refresh(ch)
    return read_challenge_view(kernel, session, ch)


class AlreadyPaired(Exception):
    """A competition's pairing already has its match (a retried opening)."""


def link_pairing(session: Session, pairing_id: int, match_id: int) -> bool:
    """Link a competition's pairing to its new match, unless it has one."""
    linked = session.execute(
        update(CompetitionGameRow)
        .where(CompetitionGameRow.id == pairing_id, CompetitionGameRow.match_id.is_(None),
               CompetitionGameRow.decided_at.is_(None))
        .values(match_id=match_id)
        .execution_options(synchronize_session=False))
    return bool(linked.rowcount == 1)  # type: ignore[attr-defined]


def _match_row(author_id: int, state: Match, seed: bytes, now: datetime, **place: Any) -> MatchRow:
    """A new match in status ``challenge``, committed to ``seed``."""
    if (place.get("move_seconds") or 1) <= 0:
        raise ValueError("move_seconds must be positive")
    return MatchRow(
        status=MatchStatus.CHALLENGE.value,
        version=1,
        player0_id=author_id,
        player1_id=None,
        length=state.length,
        no_triple=state.no_triple,
        score0=0,
        score1=0,
        **stored_state(state),
        game_type=state.game_type,
        seed=seed,
        commitment=commitment(seed),
        dice_drawn=0,
        created_at=now,
        updated_at=now,
        **place,
    )


def _starting_values(ch: ChallengeRow, row: MatchRow, *, acceptor_id: int, mix: str,
                     now: datetime, chat_id: int | None, group: bool,
                     inline_message_id: str | None) -> dict[str, Any]:
    """The match columns accepting sets besides the state: the mix, the start time, the
    second player, and the place when the challenge had none (inline)."""
    extra: dict[str, Any] = {"mix": mix, "started_at": now}
    if row.computer_level is None:
        extra["player1_id"] = acceptor_id
    if row.chat_id is None and chat_id is not None:
        extra["chat_id"] = chat_id
        extra["in_group"] = group
    if inline_message_id is not None or ch.card_inline_message_id is not None:
        extra["inline_message_id"] = inline_message_id or ch.card_inline_message_id
    return extra


def _new_match(
    length: int, no_triple: bool, author_id: int, target_id: int | None, game: tuple[str, bool]
) -> Match | ChallengeResult:
    """The new match's state, or why it cannot be made."""
    if target_id is not None and target_id == author_id:
        return ChallengeResult(
            Outcome.REFUSED, code="own_challenge", message="You cannot challenge yourself."
        )
    try:
        return Match.new(length, no_triple=no_triple, game_type=game[0], winner_starts=game[1])
    except PortesError as exc:
        return ChallengeResult(Outcome.REFUSED, code=exc.code, message=exc.message)


def _fields(target_id: int | None, target_username: str | None, inline: bool,
            rematch_of: int | None) -> dict[str, Any]:
    """The challenge's own columns at its creation (the username without ``@``)."""
    return {"target_id": target_id, "inline": inline, "rematch_of": rematch_of,
            "target_username": (target_username or "").lstrip("@")[:64] or None}


def _challenge_row(
    match_id: int, author_id: int, now: datetime, expires_at: datetime, **fields: Any
) -> ChallengeRow:
    """A new open challenge with a fresh deep-link token."""
    return ChallengeRow(
        match_id=match_id,
        token=secrets.token_urlsafe(TOKEN_BYTES),
        status=ChallengeStatus.OPEN.value,
        author_id=author_id,
        expires_at=expires_at,
        created_at=now,
        **fields,
    )


class ChallengeCases(Feature):
    """Opening, showing, accepting and withdrawing challenges."""

    @off_loop
    def create_challenge(
        self,
        author_id: int,
        *,
        length: int,
        no_triple: bool = False,
        chat_id: int | None = None,
        group: bool = False,
        thread_id: int | None = None,
        target_id: int | None = None,
        target_username: str | None = None,
        inline: bool = False,
        computer_level: int | None = None,
        rematch_of: int | None = None,
        move_seconds: int | None = None,
        game_type: str = DEFAULT_KIND, winner_starts: bool = False,
        competition_game: int | None = None,
    ) -> ChallengeResult:
        """Open a challenge (and its match, status ``challenge``) and commit to a dice seed.

        ``chat_id``: where it is opened; ``group``: that chat is a group (the match is played
        on its shared board, rated in its scope too; storage does not guess a chat's kind).

        The seed comes from the kernel's seed source; print ``challenge.commitment`` on the card.
        ``target_id`` / ``target_username`` restrict who may accept. ``inline``: the card is an
        inline message (record it with :meth:`set_challenge_card`). ``computer_level`` makes a match
        against the computer, which only the author may start with :meth:`accept_challenge` (so the
        mixed-in value still arrives after the commitment). ``rematch_of``: the finished match this
        is the rematch of (at most one each, however taps race). ``move_seconds``: the time per move
        (``None``: the operator's default, ``TimerPolicy.turn_timeout``). ``game_type``,
        ``winner_starts``: as for ``Match.new``. ``competition_game``: the competition's
        pairing this match plays, linked in the same transaction (``already_paired`` when it
        has its match: a retried opening creates none twice; no cap on open challenges
        applies). An expiry timer is set
        (``TimerPolicy.challenge_ttl``). Refusals: ``invalid_action`` (length not 1, 3, 5, 7),
        ``own_challenge``, ``too_many_challenges_here`` / ``too_many_challenges`` (the author
        already has ``ChallengeLimits.per_chat`` open challenges in this group / ``overall``
        anywhere); for a rematch ``not_a_player``, ``not_finished``, ``rematch_exists`` (with the
        existing one).
        """
        state = _new_match(length, no_triple, author_id, target_id, (game_type, winner_starts))
        if isinstance(state, ChallengeResult):
            return state
        k, now, seed = self.kernel, self.kernel.clock(), self.kernel.seeds()
        fields = _fields(target_id, target_username, inline, rematch_of)
        place: dict[str, Any] = {"chat_id": chat_id, "thread_id": thread_id}
        try:
            with k.db.write_lock(), k.sessions.begin() as session:
                refusal = self._open(session, author_id, fields) or (
                    None if competition_game is not None
                    else over_cap(session, k.limits, author_id, chat_id, now))
                if refusal is not None:
                    return refusal
                k.checkpoint("read")
                row = _match_row(author_id, state, seed, now, computer_level=computer_level,
                                 move_seconds=move_seconds,
                                 in_group=group and chat_id is not None, **place)
                session.add(row)
                session.flush()
                if competition_game is not None and not link_pairing(
                        session, competition_game, row.id):
                    raise AlreadyPaired  # rolls the match back
                if competition_game is not None:
                    first_match_notices(session, k, competition_game, row.id)
                ch = _challenge_row(row.id, author_id, now, now + k.timers.challenge_ttl,
                                    **fields, **place)
                session.add(ch)
                self._add_expiry(session, ch, now)
                session.flush()
                view = challenge_view(ch, row, k.players(session, ch.author_id, ch.target_id))
        except IntegrityError as exc:
            return self._lost_race(author_id, fields, exc)
        except AlreadyPaired:
            return ChallengeResult(Outcome.REFUSED, code="already_paired",
                                   message="This pairing has its match.")
        return ChallengeResult(Outcome.OK, challenge=view)

    def _lost_race(
        self, author_id: int, fields: dict[str, Any], exc: IntegrityError
    ) -> ChallengeResult:
        """PostgreSQL: another tap's rematch won the race to the unique ``rematch_of``."""
        with self.kernel.sessions() as session:
            refusal = self._open(session, author_id, fields)
        if refusal is None:
            raise exc
        return refusal

    def _open(
        self, session: Session, author_id: int, fields: dict[str, Any]
    ) -> ChallengeResult | None:
        """The players made known, and why this challenge cannot be opened (a rematch refused),
        or ``None``."""
        self.kernel.ensure_player(session, author_id)
        if fields["target_id"] is not None:
            self.kernel.ensure_player(session, fields["target_id"])
        refused = None if fields["rematch_of"] is None else rematch_refusal(
            session, fields["rematch_of"], author_id)
        if refused is None:
            return None
        view = None if refused.existing is None else read_challenge_view(
            self.kernel, session, refused.existing)
        return ChallengeResult(Outcome.REFUSED, view, refused.code, refused.message)

    @staticmethod
    def _add_expiry(session: Session, ch: ChallengeRow, now: datetime) -> None:
        session.add(
            TimerRow(
                kind=TimerKind.CHALLENGE_EXPIRY.value,
                due_at=ch.expires_at,
                match_id=ch.match_id,
                created_at=now,
            )
        )

    @off_loop
    def set_challenge_card(
        self,
        challenge_id: int,
        *,
        chat_id: int | None = None,
        message_id: int | None = None,
        inline_message_id: str | None = None,
    ) -> ChallengeResult:
        """Remember the message showing the challenge card, to edit it when it is accepted,
        cancelled or expires."""
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            # locked: an expiry committing meanwhile is seen (it then found no card to edit)
            ch = session.get(ChallengeRow, challenge_id, with_for_update=True)
            if ch is None:
                return ChallengeResult(Outcome.NOT_FOUND, code="not_found")
            unknown = ch.card_message_id is None and ch.card_inline_message_id is None
            if chat_id is not None:
                ch.card_chat_id = chat_id
            if message_id is not None:
                ch.card_message_id = message_id
            if inline_message_id is not None:
                ch.card_inline_message_id = inline_message_id
            session.flush()
            view = read_challenge_view(self.kernel, session, ch)
            # expired while its card was on its way (the expiry found no card to edit): the
            # card says so now, from the row written here
            keys = expiry_notice(self.kernel, session, view) if (
                unknown and ch.status == ChallengeStatus.EXPIRED) else ()
        return ChallengeResult(Outcome.OK, challenge=view, chat_keys=keys)

    @off_loop
    def challenge_cap_reached(self, author_id: int) -> int | None:
        """The cap on a player's open challenges anywhere (``ChallengeLimits.overall``) when
        ``author_id`` has reached it, so that a new one would be refused (an inline card is
        then not offered); ``None`` when they may open one more (or there is no cap)."""
        cap = self.kernel.limits.overall
        if not cap:
            return None
        with self.kernel.sessions() as session:
            reached = open_challenges(session, author_id, self.kernel.clock()) >= cap
        return cap if reached else None

    @off_loop
    def get_challenge(
        self, challenge_id: int | None = None, *, token: str | None = None,
        inline_message_id: str | None = None,
    ) -> ChallengeView | None:
        """A challenge by id, by its deep-link token, or by the inline message showing its
        card."""
        if challenge_id is not None and not storable_id(challenge_id):
            return None
        with self.kernel.sessions() as session:
            if challenge_id is not None:
                ch = session.get(ChallengeRow, challenge_id)
            elif token is not None:
                ch = session.scalar(select(ChallengeRow).where(ChallengeRow.token == token))
            elif inline_message_id is not None:
                ch = session.scalar(select(ChallengeRow).where(
                    ChallengeRow.card_inline_message_id == inline_message_id)
                    .order_by(ChallengeRow.id).limit(1))
            else:
                raise ValueError("give a challenge id, a token or an inline message id")
            if ch is None:
                return None
            return read_challenge_view(self.kernel, session, ch)

    @off_loop
    def accept_challenge(
        self,
        challenge_id: int,
        acceptor_id: int,
        *,
        mix: str,
        chat_id: int | None = None,
        group: bool = False,
        inline_message_id: str | None = None,
    ) -> ActionResult:
        """Accept an open challenge: the match becomes active and the opening roll is played.

        ``mix`` is a value the server cannot choose that arrives after the commitment (the
        accepting tap's callback query id); it is mixed into every die. ``chat_id`` (a
        group's when ``group``) / ``inline_message_id`` complete the match's place when the
        challenge had none (inline).
        Exactly one of several racing acceptors wins; the others get ``challenge_closed``.
        Refusals: ``own_challenge`` (the author accepting a human challenge), ``not_for_you``
        (targeted at someone else; a computer challenge by anyone but the author),
        ``challenge_closed`` (accepted, cancelled or expired). On success ``result.match`` is
        the active match, ``result.events`` the opening roll (and any forced plays).
        """
        if not mix or len(mix) > MAX_MIX_LENGTH:
            raise ValueError(f"mix must be 1-{MAX_MIX_LENGTH} characters")
        k = self.kernel
        with k.sessions() as session:
            now = k.clock()
            found = self._acceptable(session, challenge_id, acceptor_id, now)
            if isinstance(found, ActionResult):
                return found
            ch, row, state = found
            dice = FairDice(row.seed, mix)
            try:
                new_state, events = state.start(dice)
            except InvalidAction:  # another acceptor won between the two reads (PostgreSQL)
                return refused("challenge_closed", CLOSED_MESSAGE)
            new_state, more = new_state.play_forced(dice)
            events = [*events, *more]
            k.checkpoint("read")
            extra = _starting_values(ch, row, acceptor_id=acceptor_id, mix=mix, now=now,
                                     chat_id=chat_id, group=group,
                                     inline_message_id=inline_message_id)
            plan = k.plan(
                row,
                state,
                new_state,
                events,
                now,
                players=k.players(session, extra.get("player0_id", row.player0_id),
                                  extra.get("player1_id", row.player1_id)),
                extra=extra,
                expect_status=MatchStatus.CHALLENGE.value,
            )
            if not self._claim(session, ch, row, acceptor_id, plan):
                return refused("challenge_closed", CLOSED_MESSAGE)
        k.checkpoint("committed")
        return self._accepted(ch, row, new_state, events)

    def _acceptable(
        self, session: Session, challenge_id: int, acceptor_id: int, now: datetime
    ) -> tuple[ChallengeRow, MatchRow, Match] | ActionResult:
        """The open challenge, its match and state, or why ``acceptor_id`` cannot accept it."""
        ch = session.get(ChallengeRow, challenge_id)
        if ch is None:
            return ActionResult(Outcome.NOT_FOUND, code="not_found", message="No such challenge.")
        if ch.status != ChallengeStatus.OPEN or ch.expires_at <= now:
            return refused("challenge_closed", CLOSED_MESSAGE)
        row = session.get(MatchRow, ch.match_id)
        assert row is not None
        refusal = self._refuse_acceptor(session, ch, row, acceptor_id)
        if refusal is not None:
            return refusal
        try:
            return ch, row, Match.from_json(row.state)
        except CorruptState as exc:
            return ActionResult(Outcome.CORRUPT, code=exc.code, message=exc.message)

    @staticmethod
    def _refuse_acceptor(
        session: Session, ch: ChallengeRow, row: MatchRow, acceptor_id: int
    ) -> ActionResult | None:
        """Why ``acceptor_id`` may not accept this challenge, or ``None`` when they may."""
        if row.computer_level is not None:
            if acceptor_id != ch.author_id:
                return refused("not_for_you", "This match against the computer is not yours.")
            return None
        if acceptor_id == ch.author_id:
            return refused("own_challenge", "You cannot accept your own challenge.")
        if ch.target_id is not None and ch.target_id != acceptor_id:
            return refused("not_for_you", "This challenge is for another player.")
        if ch.target_username is not None:
            acceptor = session.get(Player, acceptor_id)
            name = (acceptor.username or "") if acceptor else ""
            if name.lower() != ch.target_username.lower():
                return refused("not_for_you", "This challenge is for another player.")
        return None

    def _claim(self, session: Session, ch: ChallengeRow, row: MatchRow, acceptor_id: int,
               plan: Plan) -> bool:
        """Close the challenge as accepted and start its match (``plan``), both
        compare-and-swap, and commit; ``False`` (rolled back) when another acceptor or a
        withdrawal won."""
        k = self.kernel
        with k.db.write_lock():
            if row.computer_level is None:
                k.ensure_player(session, acceptor_id)
            claimed = session.execute(
                update(ChallengeRow)
                .where(ChallengeRow.id == ch.id, ChallengeRow.status == ChallengeStatus.OPEN)
                .values(status=ChallengeStatus.ACCEPTED.value)
                .execution_options(synchronize_session=False)
            )
            ok = claimed.rowcount == 1 and k.apply(session, plan)  # type: ignore[attr-defined]
            if ok:
                session.commit()
            else:
                session.rollback()
        if ok:
            ch.status = ChallengeStatus.ACCEPTED.value
        return ok

    def _accepted(
        self, ch: ChallengeRow, row: MatchRow, state: Match, events: list[Event]
    ) -> ActionResult:
        """The result of an accepted challenge: the match and the challenge, read afresh."""
        k = self.kernel
        with k.sessions() as fresh:
            players = k.players(fresh, row.player0_id, row.player1_id, ch.target_id)
            cview = challenge_view(ch, row, players)
            chat_language = (
                None
                if row.chat_id is None
                else fresh.scalar(
                    select(ChatSettingRow.language).where(ChatSettingRow.chat_id == row.chat_id)
                )
            )
        view = k.view(row, state, players, chat_language=chat_language)
        return ActionResult(Outcome.OK, match=view, events=tuple(events), challenge=cview)

    @off_loop
    def cancel_challenge(self, challenge_id: int, author_id: int) -> ChallengeResult:
        """The author withdraws an open challenge (its match becomes ``cancelled``).
        Refusals: ``not_author``, ``challenge_closed``."""
        closed = ChallengeResult(
            Outcome.REFUSED, code="challenge_closed", message=CLOSED_MESSAGE
        )
        with self.kernel.sessions() as session:
            ch = session.get(ChallengeRow, challenge_id)
            if ch is None:
                return ChallengeResult(Outcome.NOT_FOUND, code="not_found")
            if ch.author_id != author_id:
                return ChallengeResult(
                    Outcome.REFUSED,
                    code="not_author",
                    message="Only the author can withdraw a challenge.",
                )
            if ch.status != ChallengeStatus.OPEN:
                return closed
            view = close_challenge(self.kernel, session, ch, ChallengeStatus.CANCELLED)
            if view is None:
                session.rollback()
                return closed
            session.commit()
        return ChallengeResult(Outcome.OK, challenge=view)
