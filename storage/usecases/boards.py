"""Board messages: which messages show a match's board (in a group, inline, or a player's
private chat), so the bot can edit, replace or delete them."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select, update

from storage.models import BoardMessageRow
from storage.results import BoardMessageView
from storage.usecases.kernel import Feature, off_loop


class BoardCases(Feature):
    """Listing and forgetting board messages (the delivery worker records them:
    :meth:`storage.delivery.work.DeliveryWorkCases.record_sent`)."""

    @off_loop
    def board_messages(self, match_id: int) -> list[BoardMessageView]:
        """The live (not superseded) boards of a match."""
        with self.kernel.sessions() as session:
            return self.kernel.boards(session, match_id)

    @off_loop
    def is_board_of(self, match_id: int, *, chat_id: int | None = None,
                    message_id: int | None = None,
                    inline_message_id: str | None = None) -> bool:
        """Whether this message is, or was, a board of this match (live or superseded: an
        older board's buttons are refused as stale anyway). A button of match A on any other
        message (say the board of match B) is not a tap on A's board."""
        if inline_message_id is not None:
            same = BoardMessageRow.inline_message_id == inline_message_id
        elif chat_id is not None and message_id is not None:
            same = (BoardMessageRow.chat_id == chat_id) & (BoardMessageRow.message_id == message_id)
        else:
            return False
        with self.kernel.sessions() as session:
            found = session.scalar(select(BoardMessageRow.id).where(
                BoardMessageRow.match_id == match_id, same).limit(1))
        return found is not None

    @off_loop
    def board_owner(self, chat_id: int, message_id: int, among: Sequence[int]) -> int | None:
        """Which of the matches ``among`` (say a player's active ones) shows its live board in
        this message, in one query; ``None``: none of them (the message is not a live board,
        or another match's)."""
        if not among:
            return None
        with self.kernel.sessions() as session:
            return session.scalar(select(BoardMessageRow.match_id).where(
                BoardMessageRow.match_id.in_(list(among)), BoardMessageRow.live.is_(True),
                BoardMessageRow.chat_id == chat_id, BoardMessageRow.message_id == message_id)
                .limit(1))

    @off_loop
    def forget_board_message(self, board_message_id: int) -> None:
        """Drop a board the bot deleted or can no longer edit."""
        with self.kernel.sessions.begin() as session:
            session.execute(
                update(BoardMessageRow)
                .where(BoardMessageRow.id == board_message_id)
                .values(live=False)
            )
