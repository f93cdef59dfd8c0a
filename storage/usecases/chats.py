"""Chats: following a group's migration to a supergroup, a group's language (``/lang``), and
the matches played in a chat."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select, update

from storage.delivery.work import move_chat_deliveries
from storage.models import ChallengeRow, ChatSettingRow, MatchRow
from storage.results import ActionResult, MatchStatus, MatchView
from storage.usecases.kernel import Feature, off_loop


class ChatCases(Feature):
    """What belongs to a chat rather than to a match."""

    @off_loop
    def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """Follow a group's migration to a supergroup (matches, challenges, boards and the
        chat's settings); returns how many rows changed."""
        changed = 0
        with self.kernel.sessions.begin() as session:
            for model, column in (
                (MatchRow, MatchRow.chat_id),
                (ChallengeRow, ChallengeRow.chat_id),
                (ChallengeRow, ChallengeRow.card_chat_id),
            ):
                result = session.execute(
                    update(model)
                    .where(column == old_chat_id)
                    .values({column.key: new_chat_id})
                    .execution_options(synchronize_session=False)
                )
                changed += result.rowcount  # type: ignore[attr-defined]
            move_chat_deliveries(self.kernel, session, old_chat_id, new_chat_id)
            # The settings move too, unless the new chat already has its own (set there after
            # the upgrade): then the old ones are dropped.
            if session.get(ChatSettingRow, new_chat_id) is None:
                result = session.execute(
                    update(ChatSettingRow)
                    .where(ChatSettingRow.chat_id == old_chat_id)
                    .values(chat_id=new_chat_id)
                    .execution_options(synchronize_session=False)
                )
            else:
                result = session.execute(
                    delete(ChatSettingRow)
                    .where(ChatSettingRow.chat_id == old_chat_id)
                    .execution_options(synchronize_session=False)
                )
            changed += int(result.rowcount)  # type: ignore[attr-defined]
        return changed

    @off_loop
    def set_chat_language(self, chat_id: int, language: str | None) -> None:
        """Set the language of a group's match cards (``/lang`` in the group); ``None`` clears
        it (the match creator's language is used again)."""
        k = self.kernel
        now = k.clock()
        values: dict[str, Any] = {
            "chat_id": chat_id,
            "language": language[:16] if language else None,
            "updated_at": now,
        }
        stmt = k.insert(ChatSettingRow).values(**values)
        stmt = stmt.on_conflict_do_update(
            index_elements=[ChatSettingRow.chat_id],
            set_={"language": values["language"], "updated_at": now},
        )
        with k.db.write_lock(), k.sessions.begin() as session:
            session.execute(stmt)

    @off_loop
    def adopt_chat_language(self, chat_id: int, language: str) -> str:
        """The group's language, set to ``language`` when it has none yet (the first one used
        in the group sticks, so everyone there reads the same); returns the group's language.
        A language already set (with ``/lang``, or adopted before) is kept."""
        k = self.kernel
        now = k.clock()
        stmt = k.insert(ChatSettingRow).values(
            chat_id=chat_id, language=language[:16], updated_at=now)
        stmt = stmt.on_conflict_do_update(
            index_elements=[ChatSettingRow.chat_id],
            set_={"language": language[:16], "updated_at": now},
            where=ChatSettingRow.language.is_(None),
        )
        with k.db.write_lock(), k.sessions.begin() as session:
            session.execute(stmt)
            chosen: str | None = session.scalar(
                select(ChatSettingRow.language).where(ChatSettingRow.chat_id == chat_id))
        return chosen or language

    @off_loop
    def set_chat_quiet(self, chat_id: int, quiet: bool) -> None:
        """Quiet a group, or not (``/quiet`` by one of its admins: the bot checked)."""
        k = self.kernel
        now = k.clock()
        stmt = k.insert(ChatSettingRow).values(chat_id=chat_id, language=None, quiet=quiet,
                                               updated_at=now)
        stmt = stmt.on_conflict_do_update(index_elements=[ChatSettingRow.chat_id],
                                          set_={"quiet": quiet, "updated_at": now})
        with k.db.write_lock(), k.sessions.begin() as session:
            session.execute(stmt)

    @off_loop
    def chat_quiet(self, chat_id: int) -> bool:
        """Whether a group's admins quieted it (see :meth:`set_chat_quiet`)."""
        with self.kernel.sessions() as session:
            return bool(session.scalar(
                select(ChatSettingRow.quiet).where(ChatSettingRow.chat_id == chat_id)))

    @off_loop
    def get_chat_language(self, chat_id: int) -> str | None:
        """The language set for a group with ``/lang``, or ``None`` when none was set."""
        with self.kernel.sessions() as session:
            language: str | None = session.scalar(
                select(ChatSettingRow.language).where(ChatSettingRow.chat_id == chat_id)
            )
            return language

    @off_loop
    def active_matches_in_chat(self, chat_id: int) -> list[MatchView]:
        """The active matches played in a chat (e.g. to tell their players when the bot is
        removed from the group), oldest first, with their players and live boards. A match
        whose stored state cannot be read is left out (and logged)."""
        with self.kernel.sessions() as session:
            ids = list(
                session.scalars(
                    select(MatchRow.id)
                    .where(MatchRow.chat_id == chat_id, MatchRow.status == MatchStatus.ACTIVE)
                    .order_by(MatchRow.id)
                )
            )
            out = []
            for match_id in ids:
                loaded = self.kernel.load(session, match_id)
                if isinstance(loaded, ActionResult):
                    continue  # load has logged a corrupt state
                out.append(self.kernel.loaded_view(loaded))
            return out
