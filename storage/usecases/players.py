"""Players: Telegram users as the bot sees them (name, username, language, may we message them)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update

from storage.models import Player
from storage.results import PlayerView
from storage.usecases.kernel import Feature, off_loop
from storage.usecases.rows import player_view


class PlayerCases(Feature):
    """Creating, updating and reading players."""

    @off_loop
    def upsert_player(
        self,
        user_id: int,
        display_name: str,
        *,
        username: str | None = None,
        language: str | None = None,
        can_message: bool | None = None,
        default_language: str | None = None,
    ) -> PlayerView:
        """Create or update a player from Telegram user data (call it on every update).

        ``can_message``: ``True`` when the user started the bot in private, ``False`` after a
        403; ``None`` leaves it as it was (new players start with ``False``). ``language``
        likewise: ``None`` (or empty) leaves the stored language as it was.
        ``default_language`` (e.g. the user's Telegram language) is stored only when the player
        has no language yet (a new player, or one stored without), never over a chosen one.
        """
        k = self.kernel
        now = k.clock()
        values: dict[str, Any] = {
            "id": user_id,
            "display_name": (display_name or str(user_id))[:128],
            "username": username[:64] if username else None,
            "language": (language or default_language or "")[:16] or None,
            "can_message": bool(can_message),
            "created_at": now,
            "updated_at": now,
        }
        changes: dict[str, Any] = {
            key: values[key] for key in ("display_name", "username", "updated_at")
        }
        if can_message is not None:
            changes["can_message"] = can_message
        stmt = k.insert(Player).values(**values)
        if language:
            changes["language"] = values["language"]
        elif default_language:
            changes["language"] = func.coalesce(Player.language, stmt.excluded.language)
        stmt = stmt.on_conflict_do_update(index_elements=[Player.id], set_=changes)
        with k.db.write_lock(), k.sessions.begin() as session:
            session.execute(stmt)
            player = session.get(Player, user_id, populate_existing=True)
            assert player is not None
            view = player_view(player)
        assert view is not None
        return view

    @off_loop
    def set_can_message(self, user_id: int, can_message: bool) -> None:
        """Record whether the bot may message this user privately (after /start or a 403)."""
        with self.kernel.sessions.begin() as session:
            session.execute(
                update(Player)
                .where(Player.id == user_id)
                .values(can_message=can_message, updated_at=self.kernel.clock())
            )

    @off_loop
    def get_player(self, user_id: int) -> PlayerView | None:
        with self.kernel.sessions() as session:
            return player_view(session.get(Player, user_id))

    @off_loop
    def last_typed(self, user_id: int) -> int | None:
        """The message id of the last play this player typed that was played (``None``: none
        yet): a typed message not above it is a copy of one already played, delivered again."""
        with self.kernel.sessions() as session:
            return session.execute(
                select(Player.last_typed).where(Player.id == user_id)).scalar()

    @off_loop
    def computer_level(self, user_id: int) -> int | None:
        """The computer's level this player chose last on a /new card (``None``: never)."""
        with self.kernel.sessions() as session:
            return session.execute(
                select(Player.computer_level).where(Player.id == user_id)).scalar()

    @off_loop
    def set_computer_level(self, user_id: int, level: int) -> None:
        """Remember the computer's level a player chose (1-3) on a /new card."""
        if level not in (1, 2, 3):
            raise ValueError(f"a computer level is 1, 2 or 3, not {level!r}")
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            session.execute(update(Player).where(Player.id == user_id).values(
                computer_level=level, updated_at=self.kernel.clock()))

    @off_loop
    def set_notices(self, user_id: int, on: bool) -> PlayerView | None:
        """Turn a player's private notices on or off (``/notices``): off, their boards and
        reminders still come, silently. ``None`` for a player never seen."""
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            player = session.get(Player, user_id)
            if player is None:
                return None
            player.notices = on
            player.updated_at = self.kernel.clock()
            return player_view(player)

    @off_loop
    def set_board_look(self, user_id: int, *, theme: str | None = None,
                       home: str | None = None) -> PlayerView | None:
        """Set how a player's private boards are drawn (``/settings``): the theme's name (the
        bot offers ``rendering.THEMES``) and the home side, ``right`` or ``left``; ``None``
        leaves one as it was. ``None`` for a player never seen."""
        if home is not None and home not in ("right", "left"):
            raise ValueError(f"home must be 'right' or 'left', not {home!r}")
        if theme is not None and not 0 < len(theme) <= 16:
            raise ValueError(f"not a theme name: {theme!r}")
        with self.kernel.db.write_lock(), self.kernel.sessions.begin() as session:
            player = session.get(Player, user_id)
            if player is None:
                return None
            if theme is not None:
                player.theme = theme
            if home is not None:
                player.home_side = home
            player.updated_at = self.kernel.clock()
            return player_view(player)
