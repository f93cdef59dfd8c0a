"""Leaderboards, statistics and privacy as use cases (the queries: :mod:`storage.social`)."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError

from storage.social import (
    ChatPlayer,
    Forgotten,
    HeadToHead,
    Leaderboard,
    PlayerStats,
    find_username,
    forget,
    head_to_head,
    last_game,
    leaderboard,
    player_stats,
    players_in_chat,
    set_hidden,
)
from storage.usecases.kernel import Feature, off_loop


class SocialCases(Feature):
    """``/top``, ``/stats``, head to head, hiding from leaderboards, deleting one's data."""

    @off_loop
    def leaderboard(self, scope: int, me: int | None = None, *,
                    game: str = "portes") -> Leaderboard:
        """The leaderboard of ``game`` in ``scope`` (0: global; a group's chat id: the
        group's)."""
        with self.kernel.db.engine.connect() as conn:
            return leaderboard(conn, scope, me, game=game)

    @off_loop
    def player_stats(self, player: int, group: int | None = None, *,
                     game: str = "portes") -> PlayerStats:
        with self.kernel.db.engine.connect() as conn:
            return player_stats(conn, player, group, game=game)

    @off_loop
    def head_to_head(self, first: int, second: int, *, game: str = "portes") -> HeadToHead:
        with self.kernel.db.engine.connect() as conn:
            return head_to_head(conn, first, second, game=game)

    @off_loop
    def last_game(self, player: int, other: int | None = None) -> str | None:
        """The game of the player's last ended match (with ``other``: of their last against
        them); ``None`` when there is none."""
        with self.kernel.db.engine.connect() as conn:
            return last_game(conn, player, other)

    @off_loop
    def find_username(self, username: str) -> tuple[int, str] | None:
        """The player with this @username (any case), as ``(id, display name)``."""
        with self.kernel.db.engine.connect() as conn:
            return find_username(conn, username)

    @off_loop
    def players_in_chat(self, chat_id: int) -> list[ChatPlayer]:
        """Who played matches in this chat, who played there last first."""
        with self.kernel.db.engine.connect() as conn:
            return players_in_chat(conn, chat_id)

    @off_loop
    def set_hidden(self, player: int, hidden: bool) -> bool:
        """``/top hide`` and ``/top show``; ``False`` for a player never seen."""
        with self.kernel.db.write_lock(), self.kernel.db.engine.begin() as conn:
            return set_hidden(conn, player, hidden, self.kernel.clock())

    @off_loop
    def forget_player(self, player: int) -> Forgotten:
        """``/forgetme``: delete the player's data (refused while they play). A match they
        joined meanwhile (PostgreSQL: no write lock) makes the player row's deletion fail on
        its foreign key: then nothing is deleted and they are told they play."""
        try:
            with self.kernel.db.write_lock(), self.kernel.db.engine.begin() as conn:
                return forget(conn, player, self.kernel.clock())
        except IntegrityError:
            return Forgotten.PLAYING
